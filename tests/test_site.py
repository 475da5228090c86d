"""The site layer: what the hook renders (outputs, version notes, tokens, sections)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from engine.page import parser
from engine.page.model import ROOT, MarkupError
from engine.page.syntax import level_one_headings
from engine.run.pages import run_page
from engine.site import run_step
from engine.site.sections import VOID
from tests.helpers import PAIR_GOOD, fence, page, rendered_h1s, site_page

# ---------------------------------------------------------------- output


def test_the_extension_renders_a_compile_log_escaped(tmp_path):
    """Through the Markdown extension, from a real run: `jit(<lambda>)` reaches the HTML as text,
    not as a tag, in a fence longer than any backtick run inside it."""
    import markdown

    from engine.page.syntax import code_fence
    from engine.site import extension, render

    assert code_fence("text", "a ```fun``` b").startswith("````text\n")
    demo = page(fence("jax.config.update('jax_log_compiles', True)\njax.jit(lambda v: v + 1)(1.0)"))
    site = render.Site(tmp_path, pages={demo.path: demo}, results={demo.path: run_page(demo)})
    extension.publish(site)
    extensions = ["admonition", "attr_list", "md_in_html", "pymdownx.superfences", "toc"]
    html = markdown.Markdown(extensions=[*extensions, extension.makeExtension()]).convert(demo.text)
    assert "Compiling jit(&lt;lambda&gt;)" in html
    assert "jit(<lambda>)" not in html


@pytest.mark.parametrize("path", parser.page_paths())
def test_every_page_renders_one_h1_where_the_parser_finds_it(path):
    """The parser found one H1 (site_page would have raised), and so does the site's Markdown:
    the rule (engine/page/syntax.py) holds on every page. Rendering them all takes seconds, so
    `nox -s unit` runs the rule's cases (tests/test_page.py), not this."""
    text = site_page(path).text
    assert len(list(level_one_headings(text.splitlines(keepends=True)))) == 1
    assert rendered_h1s(text) == 1


# ---------------------------------------------------------------- facts and version notes


@pytest.mark.unit
def test_version_notes_list_every_contract_and_fact_with_links():
    from engine.site import version_notes

    text = "# Demo page\n\n## Branching\n<!-- badge: must-read -->\n\n"
    text += fence("int('x')", "bad: raises ValueError")
    text += PAIR_GOOD + "\n" + fence("assert 1 + 1 == 2", "fact: addition works")
    demo = page(text, "docs/course/demo.md")
    env = {"jax": "0.12.0.1"}
    notes = "docs/reference/version-notes.md"
    text = version_notes.render({demo.path: demo}, None, env, notes)
    assert text.startswith(
        "This build checked every claim below by running its page with JAX 0.12.0.1."
    )
    assert '??? abstract "Demo page: 2 claims, no release tested"' in text
    rows = [line.strip() for line in text.splitlines() if line.strip().startswith("| [")]
    assert rows == [
        "| [contract 1](../course/demo.md#contract-1) | ❌ raises ValueError (Branching) |",
        "| [fact 1](../course/demo.md#fact-1) | addition works |",
    ]


# ---------------------------------------------------------------- rendering: tokens and sections


@pytest.mark.unit
def test_plain_token_spans_are_unwrapped_and_styled_ones_kept():
    from engine.site.render import finished

    name, space = '<span class="n">x</span>', '<span class="w"> </span>'
    styled = '<span class="o">=</span><span class="nb">len</span>'
    assert finished(name + space + styled) == "x " + styled


@pytest.mark.unit
def test_names_are_drawn_in_the_code_colour_and_whitespace_has_no_style():
    """Unwrapping name and whitespace tokens changes nothing on screen only while this holds."""
    import material

    themes = Path(material.__file__).parent / "templates" / "assets" / "stylesheets"
    sheets = [*themes.glob("*.min.css"), *(ROOT / "docs" / "assets").glob("*.css")]
    css = "\n".join(sheet.read_text(encoding="utf-8") for sheet in sheets)
    assert set(re.findall(r"--md-code-hl-name-color:([^;}]+)", css)) == {"var(--md-code-fg-color)"}
    assert not re.search(r"\.highlight [^{}]*\.[nw][\s,{:)]", css.replace(".highlight .n{", "{"))


