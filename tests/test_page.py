"""The page layer: markup errors that name the file and line, the marker registry."""

from __future__ import annotations

import re

import pytest

from engine.page.markers import MARKERS
from engine.page.model import DEFAULT_TIMEOUT, ROOT, MarkupError
from engine.site.labels import marker_table
from tests.helpers import PAIR_GOOD, fence, page, site_page

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs

# ---------------------------------------------------------------- contracts


def test_bad_block_must_be_followed_by_good_block():
    with pytest.raises(MarkupError, match=r":2: a ❌ 'bad' block must be followed directly"):
        page(fence("1 / 0", "bad: raises ZeroDivisionError") + "\nSome prose.\n" + PAIR_GOOD)


def test_bad_asserts_without_assert_is_rejected():
    with pytest.raises(
        MarkupError, match=r":2: a 'bad: asserts' or 'fact' block must contain assert"
    ):
        page(fence("x = 1", "bad: asserts") + PAIR_GOOD)


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
