"""Conversions kept between builds (engine/site/kept.py): a warm rebuild converts no coloured
output and no page it converted before with the same converter (so it does not import
nbconvert), and shows what the conversion makes."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

import markdown
import pytest
from jinja2 import DictLoader, Environment, FileSystemBytecodeCache
from mkdocs.config import load_config
from mkdocs.structure.toc import get_toc

from engine.page.model import ROOT
from engine.run import environment
from engine.run.results import PageResult
from engine.site import kept, sections

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs

RED = "\x1b[31mred\x1b[0m and plain"
PAGE = "<h2>A</h2>" + "<p>text</p>" * 200
OTHER = "<h2>B</h2><pre><code>x = 1</code></pre>"


def wrapped(cache_dir: Path | None = None, fresh: bool = False) -> kept.Kept:
    """A kept conversion (the build keeps its pages' renders so)."""
    path = cache_dir / "sections.json" if cache_dir else None
    key = kept.converter_key(Path(sections.__file__))
    return kept.Kept(sections.wrap_sections, key, path, fresh)


def test_a_warm_build_converts_nothing_and_shows_the_same(tmp_path):
    first = wrapped(tmp_path)
    shown = first(PAGE)
    first.save()
    assert first.conversions == 1 and shown == sections.wrap_sections(PAGE) and shown != PAGE
    second = wrapped(tmp_path)
    assert second(PAGE) == shown and second.conversions == 0


def test_a_new_input_is_converted_and_an_unused_one_is_not_kept(tmp_path):
    first = wrapped(tmp_path)
    first(PAGE)
    first.save()
    second = wrapped(tmp_path)
    assert second(OTHER) == sections.wrap_sections(OTHER) and second.conversions == 1
    second.save()
    stored = json.loads(next(tmp_path.iterdir()).read_text(encoding="utf-8"))["made"]
    assert list(stored.values()) == [sections.wrap_sections(OTHER)]


def test_a_fresh_build_converts_again(tmp_path):
    first = wrapped(tmp_path)
    first(PAGE)
    first.save()
    fresh = wrapped(tmp_path, fresh=True)
    fresh(PAGE)
    assert fresh.conversions == 1


def test_a_new_converter_converts_again(tmp_path, monkeypatch):
    first = wrapped(tmp_path)
    first(PAGE)
    first.save()
    monkeypatch.setattr(kept, "renderer_distributions", lambda *_: b"pygments==99.0")
    upgraded = wrapped(tmp_path)
    upgraded(PAGE)
    assert upgraded.conversions == 1


def test_the_converter_key_holds_the_modules_and_the_renderers_distributions(tmp_path, monkeypatch):
    module, other = tmp_path / "render.py", tmp_path / "sections.py"
    module.write_bytes(b"def render(text): ...\n")
    other.write_bytes(b"def wrap(text): ...\n")
    key = kept.converter_key(module, other)
    other.write_bytes(b"def wrap(text): ...\n# edited\n")
    assert kept.converter_key(module, other) != key
    edited = kept.converter_key(module, other)
    monkeypatch.setattr(kept, "renderer_distributions", lambda *_: b"other")
    assert kept.converter_key(module, other) != edited


def write_distribution(
    place: Path, name: str, version: str, requires=(), entry_points: str = ""
) -> None:
    """A distribution's metadata folder, as an installer writes it."""
    folder = place / f"{name.replace('-', '_')}-{version}.dist-info"
    folder.mkdir(parents=True)
    headers = [f"Name: {name}", f"Version: {version}", *(f"Requires-Dist: {r}" for r in requires)]
    # a description line that looks like a header is no requirement
    body = "\n\nRequires-Dist: shown-in-the-description\n"
    (folder / "METADATA").write_text("\n".join(["Metadata-Version: 2.1", *headers]) + body)
    if entry_points:
        (folder / "entry_points.txt").write_text(entry_points)


REQUIRES = {
    "render-root": ["dep-a>=1", "old-only; python_version < '3'"],
    "dep-a": ["Leaf_B[fancy]", "tests-only; extra == 'test'"],
    "leaf-b": ["fancy-dep; extra == 'fancy'"],
}


@pytest.fixture
def venv(tmp_path, monkeypatch):
    """A venv of its own (sys.path is its site-packages), with a renderer whose requirements
    reach a leaf through a requirement with an extra, one under a marker that does not hold
    here, and one under an extra nobody asks for."""
    place = tmp_path / "site-packages"
    for name, version in [("render-root", "1.0"), ("dep-a", "2.0"), ("leaf-b", "3.0")]:
        write_distribution(place, name, version, REQUIRES[name])
    write_distribution(place, "fancy-dep", "1.0")
    for name in ("old-only", "tests-only", "pytest"):
        write_distribution(place, name, "1.0")
    monkeypatch.setattr(sys, "path", [str(place)])
    environment.renderer_distributions.cache_clear()
    yield place
    environment.renderer_distributions.cache_clear()


def renderers_key() -> bytes:
    environment.renderer_distributions.cache_clear()
    return environment.renderer_distributions(("render-root",), ("pygments.",))


def reinstall(place: Path, name: str, version: str, requires=()) -> None:
    for folder in place.glob(f"{name.replace('-', '_')}-*.dist-info"):
        shutil.rmtree(folder)
    write_distribution(place, name, version, requires)


def test_the_key_names_the_renderers_and_what_they_require_here(venv):
    lines = renderers_key().decode().split("\n")
    assert lines[0] == sys.version
    assert lines[1:] == ["dep-a==2.0", "fancy-dep==1.0", "leaf-b==3.0", "render-root==1.0"]


@pytest.mark.parametrize("name", ["render-root", "dep-a", "leaf-b", "fancy-dep"])
def test_a_new_version_of_anything_the_renderers_require_changes_the_key(venv, name):
    before = renderers_key()
    reinstall(venv, name, "9.9", REQUIRES.get(name, []))
    assert renderers_key() != before


def test_what_the_renderers_do_not_require_here_leaves_the_key(venv):
    """What the tests' venv has beside the docs' (pytest, an extra of the tests) is no part of
    it: the two venvs share the kept renders (issue #63)."""
    before = renderers_key()
    for name in ("old-only", "tests-only", "pytest"):
        reinstall(venv, name, "9.9")
    write_distribution(venv, "playwright", "1.0")
    assert renderers_key() == before


def test_a_plugin_and_what_it_requires_are_in_the_key(venv):
    before = renderers_key()
    lexer = "[pygments.lexers]\nextra = extra_lexer:ExtraLexer\n"
    write_distribution(venv, "extra-lexer", "1.0", ["lexer-dep"], entry_points=lexer)
    write_distribution(venv, "lexer-dep", "1.0")
    with_plugin = renderers_key()
    assert (
        with_plugin != before and b"[pygments.lexers] extra = extra_lexer:ExtraLexer" in with_plugin
    )
    reinstall(venv, "lexer-dep", "2.0")
    assert renderers_key() != with_plugin


def test_a_required_distribution_installed_later_changes_the_key(venv):
    reinstall(venv, "leaf-b", "3.0", ["fancy-dep; extra == 'fancy'", "late"])
    missing = renderers_key()
    assert b"late missing" in missing
    write_distribution(venv, "late", "1.0")
    assert renderers_key() != missing


def test_the_first_installed_on_the_path_is_the_one_in_the_key(venv, monkeypatch, tmp_path):
    before = renderers_key()
    write_distribution(tmp_path / "later", "leaf-b", "8.0")
    monkeypatch.setattr(sys, "path", [str(venv), str(tmp_path / "later")])
    assert renderers_key() == before
    write_distribution(tmp_path / "first", "leaf-b", "8.0")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "first"), *sys.path])
    assert b"leaf-b==8.0" in renderers_key()


