"""Conversions kept between builds (engine/site/kept.py): a warm rebuild converts no coloured
output and no page it converted before with the same converter (so it does not import
nbconvert), and shows what the conversion makes."""

from __future__ import annotations

import json
from types import SimpleNamespace

import markdown
import pygments
import pymdownx.highlight
import pytest
from jinja2 import DictLoader, Environment, FileSystemBytecodeCache
from mkdocs.config import load_config
from mkdocs.structure.toc import get_toc
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from engine.page.model import ROOT
from engine.run.results import PageResult
from engine.site import kept, sections

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs

RED = "\x1b[31mred\x1b[0m and plain"
GREEN = "\x1b[32mgreen\x1b[0m"
PAGE = "<h2>A</h2>" + "<p>text</p>" * 200
OTHER = "<h2>B</h2><pre><code>x = 1</code></pre>"
KEPT = {  # each kept conversion, two inputs, and what converts them
    "colours": (kept.coloured_outputs, RED, GREEN, kept.to_html),
    "sections": (kept.wrapped_sections, PAGE, OTHER, sections.wrap_sections),
}


@pytest.fixture(autouse=True)
def pygments_highlight(monkeypatch):
    """A build (Conversions with a config) replaces pymdownx's highlight: put it back after."""
    monkeypatch.setattr(pymdownx.highlight, "highlight", pygments.highlight)


@pytest.fixture(params=KEPT)
def conversion(request):
    return KEPT[request.param]


def test_a_warm_build_converts_nothing_and_shows_the_same(tmp_path, conversion):
    make, text, _, convert = conversion
    first = make(tmp_path)
    shown = first(text)
    first.save()
    assert first.conversions == 1 and shown == convert(text) and shown != text
    second = make(tmp_path)
    assert second(text) == shown and second.conversions == 0


def test_a_new_input_is_converted_and_an_unused_one_is_not_kept(tmp_path, conversion):
    make, text, other, convert = conversion
    first = make(tmp_path)
    first(text)
    first.save()
    second = make(tmp_path)
    assert second(other) == convert(other) and second.conversions == 1
    second.save()
    stored = json.loads(next(tmp_path.iterdir()).read_text(encoding="utf-8"))["made"]
    assert list(stored.values()) == [convert(other)]


def test_a_fresh_build_converts_again(tmp_path, conversion):
    make, text, _, _ = conversion
    first = make(tmp_path)
    first(text)
    first.save()
    fresh = make(tmp_path, fresh=True)
    fresh(text)
    assert fresh.conversions == 1


def test_a_new_converter_converts_again(tmp_path, monkeypatch, conversion):
    make, text, _, _ = conversion
    first = make(tmp_path)
    first(text)
    first.save()
    monkeypatch.setattr(kept, "installed_distributions", lambda: b"nbconvert-99.0.dist-info")
    upgraded = make(tmp_path)
    upgraded(text)
    assert upgraded.conversions == 1


def test_the_converter_key_holds_the_module_and_the_installed_distributions(tmp_path, monkeypatch):
    module = tmp_path / "terminal.py"
    module.write_bytes(b"def to_html(text): ...\n")
    key = kept.converter_key(module)
    module.write_bytes(b"def to_html(text): ...\n# edited\n")
    assert kept.converter_key(module) != key
    edited = kept.converter_key(module)
    monkeypatch.setattr(kept, "installed_distributions", lambda: b"other")
    assert kept.converter_key(module) != edited


def test_the_converters_are_keyed_by_their_own_modules(monkeypatch):
    keys = {kept.coloured_outputs().key, kept.wrapped_sections().key}
    monkeypatch.setattr(kept, "__file__", sections.__file__)
    assert kept.coloured_outputs().key == kept.wrapped_sections().key
    assert len(keys) == 2


def test_without_a_store_every_build_converts(conversion):
    make, text, _, _ = conversion
    for _ in range(2):
        unkept = make()
        unkept(text)
        unkept.save()
        assert unkept.conversions == 1 and unkept.path is None


def test_the_renderer_draws_coloured_outputs_from_the_store(tmp_path):
    from engine.site import render

    for conversions in (1, 0):
        site = render.Site(tmp_path, kept=kept.Conversions(tmp_path))
        fence = render.render_output(site, RED + "\n", "Output")
        key = fence.split("\n")[1]
        html = render.colour_outputs(site, f"<code>{key}\nred and plain\n</code>")
        assert html == f"<code>{kept.to_html(RED)}\n</code>"
        assert site.kept.colours.conversions == conversions
        site.kept.save()


def test_the_extension_wraps_each_page_in_sections_once(tmp_path):
    from engine.page.parser import parse_page
    from engine.site import extension, render

    markdown_page = "# Demo\n\nOne.\n\n## Two\n\nSecond.\n"
    md = markdown.Markdown(extensions=[extension.makeExtension()])
    for conversions in (1, 0):
        site = render.Site(tmp_path, kept=kept.Conversions(tmp_path))
        site.pages["docs/demo.md"] = parse_page("docs/demo.md", markdown_page)
        site.results["docs/demo.md"] = PageResult(outcomes=[], environment={})
        extension.publish(site)
        html = md.reset().convert(markdown_page)
        assert html == sections.wrap_sections(markdown.markdown(markdown_page))
        assert site.kept.sections.conversions == conversions
        site.kept.save()


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


FENCE = '```python title="demo.py"\nx = [1, 2]  # a list\n```\n'


def highlighted(markdown_text: str) -> str:
    extensions = ["pymdownx.highlight", "pymdownx.superfences"]
    configs = {"pymdownx.highlight": {"pygments_lang_class": True}}
    return markdown.Markdown(extensions=extensions, extension_configs=configs).convert(
        markdown_text
    )


@pytest.fixture
def unpatched():
    """The fence as pymdownx.highlight highlights it with Pygments' own highlight."""
    return highlighted(FENCE)


def test_a_warm_build_highlights_no_fence_and_shows_the_same(tmp_path, unpatched):
    assert '<span class="mi">1</span>' in unpatched and "demo.py" in unpatched
    for conversions in (1, 0):
        code = kept.keep_highlighted_code(tmp_path)
        assert highlighted(FENCE) == unpatched
        assert code.conversions == conversions
        code.save()


@pytest.mark.parametrize(
    "changed",
    [
        FENCE.replace("[1, 2]", "[1, 3]"),
        FENCE.replace("python", "pycon"),
        FENCE.replace("demo.py", "other.py"),
        FENCE.replace(' title="demo.py"', ' linenums="1"'),
    ],
)
def test_a_changed_fence_or_option_is_highlighted_again(tmp_path, unpatched, changed):
    kept.keep_highlighted_code(tmp_path).save()
    first = kept.keep_highlighted_code(tmp_path)
    highlighted(FENCE)
    first.save()
    again = kept.keep_highlighted_code(tmp_path)
    html = highlighted(changed)
    assert again.conversions == 1
    pymdownx.highlight.highlight = pygments.highlight
    assert html == highlighted(changed)


def test_a_lexer_with_filters_is_not_kept(tmp_path, unpatched):
    code = kept.keep_highlighted_code(tmp_path)
    lexer = PythonLexer()
    lexer.add_filter("whitespace", spaces=True)
    html = pymdownx.highlight.highlight("x = 1\n", lexer, HtmlFormatter())
    assert html == pygments.highlight("x = 1\n", lexer, HtmlFormatter())
    assert code.conversions == 0 and not code.used
