"""The notebook view's notebook (engine/site/notebook_view.py), without a build: made from the
downloadable notebook and the recorded outputs alone, with the same outputs, and only for pages
that offer a notebook. The built views are tested in tests/browser/test_notebook_view.py."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.toc import get_toc

from engine.page.model import ROOT
from engine.page.parser import read_page
from engine.run.results import Figure, Outcome
from engine.site import notebook_view
from engine.site.notebooks import build_notebook, wants_notebook

SITE = "https://example.org/docs/"
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))
SVG = '<svg width="460.8pt" height="345.6pt">{}</svg>'


def test_only_pages_that_offer_a_notebook_ask_for_a_view():
    asking = [
        p for p in PAGES if notebook_view.front_matter(read_page(p)).get(notebook_view.OPT_IN)
    ]
    assert "docs/practice/exercises.md" in asking
    assert all(wants_notebook(p) for p in asking), asking
    assert notebook_view.view_uri("docs/course/pitfalls.md") == "course/pitfalls/notebook.ipynb"


def test_mkdocs_jupyter_renders_the_views_and_only_them():
    config = load_config(str(ROOT / "mkdocs.yml"))
    options = config.plugins["mkdocs-jupyter"].config
    view_file = ROOT / notebook_view.VIEW_DIR / "course" / "why-compile.ipynb"
    assert [view_file.match(pattern) for pattern in options["include"]] == [True]
    assert not (ROOT / "docs" / "course" / "why-compile.ipynb").match(options["include"][0])
    assert options["ignore"] == ["*.md"] and options["execute"] is False
    assert Path(options["custom_template"]).is_file()


def sample(tmp_path: Path):
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
def site(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    config = MkDocsConfig()
    config.load_dict({"site_name": "demo", "site_url": SITE, "docs_dir": str(tmp_path / "docs")})
    errors, _ = config.validate()
    assert not errors, errors
    config.plugins._current_plugin = None  # set by mkdocs while an event runs; File reads it
    return config


def test_the_view_has_the_notebooks_outputs_with_both_chart_renderings(tmp_path, site):
    page, notebook, outcomes = sample(tmp_path)
    figure = outcomes[2].figures[0]
    files = Files([])
    for theme in ("light", "dark"):  # what the hook adds for every chart
        digest = notebook_view.hashlib.sha256(getattr(figure, theme).encode()).hexdigest()[:12]
        files.append(File.generated(site, f"figures/demo/{digest}-{theme}.svg", content="x"))

    notebook_view.add(page, notebook, outcomes, files, site, tmp_path)

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


def test_a_chart_missing_from_the_site_fails_the_build(tmp_path, site):
    page, notebook, outcomes = sample(tmp_path)
    with pytest.raises(notebook_view.PluginError, match="not on the site"):
        notebook_view.add(page, notebook, outcomes, Files([]), site, tmp_path)


def test_an_unchanged_view_is_not_rewritten(tmp_path, site):
    """A warm rebuild leaves the view's file alone (mkdocs serve, overlapping builds)."""
    page, notebook, outcomes = sample(tmp_path)
    outcomes[2].figures = []
    notebook["cells"] = [c for c in notebook["cells"] if "plot()" not in c["source"]]
    notebook_view.add(page, notebook, outcomes, Files([]), site, tmp_path)
    path = tmp_path / notebook_view.VIEW_DIR / "course" / "demo.ipynb"
    written = path.stat()
    notebook_view.add(page, notebook, outcomes, Files([]), site, tmp_path)
    again = path.stat()
    assert (again.st_ino, again.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    notebook["cells"][-1]["source"] += "\n# edited"
    notebook_view.add(page, notebook, outcomes, Files([]), site, tmp_path)
    assert path.stat().st_ino != written.st_ino  # a changed view is replaced


def test_an_unchanged_view_is_rendered_from_the_cache(tmp_path):
    """A warm rebuild does not convert the view again; a changed view notebook is converted."""
    source = tmp_path / "demo.ipynb"
    source.write_text('{"cells": []}', encoding="utf-8")
    config = SimpleNamespace(plugins={"mkdocs-jupyter": SimpleNamespace(config={"no_prompt": 1})})
    conversions = []

    def convert(self, config, files):  # stands for mkdocs-jupyter's render
        conversions.append(source.read_text(encoding="utf-8"))
        self.content = f"<p>{len(conversions)}</p>"
        self.toc = get_toc([{"level": 2, "id": "a", "name": "A", "children": []}])

    def build():
        file = SimpleNamespace(src_uri="course/demo/notebook.ipynb", abs_src_path=str(source))
        page = SimpleNamespace(file=file)
        page.render = convert.__get__(page)
        notebook_view.on_pre_page(page, config, files=None)
        page.render(config, None)
        return page

    first, second = build(), build()
    assert len(conversions) == 1 and second.content == first.content == "<p>1</p>"
    assert [(i.title, i.id, i.level) for i in second.toc.items] == [("A", "a", 2)]
    source.write_text('{"cells": [1]}', encoding="utf-8")
    assert build().content == "<p>2</p>" and len(conversions) == 2