def test_this_venvs_renderers_are_in_the_key_and_the_tests_tools_are_not():
    """The real key, in this venv (the tests', with pytest and Playwright beside the docs'):
    the view's renderers, what they require, the plugins; nothing the tests alone install."""
    lines = set(
        kept.renderer_distributions(kept.RENDERERS, kept.PLUGIN_GROUPS).decode().split("\n")
    )
    names = {line.split("==")[0] for line in lines if "==" in line}
    assert {"mkdocs-jupyter", "nbconvert", "pygments", "mistune", "jupytext", "jinja2"} <= names
    assert {"pymdown-extensions", "mkdocs-material", "markdown"} <= names
    assert not {"pytest", "playwright", "sybil", "zensical", "pytest-xdist"} & names
    assert any(line.startswith("[pygments.lexers] ipython") for line in lines)


def test_a_new_version_of_a_renderers_dependency_changes_the_real_key(tmp_path, monkeypatch):
    """Pygments (which pymdown-extensions and nbconvert require) upgraded ahead of this venv's
    on the path changes the key of every kept conversion; a distribution no renderer needs
    does not."""
    module = Path(sections.__file__)
    environment.renderer_distributions.cache_clear()
    key = kept.converter_key(module)
    write_distribution(tmp_path / "later", "unneeded", "1.0")
    monkeypatch.setattr(sys, "path", [*sys.path, str(tmp_path / "later")])
    environment.renderer_distributions.cache_clear()
    assert kept.converter_key(module) == key
    write_distribution(tmp_path / "first", "pygments", "99.0")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "first"), *sys.path])
    environment.renderer_distributions.cache_clear()
    assert kept.converter_key(module) != key
    environment.renderer_distributions.cache_clear()


