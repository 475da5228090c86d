"""The error index (issue #50) as a reader meets it: it fits a phone, each entry explains its
error in a cause and a fix sentence that come from the teaching pages, and the ❌/✅ marks are
drawn by the site, not by an emoji font."""

from __future__ import annotations

import pytest
from served_site import ROOT, soup_of

from engine.page.parser import read_pages
from engine.site.error_index import INDEX_PAGE

INDEX = "reference/error-index/"
PHONE = {"width": 412, "height": 915}

# How wide the page can scroll, and each element that reaches past its right edge (not counting
# what scrolls inside a code block or a table's own scroll box).
OVERFLOW = """() => {
    const width = document.documentElement.clientWidth;
    const scrolls = 'pre, .md-typeset__scrollwrap';
    const wide = [...document.querySelectorAll('article *')]
        .filter(e => e.getBoundingClientRect().right > width + 0.5)
        .filter(e => !e.parentElement.closest(scrolls))
        .map(e => e.tagName + (e.id ? '#' + e.id : '') + ' ' + e.textContent.slice(0, 40));
    return {width, scroll: document.documentElement.scrollWidth, wide: wide.slice(0, 10)};
}"""

# Each drawn mark: its name for screen readers, its box, its text, and what paints it.
SYMBOLS = """() => [...document.querySelectorAll('article .jd-symbol')].map(e => {
    const box = e.getBoundingClientRect();
    const style = getComputedStyle(e);
    return {role: e.getAttribute('role'), name: e.getAttribute('aria-label'),
            width: box.width, height: box.height, text: e.textContent,
            background: style.backgroundColor,
            stroke: getComputedStyle(e, '::before').content};
})"""

# The article's text outside code: where a ❌ or ✅ character would need an emoji font.
TEXT_OUTSIDE_CODE = """() => {
    const copy = document.querySelector('article').cloneNode(true);
    copy.querySelectorAll('pre, code').forEach(e => e.remove());
    return copy.textContent;
}"""


@pytest.fixture(scope="module")
def at_phone_width(open_shared_page):
    """at_phone_width(address) -> the page at phone width, scrolled through (sections below the
    first screen are laid out as they near it): loaded once per worker for the tests that only
    read it. A test parametrized by its page shares that page's worker (conftest.py's group_of)."""
    loaded = {}

    def load(address: str):
        if address not in loaded:
            visit = open_shared_page()
            visit.page.set_viewport_size(PHONE)
            visit.goto(address)
            visit.scroll_through()
            loaded[address] = visit
        return loaded[address]

    return load


@pytest.mark.parametrize("address", [INDEX])
def test_the_index_fits_a_phone_412_px_wide(at_phone_width, address):
    visit = at_phone_width(address)
    found = visit.page.evaluate(OVERFLOW)
    assert found["scroll"] <= found["width"], found
    assert not found["wide"], found
    assert not visit.problems(), visit.problems()


@pytest.mark.parametrize("address", [INDEX, "course/control-flow/"])
def test_wrong_and_right_marks_are_drawn_and_named(at_phone_width, address):
    """A drawn mark has no text, so no font can fail it: it is an element with a size, a coloured
    disc and a stroke from CSS, and a name a screen reader says."""
    visit = at_phone_width(address)
    marks = visit.page.evaluate(SYMBOLS)
    assert {mark["name"] for mark in marks} == {"Wrong", "Right"}, marks[:3]
    for mark in marks:
        assert mark["role"] == "img" and mark["text"] == "", mark
        assert mark["width"] > 8 and mark["height"] > 8, mark
        assert mark["background"] not in ("", "rgba(0, 0, 0, 0)"), mark
        assert mark["stroke"] == '""', mark  # the cross or tick: a pseudo-element, not a glyph
    text = visit.page.evaluate(TEXT_OUTSIDE_CODE)
    assert "❌" not in text and "✅" not in text


@pytest.mark.parametrize("address", [INDEX])
def test_an_entry_heading_is_short_and_holds_no_copy_of_its_message(at_phone_width, address):
    """The reader sees the message once, under the heading; search reads its opening words there
    (docs/assets/javascripts/workers/jitdocs-search.js), so the heading repeats none of them."""
    headings = at_phone_width(address).page.locator("h3[id^='error-']")
    assert headings.count() >= 30
    heading = headings.first
    assert heading.evaluate("h => h.innerText.split('\\n')[0].length") <= 90
    message = heading.evaluate("h => h.nextElementSibling.innerText")
    opening = " ".join(message.split(": ", 1)[1].split()[:6])
    assert opening not in heading.text_content(), (opening, heading.text_content())


def taught_sentences() -> dict[str, set[str]]:
    """The cause and fix sentences as the teaching pages' markers give them."""
    blocks = [block for page in read_pages([]) for block in page.blocks if block.index]
    return {"cause": {b.cause for b in blocks}, "fix": {b.fix for b in blocks}}


def test_each_entry_has_a_cause_and_a_fix_from_the_teaching_pages(site_dir):
    index = soup_of(site_dir, INDEX)
    entries = index.select("h3[id^='error-']")
    assert len(entries) >= 30
    taught = taught_sentences()
    source = (ROOT / INDEX_PAGE).read_text(encoding="utf-8")
    for heading in entries:
        said = {}
        for kind in ("cause", "fix"):
            part = heading.find_next(class_=f"jd-{kind}")
            label = part.find("strong").extract().get_text()
            assert label.lower() == kind, (heading["id"], label)
            said[kind] = " ".join(part.get_text().split()).removeprefix(":").strip()
            assert said[kind].endswith("."), (heading["id"], said[kind])
            assert " ".join(said[kind].split()) in as_text(taught[kind]), said[kind]
            assert said[kind][:40] not in source, said[kind]  # generated, not typed here
        assert said["cause"] != said["fix"]
    assert len(taught["cause"]) == len(entries)  # one teaching ❌ block per entry


def test_each_heading_is_short_and_the_message_sits_under_it(site_dir):
    index = soup_of(site_dir, INDEX)
    for heading in index.select("h3[id^='error-']"):
        title = heading.get_text(" ", strip=True).removesuffix("¶").strip()
        in_code = sum(len(code.get_text()) for code in heading.find_all("code"))
        assert len(title) <= 90 and 2 * in_code <= len(title), title  # not a message in code
        message = heading.find_next(class_="jd-error-message")
        name = title.split(":")[0].strip()
        assert message is not None and message.get_text().startswith(f"{name}: "), title


def as_text(markdown: set[str]) -> set[str]:
    """Sentences as the page shows them: inline code without its backticks, spaces single."""
    return {" ".join(sentence.replace("`", "").split()) for sentence in markdown}
