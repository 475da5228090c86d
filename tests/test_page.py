"""The page layer: markup errors that name the file and line, the marker registry."""

from __future__ import annotations

import re

import pytest

from engine.page.markers import MARKERS
from engine.page.model import DEFAULT_TIMEOUT, ROOT, MarkupError
from engine.page.syntax import level_one_headings
from engine.site.labels import marker_table
from tests.helpers import PAIR_GOOD, fence, page, rendered_h1s, site_page

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs

# ---------------------------------------------------------------- contracts


BAD = fence("1 / 0", "bad: raises ZeroDivisionError")
# What comes after a ❌ block -> how the error tells the writer to pair it.
MOVE_IT = "'Why it fails.' stands between this block and the next (line 9): move it above the ❌"
MARK_IT = "The next block (line 6) has no <!-- good --> marker: if it is the fix, put <!-- good"
UNPAIRED = {
    "prose": ("\nWhy it fails.\n\n" + PAIR_GOOD, MOVE_IT + " block, or below the ✅ block."),
    "an unmarked block": (
        "\n" + fence("print(1)"),
        MARK_IT + " --> on the line above it; if not, write the fix between them.",
    ),
    "nothing": ("", "No block follows this one: add its fix below it."),
}


@pytest.mark.parametrize("after, advice", UNPAIRED.values(), ids=UNPAIRED.keys())
def test_a_bad_block_without_its_good_block_right_after_says_the_rule_and_the_fix(after, advice):
    with pytest.raises(MarkupError) as caught:
        page(BAD + after)
    message = str(caught.value)
    assert message.startswith("docs/demo/test-page.md:2: a ❌ 'bad' block must be followed ")
    assert "with only blank lines between" in message and message.endswith(advice), message


def test_bad_asserts_without_assert_is_rejected():
    with pytest.raises(
        MarkupError, match=r":2: a 'bad: asserts' or 'fact' block must contain assert"
    ):
        page(fence("x = 1", "bad: asserts") + PAIR_GOOD)


# ---------------------------------------------------------------- one H1 a page

# Where a line starting with '#' is a heading and where it is not, for Python-Markdown with the
# site's extensions: each case's H1 lines (counted from 1), which the render below confirms.
HEADING_CASES = {
    "a wrapped line starting #2095": ("# T\n\nFixed in JAX's issue\n#2095 last year.\n", [1, 4]),
    "#2095 after a list item": ("# T\n\n- fixed in\n#2095\n", [1, 4]),
    "an H2 and a hash-started H2": ("# T\n\n## Two\n\n##2 also two\n", [1]),
    "comments in a fence": ("# T\n\n```python\n# a comment\nx = 1\n```\n", [1]),
    "in an admonition": ("# T\n\n!!! note\n    See\n    #12 here.\n", [1, 5]),
    "a fence in a details box": ("# T\n\n??? tip\n\n    ```python\n    # why\n    ```\n", [1]),
    "nested boxes": ("# T\n\n!!! note\n    ??? tip\n        #3\n", [1, 5]),
    "in a tab": ('# T\n\n=== "A"\n\n    #1 first\n', [1, 5]),
    "an indented code block": ("# T\n\nText.\n\n    # code\n", [1]),
    "indented under a list item": ("# T\n\n- item\n    #4 continues it\n", [1]),
    "a block under a list item": ("# T\n\n- item\n\n    #4 a block of its own\n", [1, 5]),
    "after a box, at the margin": ("# T\n\n!!! note\n    Text\n#9 leaves it\n", [1, 5]),
    "a multi-line comment": ("# T\n\n<!--\n# not shown\n-->\n\nText.\n", [1]),
    "in a quote": ("# T\n\n> Quoted, then\n> #5\n", [1, 4]),
    "a lone hash": ("# T\n\n#\n", [1, 3]),
    "two spaces in": ("# T\n\nText\n  #2 is not one\n", [1]),
    "in an HTML block with markdown": ("# T\n\n<div markdown>\n\n#7\n\n</div>\n", [1, 5]),
    "underlined with =": ("# T\n\nAnother title\n=====\n", [1, 3]),
    "= under a paragraph's second line": ("# T\n\nOne\ntwo\n===\n", [1]),
}


@pytest.mark.parametrize("text, lines", HEADING_CASES.values(), ids=HEADING_CASES.keys())
def test_the_lines_read_as_h1_are_those_python_markdown_renders_as_h1(text, lines):
    assert [i + 1 for i in level_one_headings(text.splitlines(keepends=True))] == lines
    assert rendered_h1s(text) == len(lines)


