"""What every visit does to a page's requests: another host's are listed and blocked, the
search index is the site's own with no documents unless the test asks for the real one, a visit
settles only once no request is in flight, and page surveys share a tab they empty in between."""

from __future__ import annotations

import pytest
from page_survey import Surveys
from served_site import FOREIGN

from tests import tiers

FETCH_ALL = """async urls => Promise.all(urls.map(url =>
    fetch(url).then(reply => reply.status, () => 'failed')))"""

FETCH_INDEX = "async () => (await (await fetch('search/search_index.json')).json())"


@pytest.mark.parametrize(
    ("address", "foreign"),
    [
        ("https://cdn.example.com/font.woff2", True),
        ("http://localhost.example.com/x.js", True),
        ("wss://example.org/socket", True),
        ("http://127.0.0.1:8000/course/loops/", False),
        ("http://localhost/assets/x.css", False),
        ("https://localhost:4443", False),
        ("data:image/png;base64,AAAA", False),
    ],
)
def test_other_hosts_are_told_from_this_one(address: str, foreign: bool):
    assert bool(FOREIGN.match(address)) is foreign


def test_a_request_to_another_host_is_blocked_and_listed(open_page, base_url):
    visit = open_page()
    visit.goto("")
    away = ["https://cdn.example.com/font.woff2", "http://localhost.example.com/x.js"]
    statuses = visit.page.evaluate(FETCH_ALL, [*away, base_url + "sitemap.xml"])
    assert statuses == ["failed", "failed", 200]
    assert visit.foreign == away
    # listed first among the page's problems (the browser also logs each blocked load)
    assert visit.problems()[:2] == [f"request to another host: {url}" for url in away]


def test_the_search_index_is_empty_unless_the_test_asks_for_the_real_one(open_page, site_dir):
    emptied = open_page()
    emptied.goto("")
    real = open_page(real_search=True)
    real.goto("")
    empty_index, real_index = (visit.page.evaluate(FETCH_INDEX) for visit in (emptied, real))
    assert empty_index["docs"] == [] and len(real_index["docs"]) > 100
    assert empty_index["config"] == real_index["config"]
    assert not emptied.problems() and not real.problems()


LATE_FETCH = "url => { setTimeout(() => fetch(url), 40); }"
FETCHED = "url => performance.getEntriesByName(url).map(entry => entry.responseEnd > 0)"


def test_settling_waits_for_a_request_sent_after_the_load(open_page, base_url):
    visit = open_page()
    visit.goto("", idle=False)
    visit.page.evaluate(LATE_FETCH, base_url + "sitemap.xml")
    visit.settle()
    assert visit.page.evaluate(FETCHED, base_url + "sitemap.xml") == [True]


def test_settling_names_a_request_that_never_ends(open_page, base_url):
    visit = open_page()
    visit.goto("", idle=False)
    visit.page.route("**/never-answered", lambda route: None)  # neither answered nor aborted
    visit.page.evaluate(LATE_FETCH, base_url + "never-answered")
    with pytest.raises(TimeoutError, match=r"in flight after 1 s: .*never-answered"):
        visit.settle(timeout=1)


# Three surveys of the test harness's own: its verdict depends on the harness, not on the pages.
@tiers.only_when_changed(
    "tests/browser/conftest.py",
    "tests/browser/page_survey.py",
    "tests/browser/axe_check.py",
    "tests/browser/test_recording.py",
)
def test_surveys_share_one_tab_and_replace_it_after_a_page_that_did_not_load(open_page):
    """Page surveys run one after another in one tab (page_survey.Surveys); a page that did not
    load leaves a tab nobody trusts, and the next page gets a new one. The second page shows
    light though the first was switched to dark, and none of the first page's records."""
    opened = []

    def open_visit():
        opened.append(open_page())
        return opened[-1]

    surveys = Surveys(open_visit)
    assert surveys.of("404.html")["axe dark"][0] == "slate"  # the smallest pages: 3 surveys
    light, _, problems = surveys.of("track/")["axe light"]
    assert (light, problems, len(opened)) == ("default", [], 1)
    with pytest.raises(AssertionError):
        surveys.of("no/such/page/")["clean"]  # a 404: the load failed, so every stage did
    assert surveys.of("about/run-it-yourself/")["clean"][0] == [] and len(opened) == 2