def test_without_a_store_every_build_converts():
    for _ in range(2):
        unkept = wrapped()
        unkept(PAGE)
        unkept.save()
        assert unkept.conversions == 1 and unkept.path is None


def test_the_renderer_draws_coloured_outputs(tmp_path):
    from engine.site import render

    site = render.Site(tmp_path)
    fence = render.render_output(site, RED + "\n", "Output")
    key = fence.split("\n")[1]
    html = render.colour_outputs(site, f"<code>{key}\nred and plain\n</code>")
    assert html == f"<code>{render.to_html(RED)}\n</code>"
    assert '<span class="ansi-red-fg">red</span>' in html


def test_the_extension_wraps_each_page_in_sections(tmp_path):
    from engine.page.parser import parse_page
    from engine.site import extension, render

    markdown_page = "# Demo\n\nOne.\n\n## Two\n\nSecond.\n"
    md = markdown.Markdown(extensions=[extension.makeExtension()])
    site = render.Site(tmp_path)
    site.pages["docs/demo.md"] = parse_page("docs/demo.md", markdown_page)
    site.results["docs/demo.md"] = PageResult(outcomes=[], environment={})
    extension.publish(site)
    assert md.convert(markdown_page) == sections.wrap_sections(markdown.markdown(markdown_page))


FENCE = '```python title="demo.py"\nx = [1, 2]  # a list\n```\n'
DEMO = "# Demo\n\nSee [the quiz](quiz.md#q1).\n\n## Code\n\n" + FENCE


def rendered_page(tmp_path, text=DEMO, rendered=None, uris=("demo.md", "quiz.md")):
    """One build's render of a page by MkDocs with its kept renders in tmp_path: the page, and
    how many pages the build rendered (``rendered``: the extension's Markdown for it)."""
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.pages import Page

    from engine.site import extension, hook, render

    extension.publish(render.Site(tmp_path))  # no page of this site: Markdown passes through
    config = load_config(str(ROOT / "mkdocs.yml"))
    files = Files([File(uri, str(tmp_path), str(tmp_path / "site"), True) for uri in uris])
    page = Page(None, files.get_file_from_path("demo.md"), config)
    page.markdown = text
    pages = kept.Conversions(tmp_path).pages
    hook.kept_render(pages, page, text if rendered is None else rendered)
    page.render(config, files)
    pages.save()
    return page, pages.conversions


def render_of(page) -> tuple:
    """All that MkDocs' render gives a page."""
    links = {file.src_uri: anchors for file, anchors in (page.links_to_anchors or {}).items()}
    toc = [(item.title, item.id, [child.id for child in item.children]) for item in page.toc]
    return page.content, toc, page.title, page.present_anchor_ids, links


def test_a_warm_build_renders_no_page_and_shows_the_same(tmp_path):
    plain = rendered_page(tmp_path / "unkept")[0]  # the first build renders it anew
    first, conversions = rendered_page(tmp_path)
    assert conversions == 1 and '<span class="mi">1</span>' in first.content
    again, conversions = rendered_page(tmp_path)
    assert conversions == 0 and render_of(again) == render_of(first) == render_of(plain)
    assert render_of(first)[4]["quiz.md"] == {"q1": "quiz.md#q1"} and "code" in render_of(first)[3]


@pytest.mark.parametrize(
    "change",
    [
        {"text": DEMO.replace("[1, 2]", "[1, 3]")},  # a fence edited
        {"text": DEMO.replace("python", "pycon")},
        {"text": DEMO.replace("See", "Read")},  # prose edited
        {"rendered": DEMO + "\nNew output.\n"},  # the run's outputs changed, not the page
        {"uris": ("demo.md", "quiz.md", "new.md")},  # the site's files changed
        {"uris": ("demo.md", "quiz.md", "other/quiz.md")},
    ],
)
def test_an_edited_page_or_site_renders_the_page_again(tmp_path, change):
    rendered_page(tmp_path)
    edited, conversions = rendered_page(tmp_path, **change)
    assert conversions == 1
    assert edited.content == rendered_page(tmp_path / "unkept", **change)[0].content
    if "text" in change and "pycon" not in change["text"]:
        assert edited.content != rendered_page(tmp_path)[0].content


def test_a_render_that_warns_is_rendered_again_next_build(tmp_path, caplog):
    for _ in range(2):
        caplog.clear()
        _, conversions = rendered_page(tmp_path, uris=("demo.md",))  # quiz.md is gone
        assert conversions == 1
        assert any("quiz.md" in r.getMessage() for r in caplog.records if r.levelname == "WARNING")


