"""Guards: nothing on the site escapes the test suite.

Each page is scanned with a deliberately naive pattern, independent of
``engine.page.markers``, and the
count must equal what Sybil collects: a fence the parser missed (say, one with attributes, which
Sybil's own lexers skip) would otherwise never run.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.page.model import ROOT, page_slug
from engine.run.sybil_setup import docs as docs_sybil
from tests.helpers import mkdocs_config, site_page

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs

PAGES = sorted((ROOT / "docs").rglob("*.md"))
OPEN = re.compile(r"^\s*(`{3,}|~{3,})\s*(.*)$")
PYTHONISH = re.compile(r"^\{?\.?(python3?|py|pycon)\b")
SNIPPET = re.compile(r"^\s*<!--\s*snippet\s*:")


def naive_count(text: str) -> int:
    """Python fences (with or without attributes) and snippet directives outside other fences."""
    count, closing = 0, None
    for line in text.splitlines():
        if closing:
            if re.match(rf"^\s*{re.escape(closing[0])}{{{len(closing)},}}\s*$", line):
                closing = None
            continue
        opened = OPEN.match(line)
        if opened:
            closing = opened[1]
            count += bool(PYTHONISH.match(opened[2]))
        else:
            count += bool(SNIPPET.match(line))
    return count


def test_naive_count_sees_what_sybil_would_skip():
    text = (
        '````markdown\n```python\nx\n```\n````\n\n=== "Tab"\n\n    ```python\n    x = 1\n    ```\n'
    )
    text += '```python title="t"\nx\n```\n<!-- snippet: a -->\n'
    assert naive_count(text) == 3


def test_pages_exist():
    assert len(PAGES) >= 3, PAGES


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_python_fence_and_snippet_is_collected(path: Path):
    text = path.read_text(encoding="utf-8")
    expected = naive_count(text)
    examples = list(docs_sybil.parse(path).examples())
    assert len(examples) == expected


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_skip_carries_a_reason(path: Path):
    for example in docs_sybil.parse(path).examples():
        block = example.region.parsed
        assert block.skip is None or len(block.skip.split()) >= 2, f"{block.where}: vague skip"


@pytest.mark.page_rule
def test_every_snippet_file_is_embedded_by_a_page():
    """A snippet no page embeds would never be built or tested."""
    embedded = set()
    for path in PAGES:
        for example in docs_sybil.parse(path).examples():
            block = example.region.parsed
            if block.snippet:
                embedded.add(f"snippets/{page_slug(block.page)}/{block.snippet}.py")
    on_disk = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "snippets").glob("*/*.py")
        if not p.name.startswith("_") and not p.parent.name.startswith("_")
    }
    assert on_disk - embedded == set()


def test_page_slugs_are_unique():
    """Snippet folders are named by page slug, so two pages may not share one."""
    slugs = [page_slug(p) for p in PAGES if p.name != "index.md"]
    assert len(slugs) == len(set(slugs))


# ---------------------------------------------------------------- where a course page must appear


def course_pages() -> list[tuple[str, str]]:
    from engine.site.practice import course_nav

    return course_nav(mkdocs_config()["nav"])


@pytest.mark.page_rule
def test_every_course_page_has_a_learn_line_for_the_home_table():
    missing = [path for _, path in course_pages() if not site_page(path).learn]
    assert course_pages() and not missing, f"add a `learn:` line to the front matter of {missing}"


@pytest.mark.page_rule
def test_every_course_page_is_linked_from_the_summary():
    summary = (ROOT / "docs" / "reference" / "summary.md").read_text(encoding="utf-8")
    missing = [
        path for _, path in course_pages() if f"../{path.removeprefix('docs/')}" not in summary
    ]
    assert not missing, f"docs/reference/summary.md does not link {missing} (write it by hand)"


def test_the_home_table_lists_the_course_in_nav_order_and_names_a_page_without_learn():
    from engine.page.model import MarkupError
    from engine.site import practice

    pages = {path: site_page(path) for _, path in course_pages()}
    table = practice.course_table(course_pages(), pages, "docs/index.md").splitlines()
    assert [row.split("](")[1].split(")")[0] for row in table[2:]] == [
        path.removeprefix("docs/") for _, path in course_pages()
    ]
    first = course_pages()[0][1]
    pages[first].learn = ""
    with pytest.raises(MarkupError, match=f"{first}: its front matter has no `learn:` line"):
        practice.course_table(course_pages(), pages, "docs/index.md")
