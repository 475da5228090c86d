"""The course as one path (issue #40): a chapter uses a term only after the chapter that teaches
it, unless it links there at or before its first use. Each term has one home chapter."""

from __future__ import annotations

import re

import pytest

from engine.page.syntax import linked_pages, outside_fences
from tests.helpers import site_page
from tests.test_practice_links import CHAPTERS

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs

# term (as a reader meets it in prose) -> the chapter that teaches it
HOMES = {
    r"static argument|static_argnums|static_argnames": "docs/course/static-vs-traced.md",
    r"weak[ -]typ": "docs/course/recompilation.md",
    r"pytree": "docs/course/classes-and-pytrees.md",
    r"donat": "docs/course/pitfalls.md",
    r"tracer leak|leaked tracer|leaks? a tracer": "docs/course/debugging.md",
}


def paragraphs(text: str) -> list[str]:
    """The page's prose, paragraph by paragraph (code fences left out)."""
    prose = "".join(outside_fences(text.splitlines(keepends=True)))
    return [p.strip("\n") for p in re.split(r"\n\s*\n", prose) if p.strip()]


def first_use_without_link(page_path: str, text: str, term: str, home: str) -> str | None:
    """The paragraph where ``term`` first appears, if no link to ``home`` comes at or before it."""
    for paragraph in paragraphs(text):
        links = linked_pages(paragraph, page_path)
        if home in links:
            return None
        prose = re.sub(r"<!--.*?-->", "", paragraph)
        if re.search(term, prose, re.IGNORECASE):
            return paragraph
    return None


@pytest.mark.parametrize("chapter", CHAPTERS)
@pytest.mark.page_rule
def test_a_term_is_used_only_after_its_chapter_or_with_a_link_there(chapter: str):
    index = CHAPTERS.index(chapter)
    found = []
    for term, home in HOMES.items():
        if CHAPTERS.index(home) <= index:
            continue
        paragraph = first_use_without_link(chapter, site_page(chapter).text, term, home)
        if paragraph:
            found.append(
                f"'{term}' before {home} teaches it, without a link there:\n  {paragraph[:200]}"
            )
    assert not found, f"{chapter}:\n" + "\n".join(found)


def test_the_rule_finds_a_term_used_too_early():
    """first_use_without_link can fail: a use with no link is found, a use after a link is not,
    and a term inside code is no use."""
    home = "docs/course/pitfalls.md"
    early = "Intro.\n\n```python\nf = jax.jit(g, donate_argnums=0)\n```\n\nWe donate `x` here.\n"
    assert first_use_without_link("docs/course/a.md", early, "donat", home) == "We donate `x` here."
    linked = "See [donation](pitfalls.md#x).\n\n" + early
    assert first_use_without_link("docs/course/a.md", linked, "donat", home) is None
    assert CHAPTERS.index("docs/course/static-vs-traced.md") == (
        CHAPTERS.index("docs/course/how-jit-works.md") + 1
    )  # the order issue #40 asks for
