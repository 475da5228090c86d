"""The notebook view's notebook (engine/site/notebook_view.py), without a build: made from the
downloadable notebook and the recorded outputs alone, with the same outputs, and only for pages
that offer a notebook. The built views are tested in tests/browser/test_notebook_view.py."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc
from mkdocs.utils import meta

from engine.page.model import ROOT
from engine.page.parser import read_page
from engine.page.policy import wants_notebook
from engine.run.results import Figure, Outcome
from engine.site import kept, notebook_view
from engine.site.labels import VIEW_OPT_IN
from engine.site.notebooks import build_notebook
from tests.helpers import site_page

SITE = "https://example.org/docs/"
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))
SVG = '<svg width="460.8pt" height="345.6pt">{}</svg>'


@pytest.mark.unit
def test_only_pages_that_offer_a_notebook_ask_for_a_view():
    asking = [p for p in PAGES if site_page(p).meta.get(VIEW_OPT_IN)]
    assert "docs/practice/exercises.md" in asking
    assert all(wants_notebook(p) for p in asking), asking


@pytest.mark.unit
def test_a_page_links_its_view_only_from_a_build_that_makes_views():
    """MkDocs' hook makes the views; a Zensical build cannot, so it must not link them."""
    from engine.site.labels import VIEW_LINK_TEXT
    from engine.site.render import Site, render_download_link

    asking = site_page("docs/course/why-compile.md")
    assert asking.meta.get(VIEW_OPT_IN)
    links = {}
    for views in (True, False):
        site = Site(ROOT, notebooks={asking.path: {}}, views=views)
        links[views] = render_download_link(site, asking)
    assert VIEW_LINK_TEXT in links[True]
    assert VIEW_LINK_TEXT not in links[False] and "Download this page" in links[False]
    assert notebook_view.view_uri("docs/course/pitfalls.md") == "course/pitfalls/notebook.ipynb"