def search_page(**changes):
    """What Material's search index reads of a page."""
    toc = [{"level": 2, "id": "two", "name": "Two", "children": []}]
    page = {
        "content": '<h1 id="one">One</h1><p>First.</p><h2 id="two">Two</h2><p>Second.</p>',
        "url": "course/demo/",
        "title": "One",
        "meta": {"search": {"boost": 2}},
        "toc": get_toc(toc),
    }
    return SimpleNamespace(**{**page, **changes})


def search_build(tmp_path, page, options=None):
    """One build's search plugin, set up as mkdocs does, with its entries kept in tmp_path."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    plugin = config.plugins[kept.SEARCH_PLUGIN]
    plugin.config.update(options or {})
    plugin.on_config(config)
    conversions = kept.Conversions(tmp_path, config=config)
    plugin.on_page_context({}, page=page, config=config, nav=None)  # indexes the page
    conversions.save()
    return plugin.search_index.entries, conversions.search


def test_a_warm_build_indexes_a_page_as_material_does_without_parsing_it(tmp_path):
    config = load_config(str(ROOT / "mkdocs.yml"))
    plugin = config.plugins[kept.SEARCH_PLUGIN]
    plugin.on_config(config)
    plugin.search_index.add_entry_from_context(search_page())  # Material's own, unwrapped
    material = plugin.search_index.entries
    assert [e["location"] for e in material] == ["course/demo/", "course/demo/#two"]
    entries, search = search_build(tmp_path, search_page())
    assert entries == material and search.conversions == 1
    entries, search = search_build(tmp_path, search_page())
    assert entries == material and search.conversions == 0


SEARCH_CHANGES = {
    "content": {"content": "<h1>One</h1><p>Edited.</p>"},
    "url": {"url": "course/other/"},
    "title": {"title": "Another"},
    "meta": {"meta": {"search": {"boost": 3}}},
    "toc": {"toc": get_toc([])},
}


@pytest.mark.parametrize("part", SEARCH_CHANGES)
def test_a_change_to_what_the_index_reads_indexes_the_page_again(tmp_path, part):
    search_build(tmp_path, search_page())
    entries, search = search_build(tmp_path, search_page(**SEARCH_CHANGES[part]))
    assert search.conversions == 1
    config = load_config(str(ROOT / "mkdocs.yml"))
    plugin = config.plugins[kept.SEARCH_PLUGIN]
    plugin.on_config(config)
    plugin.search_index.add_entry_from_context(search_page(**SEARCH_CHANGES[part]))
    assert entries == plugin.search_index.entries


def test_new_search_options_index_the_page_again(tmp_path):
    search_build(tmp_path, search_page())
    _, search = search_build(tmp_path, search_page(), {"separator": "[\\s]+"})
    assert search.conversions == 1


def test_search_entries_are_not_kept_with_a_chinese_user_dictionary(tmp_path):
    config = load_config(str(ROOT / "mkdocs.yml"))
    plugin = config.plugins[kept.SEARCH_PLUGIN]
    plugin.config.update({"jieba_dict_user": str(tmp_path / "words.txt")})
    plugin.on_config(config)
    assert kept.keep_search_entries(config, tmp_path) is None


def theme_env(source: str, compiled: list[str]):
    """A Jinja environment with one template, that notes each template it compiles."""
    env = Environment(loader=DictLoader({"page.html": source}))
    compile_source = env.compile

    def compile_counted(source, name=None, filename=None, *args, **kwargs):
        compiled.append(name)
        return compile_source(source, name, filename, *args, **kwargs)

    env.compile = compile_counted
    return env


def test_a_warm_build_compiles_no_unchanged_template(tmp_path):
    compiled = []
    for expected in (["page.html"], []):
        env = kept.Conversions(tmp_path).templates(theme_env("<p>{{ x }}</p>", compiled))
        assert env.get_template("page.html").render(x=1) == "<p>1</p>"
        assert compiled == expected
        compiled.clear()
    env = kept.Conversions(tmp_path).templates(theme_env("<b>{{ x }}</b>", compiled))
    assert env.get_template("page.html").render(x=1) == "<b>1</b>" and compiled == ["page.html"]


def test_a_fresh_build_compiles_every_template_and_stores_them(tmp_path):
    compiled = []
    for fresh, expected in ((True, ["page.html"]), (True, ["page.html"]), (False, [])):
        env = kept.Conversions(tmp_path, fresh=fresh).templates(theme_env("{{ x }}", compiled))
        assert env.get_template("page.html").render(x=2) == "2"
        assert compiled == expected
        compiled.clear()


def test_the_hook_gives_the_theme_the_compiled_templates(tmp_path):
    from engine.site import hook, render

    site = hook.SiteHook()
    site.site = render.Site(tmp_path, kept=kept.Conversions(tmp_path))
    env = site.on_env(Environment(), None, None)
    assert isinstance(env.bytecode_cache, FileSystemBytecodeCache)
    assert env.bytecode_cache.directory == str(tmp_path / kept.TEMPLATES)
