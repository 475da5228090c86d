"""The search's ranking by meaning in a reader's browser (issue #72): nothing of it loads with a
page; a reader's first search fetches its files, from the site itself; and with Chromium's CPU
slowed four times (Emulation.setCPUThrottlingRate, a slow phone's pace) each keystroke's fused
results are shown about as soon as the same keystrokes' results by words alone.

`python -m tests.search.quality site --rankings` measures what the fused ranking finds."""

from __future__ import annotations

import json
import statistics

import pytest

from engine.site.search_vectors import URI
from tests.search.quality import search

MEANING_FILES = ("workers/jitdocs-meaning.js", "search/vocab.txt", "search/tokens.bin", URI)
# Run side by side at loads of 6 to 7 on 2 cores, the two medians came within about 10% of each
# other; the ceiling allows twice that ratio, as every timing claim keeps a 2x margin.
RATIO = 2.0  # the fused search's median keystroke, at most this many times the words' alone
THROTTLE = 4
FIRST = "jit "  # the first search, which loads the data
# Typed after it, one key at a time: a learner's question in words no heading uses.
TYPED = "keep compiled functions between runs"
# The time from each key to the next change of the result list, read in the page.
WATCH = """() => {
  window.jdTimes = []
  let pressed = null
  const box = document.querySelector("input.md-search__input")
  box.addEventListener("keydown", () => { pressed = performance.now() }, true)
  const list = document.querySelector(".md-search-result__list")
  new MutationObserver(() => {
    if (pressed === null) return
    window.jdTimes.push(performance.now() - pressed)
    pressed = null
  }).observe(list, { childList: true, subtree: true })
}"""
# The worker as readers get it, or searching by words alone (tests/search/run_worker.js's
# rankings), for the same keystrokes side by side.
WORDS_ONLY = 'self.jitdocsSearchMode = "lexical";\n'


# What a worker fetched (its requests are also the page's, but Material's startup is not).
WORKER_RESOURCES = "performance.getEntriesByType('resource').map(entry => entry.name)"


def meaning_requests(visit, requested: list[str], workers: list) -> list[str]:
    urls = requested + [url for worker in workers for url in worker.evaluate(WORKER_RESOURCES)]
    return sorted({url for url in urls if url.split("?")[0].endswith(MEANING_FILES)})


def open_search(open_page, words_only: bool = False):
    """The home page, settled, its requests and its workers' recorded."""
    visit = open_page(real_search=True)
    page, requested, workers = visit.page, [], []
    page.on("request", lambda request: requested.append(request.url))
    page.on("worker", lambda worker: workers.append(worker))
    if words_only:

        def prepend(route):
            body = route.fetch().text()
            route.fulfill(body=WORDS_ONLY + body, content_type="text/javascript")

        page.route("**/workers/jitdocs-search.js*", prepend)
    visit.goto("")
    return visit, requested, workers


def keystroke_times(visit) -> list[float]:
    """Type FIRST and wait for its fused results, then TYPED key by key at 4x throttling, each
    key after the last one's results: milliseconds from each key to its results."""
    page = visit.page
    page.keyboard.press("/")
    page.keyboard.type(FIRST)
    visit.settle()  # the first search's data arrived, and its results were shown again
    page.wait_for_timeout(300)
    page.evaluate(WATCH)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
    try:
        for count, key in enumerate(TYPED, 1):
            page.keyboard.press(key)
            page.wait_for_function(f"window.jdTimes.length >= {count}", timeout=5000)
    finally:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    return page.evaluate("window.jdTimes")


def test_no_meaning_data_loads_with_a_page_and_the_first_search_loads_it(open_page):
    visit, requested, workers = open_search(open_page)
    assert any(url.endswith("search/search_index.json") for url in requested)  # requests seen
    assert [url for url in workers[0].evaluate(WORKER_RESOURCES) if "search." in url]  # Material's
    assert not meaning_requests(visit, requested, workers)
    visit.page.keyboard.press("/")
    visit.page.keyboard.type(FIRST)
    visit.settle()
    loaded = meaning_requests(visit, requested, workers)
    assert len(loaded) == len(MEANING_FILES), loaded
    assert not visit.problems(), visit.problems()  # no other host, nothing failed


@pytest.mark.timing  # it measures time in the browser, so it runs alone (conftest.py)
def test_each_keystrokes_fused_results_come_as_fast_as_by_words_alone_at_4x(open_page, site_dir):
    visit, *_ = open_search(open_page)
    fused = keystroke_times(visit)
    shown = visit.page.locator(".md-search-result__item a").first.get_attribute("href")
    words, *_ = open_search(open_page, words_only=True)
    alone = keystroke_times(words)
    report = (
        f"fused: median {statistics.median(fused):.0f} ms, worst {max(fused):.0f} ms; words "
        f"alone: median {statistics.median(alone):.0f} ms, worst {max(alone):.0f} ms"
    )
    print(report)
    # Meaning's share, as a ratio beside the same keys searched by words alone on the same
    # machine (the project's rule for speed claims): on a shared CPU both medians swing with the
    # load (154 ms for words alone at a load of 7 on 2 cores), their ratio much less. The
    # issue's 150 ms is the goal for the fused median on a machine to itself; -s prints it.
    assert statistics.median(fused) <= RATIO * statistics.median(alone), report
    # what the box shows first is what the worker under Node ranks first, fused
    [groups] = search(site_dir, [FIRST + TYPED])
    assert shown.split("?")[0].endswith(groups[0][0]["location"].split("#")[0]), shown
    assert not visit.problems() and not words.problems()


def test_every_entry_of_the_search_index_has_a_vector_and_every_vector_an_entry(site_dir):
    index = json.loads((site_dir / "search" / "search_index.json").read_text("utf-8"))
    entries = {doc["location"] for doc in index["docs"]}
    vectors = json.loads((site_dir / URI).read_text("utf-8"))["locations"]
    assert set(vectors) == entries
    assert len(vectors) > len(entries)  # and the questions page's questions beside them