def test_mkdocs_jupyter_renders_the_views_and_only_them():
    """The hook loads mkdocs-jupyter with notebook_view.OPTIONS, which the plugin accepts;
    mkdocs.yml does not list it, so a build whose views did not change does not import it."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    assert "mkdocs-jupyter" not in config.plugins
    plugin = notebook_view.load_plugin(config)
    options = plugin.config
    view_file = ROOT / notebook_view.VIEW_DIR / "course" / "why-compile.ipynb"
    assert [view_file.match(pattern) for pattern in options["include"]] == [True]
    assert not (ROOT / "docs" / "course" / "why-compile.ipynb").match(options["include"][0])
    assert options["ignore"] == ["*.md"] and options["execute"] is False
    assert Path(options["custom_template"]).is_file()
    assert options["no_prompt"] is True and options["mathjax_version"] == 2


def test_bad_mkdocs_jupyter_options_fail_the_build(monkeypatch):
    config = load_config(str(ROOT / "mkdocs.yml"))
    monkeypatch.setitem(notebook_view.OPTIONS, "mathjax_version", 7)
    with pytest.raises(notebook_view.PluginError, match="mathjax_version"):
        notebook_view.load_plugin(config)


def view_inputs(tmp_path: Path):
    """A page with a printed line, an error and a chart; its notebook; its recorded outcomes."""
    (tmp_path / "docs" / "course").mkdir(parents=True, exist_ok=True)
    (tmp_path / "docs" / "course" / "demo.md").write_text(
        "---\nnotebook_view: true\ndescription: A demo.\n---\n\n# Demo\n\n"
        "See [the other page](other.md).\n\n```python\nprint(1)\n```\n\n"
        "<!-- bad: raises ZeroDivisionError -->\n```python\n1 / 0\n```\n\n"
        "<!-- good -->\n```python\nplot()\n```\n",
        encoding="utf-8",
    )
    (tmp_path / "snippets").mkdir()
    figure = Figure(light=SVG.format("light"), dark=SVG.format("dark"), alt='A "chart"')
    outcomes = [
        Outcome(output="1\n"),
        Outcome(error_type="ZeroDivisionError", error_message="division by zero"),
        Outcome(figures=[figure]),
    ]
    page = read_page("docs/course/demo.md", tmp_path)
    notebook = build_notebook(page, outcomes=outcomes, site_url=SITE, root=tmp_path)
    return page, notebook, outcomes


@pytest.fixture
def demo_config(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    config = MkDocsConfig()
    config.load_dict({"site_name": "demo", "site_url": SITE, "docs_dir": str(tmp_path / "docs")})
    errors, _ = config.validate()
    assert not errors, errors
    config.plugins._current_plugin = None  # set by mkdocs while an event runs; File reads it
    return config


@pytest.mark.unit
def test_the_view_has_the_notebooks_outputs_with_both_chart_renderings(tmp_path, demo_config):
    page, notebook, outcomes = view_inputs(tmp_path)
    figure = outcomes[2].figures[0]
    files = Files([])
    for theme in ("light", "dark"):  # what the hook adds for every chart
        digest = hashlib.sha256(getattr(figure, theme).encode()).hexdigest()[:12]
        files.append(File.generated(demo_config, f"figures/demo/{digest}-{theme}.svg", content="x"))

    notebook_view.add(page, notebook, outcomes, files, demo_config, tmp_path)

    added = files.get_file_from_path("course/demo/notebook.ipynb")
    assert added is not None and not added.inclusion.is_in_nav()
    view = json.loads(Path(added.abs_src_path).read_text(encoding="utf-8"))
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    shown = [c for c in view["cells"] if c["cell_type"] == "code"]
    assert [c["source"] for c in shown] == [c["source"] for c in code]
    for original, copy in zip(code, shown, strict=True):
        for before, after in zip(original["outputs"], copy["outputs"], strict=True):
            if "image/svg+xml" in before.get("data", {}):
                html = after["data"]["text/html"]
                assert html.count("<img") == 2 and 'alt="A &quot;chart&quot;"' in html
                assert "-light.svg#only-light" in html and "-dark.svg#only-dark" in html
                assert 'width="614" height="461"' in html
            else:
                assert after == before
    assert sum(len(c["outputs"]) for c in shown) == 3

    title = view["cells"][0]["source"]
    meta = yaml.safe_load(title.split("---\n")[1])
    assert meta["search"] == {"exclude": True} and meta["title"] == "Demo (notebook)"
    assert "A demo." in meta["description"]
    prose = "\n".join(c["source"] for c in view["cells"] if c["cell_type"] == "markdown")
    assert SITE not in prose and "](../../../course/other/)" in prose
    assert "[Download this notebook](../../demo.ipynb)" in prose


@pytest.mark.unit
def test_a_chart_missing_from_the_site_fails_the_build(tmp_path, demo_config):
    page, notebook, outcomes = view_inputs(tmp_path)
    with pytest.raises(notebook_view.PluginError, match="not on the site"):
        notebook_view.add(page, notebook, outcomes, Files([]), demo_config, tmp_path)


@pytest.mark.unit
def test_an_unchanged_view_is_not_rewritten(tmp_path, demo_config):
    """A warm rebuild leaves the view's file alone (mkdocs serve, overlapping builds)."""
    page, notebook, outcomes = view_inputs(tmp_path)
    outcomes[2].figures = []
    notebook["cells"] = [c for c in notebook["cells"] if "plot()" not in c["source"]]
    notebook_view.add(page, notebook, outcomes, Files([]), demo_config, tmp_path)
    path = tmp_path / notebook_view.VIEW_DIR / "course" / "demo.ipynb"
    written = path.stat()
    notebook_view.add(page, notebook, outcomes, Files([]), demo_config, tmp_path)
    again = path.stat()
    assert (again.st_ino, again.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    notebook["cells"][-1]["source"] += "\n# edited"
    notebook_view.add(page, notebook, outcomes, Files([]), demo_config, tmp_path)
    assert path.stat().st_ino != written.st_ino  # a changed view is replaced


class FakeJupyter:
    """Stands for mkdocs-jupyter: counts its conversions and front-matter reads."""

    def __init__(self) -> None:
        self.converted: list[bytes] = []
        self.read = 0

    def should_include(self, file) -> bool:
        return True

    def on_pre_page(self, page, config, files):
        def render(page, config, files) -> None:
            self.converted.append(Path(page.file.abs_src_path).read_bytes())
            page.content = f"<p>{len(self.converted)}</p>"
            page.toc = get_toc([{"level": 2, "id": "a", "name": "A", "children": []}])

        page.render = render.__get__(page)
        return page

    def on_page_read_source(self, page, config) -> str:
        self.read += 1
        return "---\ntitle: Demo (notebook)\n---\n"


def build_view(renderer, file, config, files=None):
    """What mkdocs does with a page, for the events the renderer takes part in."""
    page = Page(None, file, config) if isinstance(file, File) else SimpleNamespace(file=file)
    page = renderer.on_pre_page(page, config, files)
    page.markdown, page.meta = meta.get_data(renderer.on_page_read_source(page, config))
    page.render(config, files)
    return page


@pytest.fixture
def view(tmp_path: Path):
    source = tmp_path / "demo.ipynb"
    source.write_text('{"cells": []}', encoding="utf-8")
    return source


def renders(view: Path, config) -> tuple[FakeJupyter, SimpleNamespace, list[int]]:
    """One build's render of ``view`` by a new renderer, kept as the build keeps its pages'
    renders; the fake plugin, the page, and how often the renderer loaded the plugin."""
    jupyter, loads = FakeJupyter(), []
    key = kept.converter_key(Path(notebook_view.__file__))
    store = kept.Kept(None, key, view.with_name("rendered-pages.json"))
    renderer = notebook_view.ViewRenderer(lambda config: loads.append(1) or jupyter, store)
    file = SimpleNamespace(src_uri="course/demo/notebook.ipynb", abs_src_path=str(view))
    page = build_view(renderer, file, config)
    store.save()
    return jupyter, page, loads


MATERIAL = {"theme": SimpleNamespace(name="material")}


@pytest.mark.unit
def test_an_unchanged_view_is_served_from_its_stored_render(view):
    """A warm rebuild neither loads mkdocs-jupyter nor converts; it serves the same render."""
    jupyter, first, loads = renders(view, MATERIAL)
    assert (len(jupyter.converted), jupyter.read, len(loads)) == (1, 1, 1)
    jupyter, second, loads = renders(view, MATERIAL)
    assert (len(jupyter.converted), jupyter.read, len(loads)) == (0, 0, 0)
    assert second.content == first.content == "<p>1</p>"
    assert second.meta == first.meta == {"title": "Demo (notebook)"}
    assert [(i.title, i.id, i.level) for i in second.toc.items] == [("A", "a", 2)]


def change_template(view, monkeypatch):
    template = view.with_name("view.html.j2")
    template.write_bytes(notebook_view.TEMPLATE.read_bytes() + b"{# edited #}")
    monkeypatch.setattr(notebook_view, "TEMPLATE", template)


KEY_PARTS = {
    "view notebook": lambda view, monkeypatch: view.write_text('{"cells": [1]}'),
    "template": change_template,
    "options": lambda view, mp: mp.setitem(notebook_view.OPTIONS, "no_prompt", False),
    "theme": lambda view, mp: mp.setattr(MATERIAL["theme"], "name", "mkdocs"),
    "renderers": lambda view, mp: mp.setattr(
        kept, "renderer_distributions", lambda *_: b"nbconvert==9"
    ),
    "Jupyter path": lambda view, mp: mp.setenv("JUPYTER_PATH", str(view.parent)),
}


@pytest.mark.unit
@pytest.mark.parametrize("part", KEY_PARTS)
def test_a_change_to_any_part_of_the_key_renders_the_view_again(view, monkeypatch, part):
    renders(view, MATERIAL)
    jupyter, _, _ = renders(view, MATERIAL)
    assert jupyter.converted == []
    KEY_PARTS[part](view, monkeypatch)
    jupyter, page, loads = renders(view, MATERIAL)
    assert len(jupyter.converted) == 1 and len(loads) == 1 and page.content == "<p>1</p>"


def test_a_stored_render_is_the_render_mkdocs_jupyter_makes(tmp_path):
    """The real plugin: the stored render gives the page the same HTML, table of contents, front
    matter and title as the conversion, and the view file has the plugin's address."""
    from mkdocs_jupyter.plugin import NotebookFile

    page, notebook, outcomes = view_inputs(tmp_path)
    outcomes[2].figures = []
    notebook["cells"] = [c for c in notebook["cells"] if "plot()" not in c["source"]]
    config = load_config(str(ROOT / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
    config.plugins._current_plugin = None  # set by mkdocs while an event runs; File reads it
    files = Files([])
    notebook_view.add(page, notebook, outcomes, files, config, tmp_path)
    file = files.get_file_from_path("course/demo/notebook.ipynb")
    wrapped = NotebookFile(file, **config)
    assert (file.dest_uri, file.url) == (wrapped.dest_path, wrapped.url)
    assert (file.dest_uri, file.url) == ("course/demo/notebook/index.html", "course/demo/notebook/")

    store = kept.Kept(None, "")  # the build's kept renders
    converting = notebook_view.ViewRenderer(renders=store)
    converted = build_view(converting, file, config, files)
    serving = notebook_view.ViewRenderer(lambda config: pytest.fail("mkdocs-jupyter loaded"), store)
    served = build_view(serving, file, config, files)
    assert converting.conversions == 1 and serving.conversions == 0
    assert "Demo (notebook)" == served.title == converted.title
    assert served.meta == converted.meta and served.meta["search"] == {"exclude": True}
    assert served.content == converted.content and "jp-Notebook" in served.content
    assert served.toc.items and str(served.toc) == str(converted.toc)


def test_the_plugin_events_the_hook_does_not_call_change_nothing(tmp_path):
    """With notebook_view.OPTIONS, mkdocs-jupyter's other events leave a view as it is, so the
    hook, which calls only its on_config, on_pre_page and on_page_read_source, loses nothing."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    plugin = notebook_view.load_plugin(config)
    source = tmp_path / "notebook-view" / "course" / "demo.ipynb"
    uri = "course/demo/notebook.ipynb"
    file = SimpleNamespace(src_uri=uri, src_path=uri, abs_src_path=str(source))
    page = SimpleNamespace(file=file, toc=None)
    assert plugin.should_include(file)
    assert plugin.on_page_markdown("# Demo", page, config, None) is None
    assert plugin.on_page_content("<p>view</p>", page, config, None) == "<p>view</p>"
    html = '<html><body><div data-md-color-scheme="slate"></div></body></html>'
    assert plugin.on_post_page(html, page, config) == html
    assert plugin.on_post_build(config) is None


@pytest.mark.unit
def test_the_view_names_a_bundled_data_file_and_the_download_keeps_its_text():
    """why-compile bundles the TPU recording its chart reads (some 150 KB): the view shows its
    name and size, so a phone does not lay out the data; the notebook itself is unchanged."""
    page = read_page("docs/course/why-compile.md", ROOT)
    notebook = build_notebook(page)
    meta = {"title": "Why compile"}
    view = notebook_view.view_notebook(
        notebook, {}, here="course/why-compile/notebook/", site_url="", meta=meta
    )
    setup = next(c for c in notebook["cells"] if "setup" in c["metadata"].get("tags", []))
    shown = next(c for c in view["cells"] if "setup" in c["metadata"].get("tags", []))
    recorded = '"beyond/accelerators": {'  # a line of the recording's text
    assert recorded in setup["source"] and recorded not in shown["source"]
    assert "'docs/data/accelerator.json': ...,  # " in shown["source"]
    assert "'snippets/jitkit.py': r'''" in shown["source"]  # code is shown whole
    assert len(shown["source"]) < len(setup["source"]) / 2