def test_a_second_h1_fails_naming_its_line_and_how_to_reflow_it():
    text, _ = HEADING_CASES["a wrapped line starting #2095"]
    with pytest.raises(MarkupError, match=r"test-page.md:4: a second H1 .*title is line 1") as err:
        page(text)
    assert "issue #2095" in str(err.value) and "'##'" in str(err.value)
    with pytest.raises(MarkupError, match=r"test-page.md:3: .* the line of '=' under it"):
        page(HEADING_CASES["underlined with ="][0])


# ---------------------------------------------------------------- markup errors


def test_missing_snippet_names_file_and_line(tmp_path):
    (tmp_path / "snippets").mkdir()
    with pytest.raises(MarkupError, match=r"test-page.md:3: snippet file snippets/test_page/nope"):
        page("# T\n\n<!-- snippet: nope -->\n", root=tmp_path)


def test_missing_snippet_lists_the_files_that_do_exist(tmp_path):
    (tmp_path / "snippets" / "test_page").mkdir(parents=True)
    for name in ("chart", "measure"):
        (tmp_path / "snippets" / "test_page" / f"{name}.py").write_text("x = 1\n")
    with pytest.raises(
        MarkupError, match=r"nope.py not found; snippets/test_page has: chart, measure"
    ):
        page("# T\n\n<!-- snippet: nope -->\n", root=tmp_path)


def test_unknown_marker_names_file_and_line():
    with pytest.raises(MarkupError, match=r"test-page.md:2: unknown marker 'expect-fail'"):
        page("# T\n" + fence("x = 1", "expect-fail"))


def test_fence_with_attributes_is_rejected():
    with pytest.raises(MarkupError, match=r":1: fence info 'python title=\"x\"' is not allowed"):
        page('```python title="x"\nprint(1)\n```\n')


def test_marker_leading_nowhere_is_rejected():
    with pytest.raises(MarkupError, match=r":1: marker 'good' is not followed by a code block"):
        page("<!-- good -->\nJust prose.\n")


# ---------------------------------------------------------------- facts and version notes


def test_fact_without_assert_is_rejected():
    with pytest.raises(MarkupError, match=r":2: a 'bad: asserts' or 'fact' block must contain"):
        page(fence("x = 1", "fact: x is one"))


# ---------------------------------------------------------------- the marker registry


def test_conventions_table_lists_exactly_the_registered_markers():
    conventions = "docs/about/conventions.md"
    parsed = site_page(conventions)
    assert [d.name for d in parsed.directives if d.name == "marker-table"] == ["marker-table"]
    text = (ROOT / conventions).read_text(encoding="utf-8")
    assert not re.search(r"^\| `<!--", text, re.MULTILINE), "a hand-written marker table"
    rows = [row for row in marker_table().splitlines() if row.startswith("| `<!--")]
    named = {re.match(r"\| `<!-- ([a-z-]+)", row)[1] for row in rows}
    assert named == set(MARKERS)
    assert f"default {DEFAULT_TIMEOUT:g} s" in marker_table()


def test_the_parser_accepts_only_registered_markers():
    for name, spec in MARKERS.items():
        for written, _ in spec.uses:
            if not spec.block and name != "snippet":
                assert page(f"<!-- {written} -->\n").directives[0].name == name
    with pytest.raises(MarkupError, match=r"known markers: bad, good, skip"):
        page("<!-- unregistered -->\n")
    with pytest.raises(MarkupError, match=r":1: marker 'timeout' takes seconds, got 'soon'"):
        page(fence("x = 1", "timeout: soon"))


# ---------------------------------------------------------------- site policy


def test_policy_is_read_from_pyproject_and_rejects_unknown_keys(tmp_path):
    from engine.page.policy import Policy, policy

    assert policy(ROOT) == Policy()  # pyproject.toml spells out the defaults
    (tmp_path / "pyproject.toml").write_text('[tool.jitdocs]\nnotebook-pages = ["docs/a.md"]\n')
    assert policy(tmp_path).notebook_pages == ("docs/a.md",)
    other = tmp_path / "other"
    other.mkdir()
    (other / "pyproject.toml").write_text('[tool.jitdocs]\nnotebook-page = ["docs/a.md"]\n')
    with pytest.raises(ValueError, match="no setting 'notebook-page'"):
        policy(other)
