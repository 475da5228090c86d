"""Search answers a learner's words (issue #52): the suite in tests/search/questions.toml through
the built site's own search worker, and the search box used with a keyboard only, and on a phone.

`python -m tests.search.quality <site>` prints the suite's table (query, first result, rank)."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from served_site import search_results

from tests.helpers import exclusive
from tests.search import quality

# A word form none of the site's headings uses ("recompile", "recompiles" and "recompilation" are
# there): the browser must list first what the suite's run of the same worker lists first.
TYPED = "recompiling"
# What the page opened highlights: the typed word as the index stems it, and its root, which the
# site's search also looks for (docs/assets/javascripts/workers/jitdocs-search.js).
HIGHLIGHTED = ["recompil", "compil"]
PHONE = {"width": 412, "height": 915}


@pytest.fixture(scope="session")
def results(site_dir, tmp_path_factory) -> dict[str, list]:
    """Each query this file asks, its result groups from one run of the site's search worker
    under Node: the worker's start (indexing the whole site, ~1 s) is most of a run's time.
    xdist hands this file's tests to workers one by one (conftest.py): the first worker to ask
    runs it and leaves the answers in the run's shared temporary folder (pytest-xdist's recipe),
    the others read them."""
    if shutil.which("node") is None:
        pytest.fail("the search-quality suite runs the site's search worker under Node.js")
    queries = quality.suite_queries(quality.load_suite())
    queries += [TYPED, *(query for query, _, _ in SYNONYM_FOUND)]
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # one process: nothing to share
        return dict(zip(queries, quality.search(site_dir, queries), strict=True))
    shared = tmp_path_factory.getbasetemp().parent / "search-worker-results.json"
    with exclusive(shared.with_suffix(".lock")):
        if not shared.is_file():
            answers = quality.search(site_dir, queries)
            shared.write_text(json.dumps({"site": str(site_dir), "answers": answers}), "utf-8")
        stored = json.loads(shared.read_text("utf-8"))
    assert stored["site"] == str(site_dir), stored["site"]
    return dict(zip(queries, stored["answers"], strict=True))


@pytest.fixture(scope="session")
def outcomes(results):
    return quality.judge_suite(quality.load_suite(), results)


@pytest.fixture(scope="session")
def first_for_typed(results) -> str:
    return results[TYPED][0][0]["location"]


SETS = [quality.SUITE, quality.HELD_OUT, quality.HELD_OUT_2, *quality.OUTSIDE]


@pytest.mark.parametrize("questions", SETS, ids=lambda p: p.name)
def test_every_answer_names_a_section_of_the_site(site_dir, questions):
    assert not quality.unknown_answers(site_dir, quality.load_suite(questions))


SMALLEST = {quality.SUITE: 40, quality.HELD_OUT: 40, quality.HELD_OUT_2: 30} | {
    outside: 40 for outside in quality.OUTSIDE
}


@pytest.mark.parametrize("questions", SETS, ids=lambda p: p.name)
def test_each_set_holds_enough_questions_with_their_sources(questions):
    suite = quality.load_suite(questions)
    assert len(suite) >= SMALLEST[questions]
    assert all(q.source and q.answers for q in suite)
    assert sum(1 for q in suite if q.source.startswith("https://github.com/jax-ml/jax/")) >= 20


@pytest.mark.parametrize("which", ["questions", "word forms"])
def test_the_first_result_answers_and_the_first_pages_always_do(outcomes, which):
    found = outcomes[0] if which == "questions" else outcomes[1]
    report = quality.table(found) + "\n" + quality.summary(which, found)
    assert quality.meets_goal(found), "\n" + report


# A learner's word that the answering section lacks, found through the front script's synonyms
# (docs/assets/javascripts/workers/jitdocs-search.js): the section says "cost", "stacked".
SYNONYM_FOUND = [
    ("how slow is a host callback", "slow", "beyond/callbacks/#cost"),
    ("collect arrays in a while loop", "collect", "beyond/loop-speed/#carry-vs-ys"),
]


@pytest.mark.parametrize(("query", "word", "answer"), SYNONYM_FOUND)
def test_a_learners_word_finds_the_section_in_the_sites_words(
    site_dir, results, query, word, answer
):
    index = json.loads((site_dir / "search" / "search_index.json").read_text("utf-8"))
    [doc] = [doc for doc in index["docs"] if doc["location"] == answer]
    assert word not in (doc["title"] + doc["text"]).lower()  # only a synonym can find it
    assert results[query][0][0]["location"] == answer


def type_query(page) -> None:
    page.keyboard.type(TYPED, delay=30)  # key by key: Material listens to keyboard input
    search_results(page)  # the last key's results, which replace the first ones


def test_keyboard_only_search_follows_the_best_section_and_highlights_the_term(
    open_page, first_for_typed
):
    visit = open_page(real_search=True)
    visit.goto("")
    page = visit.page
    page.keyboard.press("/")  # Material's shortcut: focus the search box
    assert page.evaluate("document.activeElement.classList.contains('md-search__input')")
    type_query(page)
    # Into the results: first the best page's title, then its best section.
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("document.activeElement.getAttribute('href')")
    page_url, anchor = first_for_typed.split("#")
    highlight = "+".join(HIGHLIGHTED)
    assert focused.endswith(f"/{page_url}?h={highlight}#{anchor}"), (focused, first_for_typed)
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/{page_url}?h=*")
    visit.settle()
    marks = page.locator("mark[data-md-highlight]")
    assert marks.count() >= 1 and marks.first.inner_text().lower() in HIGHLIGHTED
    assert not visit.problems(), visit.problems()


def test_search_works_on_a_phone(open_page, first_for_typed):
    """At a phone's width the header shows a search button that opens the box full-screen."""
    visit = open_page(real_search=True)
    page = visit.page
    page.set_viewport_size(PHONE)
    visit.goto("")
    page.locator("label.md-header__button[for='__search']").click()
    box = page.locator("input.md-search__input")
    box.wait_for(state="visible")
    assert round(box.bounding_box()["width"]) <= PHONE["width"]  # inside the screen
    box.focus()
    type_query(page)
    page.locator(".md-search-result__item a").nth(1).click()  # the best section
    page.wait_for_url(f"**/{first_for_typed.split('#')[0]}?h=*")
    visit.settle()
    page.locator("mark[data-md-highlight]").first.wait_for(timeout=15_000)
    assert not visit.problems(), visit.problems()