@pytest.mark.unit
def test_sections_wrap_long_runs_and_questions_text_but_not_headings_or_the_first_screen():
    from engine.site.sections import (
        FIRST_SCREEN_PX,
        MAX_SECTION_PX,
        estimated_height,
        least_heights,
        wrap_sections,
    )

    paragraph = "<p>" + "word " * 60 + "</p>\n"
    code = '<div class="highlight"><pre><code>' + "x = 1\n" * 30 + "</code></pre></div>\n"
    asked = '<h2 id="q1">Question</h2>' + paragraph
    question = f'<div class="jd-quiz">{asked}</div>\n'
    # a question, then paragraphs, the last of which starts just above FIRST_SCREEN_PX at the least
    above, each = least_heights(asked)[0], least_heights(paragraph)[0]
    first_screen = question + paragraph * ((FIRST_SCREEN_PX - 1 - above) // each + 1)
    content = first_screen + '<h2 id="a">A</h2>\n' + (paragraph + code) * 6 + question + paragraph

    wrapped = wrap_sections(content)
    section = r'<section class="jd-section" style="([^"]*)">(.*?)</section>'
    sections = re.findall(section, wrapped, re.S)
    assert re.sub(r"</?section[^>]*>", "", wrapped) == content  # nothing lost, nothing moved
    assert wrapped.startswith(first_screen)  # the question on the first screen stays bare
    assert len(sections) >= 4  # the run after the heading is split; the question's text
    assert all("<h2" not in body for _, body in sections)  # headings stay outside
    # Below the first screen a question's text is wrapped inside it, its heading outside: the
    # table of contents reads where the headings are (quiz.js finds the parts in the section).
    assert '<div class="jd-quiz"><h2 id="q1">Question</h2><section class="jd-section"' in wrapped
    for style, body in sections:
        assert style == f"contain-intrinsic-size: auto {estimated_height(body)}px"
        assert estimated_height(body) < MAX_SECTION_PX + estimated_height(paragraph + code)


@pytest.mark.unit
def test_an_element_that_starts_on_the_first_screen_is_never_wrapped_however_tall():
    """A placeholder painted on screen in the first frame would shift what follows it."""
    from engine.site.sections import FIRST_SCREEN_PX, wrap_sections

    tall = (
        '<div class="highlight"><pre><code>' + "x = 1\n" * FIRST_SCREEN_PX + "</code></pre></div>"
    )
    wrapped = wrap_sections("<p>intro</p>\n" + tall + "\n<p>after</p>\n")
    assert wrapped.startswith("<p>intro</p>\n" + tall)
    assert '<section class="jd-section"' in wrapped  # what follows it is still wrapped


@pytest.mark.unit
def test_the_first_screen_is_measured_by_what_shows_at_its_least_height():
    """Chromium paints the first frame with placeholders: a short section on screen then shrinks
    and pulls what follows into view. A collapsed block or a hidden tab takes no room."""
    from engine.site.sections import FIRST_SCREEN_PX, least_heights, wrap_sections

    code = "<pre><code><span>x</span> = 1\n" * 9 + "y = 2\n</code></pre>"
    assert least_heights(code) == (12 + 10 * 15 + 16,) * 2  # gap, lines, padding
    assert least_heights(f"<details><summary>Setup</summary>{code}</details>") == (0, 0)
    opened = f"<details open><summary>Setup</summary>{code}</details>"
    assert least_heights(opened) == (12 + 166 + 20,) * 2
    assert least_heights(f'<div class="tabbed-block">{code}</div><div hidden>{code}</div>') == (
        0,
        0,
    )
    prose = "<p>" + "w " * 200 + "</p>"  # 399 characters: 7 lines of 60, or 3 of 180
    assert least_heights("<ul><li>a</li><li>b</li></ul>" + prose) == (24 + 9 * 20, 24 + 5 * 20)
    table = "<table><tr><th>a</th></tr><tr><td>b</td></tr></table>"
    assert least_heights(table) == (12 + 2 * 24 + 2 * 20,) * 2

    collapsed = "<details><summary>Setup</summary>" + code * FIRST_SCREEN_PX + "</details>\n"
    short = "<p>A short cell.</p>\n"
    wrapped = wrap_sections(collapsed + short * 3 + '<h2 id="a">A</h2>\n' + short * 200)
    assert wrapped.startswith(collapsed + short * 3 + '<h2 id="a">A</h2>\n' + short)


@pytest.mark.unit
def test_sections_a_wider_first_screen_reaches_are_marked_near():
    """A phone's first screen ends sooner than a wider one's; the CSS always draws NEAR sections
    on a wider screen, so no placeholder is on screen at load there either."""
    from engine.site.sections import FIRST_SCREEN_PX, NEAR, least_heights, wrap_sections

    paragraph = "<p>" + "word " * 72 + "</p>\n"  # 359 characters: 6 lines on a phone, 2 wide
    phone, wide = least_heights(paragraph)
    assert phone > 2 * wide
    wrapped = wrap_sections(paragraph * (3 * FIRST_SCREEN_PX // wide))
    starts = [
        (match[1], wrapped[: match.start()].count("<p>") * wide)  # the least height above it
        for match in re.finditer(r'<section class="([^"]*)"', wrapped)
    ]
    assert starts[0][0] == f"jd-section {NEAR}" and starts[-1][0] == "jd-section"
    for classes, above in starts:
        assert (NEAR in classes) == (above < FIRST_SCREEN_PX), (classes, above)


@pytest.mark.unit
def test_a_notebook_view_is_wrapped_inside_its_notebook_element():
    from engine.site.sections import wrap_sections

    heading = '<div class="jp-Cell"><h2 id="part">Part</h2></div>\n'
    cell = '<div class="jp-Cell"><pre>' + "x = 1\n" * 40 + "</pre></div>\n"
    cells = heading + cell * 4 + heading + cell * 4
    wrapped = wrap_sections(
        f'<div class="jupyter-wrapper"><div class="jp-Notebook">{cells}</div></div>'
    )

    assert wrapped.startswith('<div class="jupyter-wrapper"><div class="jp-Notebook">')
    assert wrapped.endswith("</div></div>") and wrapped.count('class="jd-section"') >= 2
    sections = re.findall(r"<section[^>]*>(.*?)</section>", wrapped, re.S)
    assert sections and all("<h2" not in body for body in sections)  # headings stay outside
    assert wrapped.split("<section", 1)[0].count("<pre") == 2  # the first screen stays bare


class _ParsedTopLevel(HTMLParser):
    """The top-level elements as Python's HTML parser finds them: what ``tags`` must agree with."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.lines = [0] + [m.end() for m in re.finditer("\n", text)]
        self.text, self.elements = text, []
        self.depth, self.holds_heading, self.opened = 0, False, 0

    def position(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.opened = self.position() if self.depth == 0 else self.opened
            self.holds_heading = self.depth > 0 and (
                self.holds_heading or tag in {"h1", "h2", "h3"}
            )
            self.depth += 1

    def handle_endtag(self, tag):
        if tag not in VOID:
            self.depth -= 1
            if self.depth == 0:
                end = self.text.index(">", self.position()) + 1
                self.elements.append((tag, self.holds_heading, self.opened, end))


@pytest.mark.unit
def test_the_tag_scanner_finds_the_top_level_elements_html_parser_finds():
    """On what a page holds (comments with tags, scripts and styles with "<", a quoted ">",
    self-closing and void tags, upper case) ``tags`` finds the top-level elements at the places
    html.parser's own positions give."""
    from engine.site.sections import tags, top_level_elements

    pieces = [
        '<div class="a" title="x > y"><h2 id="q">Q</h2><p>one<br>two</p></div>\n',
        "<!-- a > b: <div> a comment's tags are text --><hr>\n",
        '<script type="module">if (a < b && "</div>") { x = "<p>" }</script>\n',
        "<STYLE>p > a { color: red }</STYLE><P>Upper</P>\n",
        "<svg viewBox='0 0 1 1'><path d='M0 0'/><g/></svg>\n",
        "<div/><p>after a self-closing div</p><![CDATA[ a > b <p> ]]>\n",
        "<details open><summary>S</summary><pre><code>&lt;p&gt; x</code></pre></details>\n",
        "<table><tr><th>a</th></tr></table><!DOCTYPE html><img src='a.png' alt='>'>\n",
        "<p><a href=x/>a bare value, not a self-closing tag</a></p>\n",
    ]
    content = "".join(pieces)
    parsed = _ParsedTopLevel(content)
    parsed.feed(content)
    parsed.close()

    elements = top_level_elements(tags(content))
    assert elements == parsed.elements
    assert [tag for tag, *_ in elements] == [
        *["div", "script", "style", "p", "svg", "div", "p", "details", "table", "p"]
    ]
    assert elements[0][1] and not any(holds for _, holds, *_ in elements[1:])


@pytest.mark.unit
def test_least_heights_read_a_fragment_as_html_parser_did():
    """These numbers are what the first html.parser reader gave (comments, a script's "<", upper
    case, a quoted ">", closed and open details, [hidden], self-closing and void tags, a bare
    value ending in "/", CDATA)."""
    from engine.site.sections import least_heights

    fragments = [
        '<p>A &amp; B<!-- a <b>c</b> -->C</p><script>if (a < b) { "<p>x</p>" }</script>',
        "<STYLE>p > a { color: red }</STYLE><P CLASS=x>Upper case, bare value</P>",
        '<div><div class="tabbed-block" title="x > y"><p>tab</p></div></div>',
        "<details OPEN><summary>S</summary><pre><code>a\nb\n</code></pre></details>",
        "<div hidden>no</div><p>line<br/>break<br>again</p><div/><p>after a self-closing div</p>",
        "<table><tr><td>a</td><td>b&lt;c</td></tr><tr/></table><p><a href=x/>open</a> tail</p>",
        "<ul><li>one<li>two</ul><p>text <![CDATA[ a > b <p> ]]> more</p><svg><path d='M0'/></svg>",
    ]
    heights = [64, 64, 12, 78, 76, 112, 96]  # html.parser's reader, phone and wide alike here
    assert [least_heights(fragment) for fragment in fragments] == [(h, h) for h in heights]


@pytest.mark.unit
def test_a_notebook_view_is_scanned_once():
    """The wrapper's inside is wrapped with the tags of the first scan, not scanned again."""
    from engine.site import sections

    cells = '<div><h2 id="p">Part</h2></div>' + "<div><pre>x = 1</pre></div>" * 200
    view = f'<div class="jupyter-wrapper"><div class="jp-Notebook">{cells}</div></div>'
    scan, scanned = sections.tags, []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sections, "tags", lambda text: scanned.append(text) or scan(text))
        wrapped = sections.wrap_sections(view)
    assert scanned == [view]
    assert wrapped.startswith('<div class="jupyter-wrapper"><div class="jp-Notebook"><div><h2')
    assert wrapped.count('<section class="jd-section') >= 2


@pytest.mark.unit
def test_a_page_without_headings_or_with_little_text_is_left_as_it_is():
    from engine.site.sections import wrap_sections

    assert wrap_sections("<p>short</p>\n<p>page</p>\n") == "<p>short</p>\n<p>page</p>\n"
    assert wrap_sections("") == ""


@pytest.mark.unit
def test_tables_arrive_wrapped_as_materials_script_would_wrap_them():
    """Material's script swaps each class-less table for a wrapped copy after loading, which
    repaints the page late; the build wraps them itself and marks them so the script skips them."""
    from xml.etree.ElementTree import fromstring

    import markdown

    from engine.site.extension import WrappedTables

    html = markdown.markdown(
        "| a | b |\n|---|---|\n| 1 | 2 |\n\ntext after\n", extensions=["tables"]
    )
    root = fromstring(f"<div>{html}</div>")
    WrappedTables(markdown.Markdown()).run(root)
    outer = root[0]
    assert outer.get("class") == "md-typeset__scrollwrap"
    assert outer[0].get("class") == "md-typeset__table"
    assert outer[0][0].tag == "table" and outer[0][0].get("class") == "jd-table"
    assert root[1].tag == "p" and root[1].text == "text after"
    WrappedTables(markdown.Markdown()).run(root)  # a second pass wraps nothing again
    assert len(root.findall(".//div[@class='md-typeset__scrollwrap']")) == 1


@pytest.mark.unit
def test_a_copied_page_stops_the_build_naming_the_page_it_copies(tmp_path):
    """The extension knows a page by its text: a copy of a page (plain code, no snippet) could
    not be told from it, and failed late with "page text changed between parsing and rendering"."""
    text = "# Plain\n\nSome prose.\n\n```python\nprint(1)\n```\n"
    for name in ("plain.md", "copy.md"):
        (tmp_path / "docs" / "beyond").mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / "beyond" / name).write_text(f"---\ndescription: x\n---\n{text}")
    paths = ["docs/beyond/plain.md", "docs/beyond/copy.md"]
    with pytest.raises(MarkupError) as stopped:
        run_step.run_site(tmp_path, paths, {})  # before any page runs
    assert str(stopped.value).startswith(
        "docs/beyond/copy.md:1: its text is the same as docs/beyond/plain.md's (a copy?)"
    )
    assert "its title and opening at least" in str(stopped.value)
    (tmp_path / "docs" / "beyond" / "copy.md").write_text(text.replace("Plain", "Copied"))
    pages = {path: parser.read_page(path, tmp_path) for path in paths}
    run_step.refuse_copies(pages)  # a title of its own is enough
