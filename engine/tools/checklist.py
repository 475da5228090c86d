"""What a new page needs, by part: ``nox -s new`` prints it (``checklist``) and CONTRIBUTING.md's
checklist names each rule. A test that holds new pages to a rule is marked ``page_rule``, and
tests/test_scaffold.py fails when ``RULES`` does not name it."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from engine.page.model import page_stem

CHAPTERS = ("course", "beyond")  # the nav's course sections: each page is a chapter
LESSONS = ("course", "beyond", "track")  # what a reader would type, checks folded
EVERY = ("course", "beyond", "track", "practice")


class Rule(NamedTuple):
    """One thing a new page needs. ``written``: the scaffold does it; else it is left by hand.
    ``test``: the test that fails without it ("" for a convention the review holds)."""

    name: str  # as CONTRIBUTING.md's checklist names it
    parts: tuple[str, ...]
    written: bool
    what: str  # {page}, {stem}, {part}: the new page's path, its address, its folder
    test: str = ""


RULES = (
    Rule(
        "nav entry and title",
        EVERY,
        True,
        "the nav entry in mkdocs.yml; the H1 is its title, and the page's only one (the build "
        "stops on a second: a wrapped line that starts with '#' is one)",
    ),
    Rule(
        "short version",
        LESSONS,
        True,
        "under the title: the main idea in 2-3 sentences, then the one block to paste",
        "tests/test_lessons_first.py::test_a_course_page_opens_with_its_short_version",
    ),
    Rule(
        "checks folded",
        LESSONS,
        True,
        "asserts in <!-- check: ... --> blocks below what they prove (at most 5% of the "
        "visible lines are asserts)",
        "tests/test_lessons_first.py::test_asserts_are_at_most_five_percent_of_the_visible_code",
    ),
    Rule(
        "public API only",
        LESSONS,
        True,
        "visible code uses no private JAX API (jax._src, a leading-underscore attribute)",
        "tests/test_lessons_first.py::test_visible_code_uses_no_private_jax_api",
    ),
    Rule(
        "snippet embedded",
        EVERY,
        True,
        "every file in snippets/<page_slug>/ is embedded with <!-- snippet: NAME -->",
        "tests/test_collection.py::test_every_snippet_file_is_embedded_by_a_page",
    ),
    Rule(
        "learn line",
        CHAPTERS,
        True,
        "the front matter's learn: line (the home page's table shows it): replace its TODO",
        "tests/test_collection.py::test_every_course_page_has_a_learn_line_for_the_home_table",
    ),
    Rule(
        "notebook view",
        CHAPTERS,
        True,
        "notebook_view: true in the front matter (the page's notebook, shown on the site)",
        "tests/browser/test_notebook_view.py::"
        "test_the_workbook_and_every_chapter_have_a_view_and_the_page_tests_visit_them",
    ),
    Rule(
        "summary entry",
        CHAPTERS,
        False,
        "a bullet in docs/reference/summary.md that links ../{part}/{slug}.md",
        "tests/test_collection.py::test_every_course_page_is_linked_from_the_summary",
    ),
    Rule(
        "practice item",
        CHAPTERS,
        False,
        "a quiz question, exercise or track lesson that links a section of {page} (the quiz "
        "stub below goes in docs/practice/quiz.md)",
        "tests/test_practice_links.py::test_every_chapter_is_practised_by_some_item",
    ),
    Rule(
        "terms in course order",
        CHAPTERS,
        False,
        "a term (static argument, weak type, pytree, donation, tracer leak) only after the "
        "chapter that teaches it, or linked there at its first use",
        "tests/test_course_order.py::test_a_term_is_used_only_after_its_chapter_or_with_a_link_there",
    ),
    Rule(
        "links a chapter",
        ("track", "practice"),
        False,
        "each lesson, exercise or quiz question links the chapter section it practises",
        "tests/test_practice_links.py::test_every_practice_item_links_a_chapter",
    ),
    Rule(
        "section badges",
        CHAPTERS,
        True,
        "<!-- badge: must-read --> or <!-- badge: extra --> on the line after each ## heading "
        "(the build stops without one)",
    ),
    Rule(
        "demand-table rows",
        ("beyond",),
        False,
        # the rows are data the questions page renders, not a table in CONTRIBUTING.md
        "a [[question]] row per learner question the page answers, with its thread, in "
        "docs/data/questions.toml (CONTRIBUTING.md, 'What learners ask')",
    ),
    Rule(
        "search question",
        ("course", "beyond"),
        False,
        "a question in tests/search/questions.toml whose answer is a section of {stem}/ "
        "(CONTRIBUTING.md, 'Search questions')",
    ),
)

QUIZ_STUB = """\
<div class="jd-quiz" data-answer="2" markdown>

## N. TODO: the question in a learner's words {{ #q-{slug} }}

TODO: the situation, in two or three sentences.

1. TODO: a wrong answer a learner would believe
2. TODO: the right answer
3. TODO: another wrong answer, a mistake the page shows

??? success "Answer"

    **2.** TODO: why, in two sentences. See [TODO: the section](../{part}/{slug}.md#the-idea).
    TODO: where the answer is a claim about JAX, a block here that prints and asserts it.

</div>"""


def checklist(part: str, page: str) -> str:
    """The rules for a page of ``part``: what the scaffold wrote, then what is left by hand."""
    slug = Path(page).stem
    fill = {"page": page, "stem": page_stem(page), "part": part, "slug": slug}
    rules = [rule for rule in RULES if part in rule.parts]
    lines = []
    for written, head in ((True, "Written for you:"), (False, "Left for you:")):
        lines.append(head)
        for rule in (r for r in rules if r.written == written):
            held = f" [{rule.test.split('::')[0]}]" if rule.test else ""
            lines.append(f"  - {rule.name}: {rule.what.format(**fill)}{held}")
    if part in CHAPTERS:
        lines += ["", "Quiz stub (docs/practice/quiz.md):", QUIZ_STUB.format(**fill)]
    return "\n".join(lines)
