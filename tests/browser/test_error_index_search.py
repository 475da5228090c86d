"""The error index (issue #41) in the built site: searching a phrase of a real message lists its
entry first, and each ❌ block's link lands on an entry of the index."""

from __future__ import annotations

import re

import pytest
from served_site import html_of, search_results

from tests import tiers

INDEX = "reference/error-index/"
# Phrases a reader pastes from the error they got, each the start of a message the pinned JAX
# printed (the test checks that the message under the entry's heading holds it, so the phrase is
# a real one).
PHRASES = {
    "Abstract tracer value encountered": "error-concretizationtypeerror",
    "Non-hashable static arguments are not supported": (
        "error-valueerror-non-hashable-static-arguments-are-not"
    ),
    "Attempted boolean conversion of traced array": "error-tracerboolconversionerror",
}


# The same box, worker and index page for each phrase: the first in both tiers, the others when
# the index, the search or this file changed.
SEARCH_INPUTS = [
    "engine/site/",
    "docs/assets/",
    "mkdocs.yml",
    "tests/browser/test_error_index_search.py",
]


@pytest.mark.parametrize(
    "phrase",
    [
        phrase
        if number == 0
        else pytest.param(phrase, marks=tiers.only_when_changed(*SEARCH_INPUTS))
        for number, phrase in enumerate(PHRASES)
    ],
)
def test_searching_a_message_lists_its_index_entry_first(open_page, site_dir, phrase):
    anchor = PHRASES[phrase]
    entry = re.search(
        rf'<h3 id="{anchor}">.*?</h3>.*?<p class="jd-error-message">(.*?)</p>',
        html_of(site_dir, INDEX),
        re.S,
    )
    assert entry and phrase in re.sub(r"<[^>]+>", "", entry[1]), (anchor, "not in the index")
    visit = open_page(real_search=True)
    visit.goto("")
    page = visit.page
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(phrase, delay=20)
    # Material groups results by page: the page's title, then its best sections, best first.
    hrefs = search_results(page, ".md-search-result__list > .md-search-result__item:first-child a")
    assert hrefs and f"/{INDEX}?" in hrefs[0], hrefs  # the first page listed: the index
    sections = [href for href in hrefs if "#" in href]
    assert sections and sections[0].endswith(f"#{anchor}"), hrefs  # its first section: the entry
    assert not visit.problems(), visit.problems()


def test_every_error_link_lands_on_an_entry(site_dir):
    ids = set(re.findall(r'<h3 id="(error-[\w-]+)"', html_of(site_dir, INDEX)))
    assert len(ids) >= 25
    linked = set()
    for path in sorted(site_dir.glob("*/*/index.html")):
        for target in re.findall(r'class="jd-error-link" href="([^"]+)"', path.read_text("utf-8")):
            assert target.split("#")[0].endswith("reference/error-index/"), (path, target)
            linked.add(target.split("#")[1])
    assert linked and linked <= ids, linked - ids
    assert linked == ids  # every entry is raised by some ❌ block that links to it
