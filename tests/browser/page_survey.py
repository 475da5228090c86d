"""One load of a page per colour scheme gathers what test_pages.py's per-page tests assert.

Those tests used to open a fresh context and load the page once each: a clean load, axe in light
and in dark, two widths for section heights and four first screens, nine loads per page. Now a
light load gathers, in this order, axe's findings, the first-screen layout at four window sizes,
a scroll through at the desktop size, then the section heights, which lay every section out for
good (so nothing is measured after them); a dark load gathers axe's findings. Each stage keeps
its data or its error, and each test asserts on its own stage, so a test still fails on its own
defect, and only on it. A failed load fails every stage of that page.

First-screen and section layout is measured after resizing the window, not on a load at that
size: both are pure layout (the sections' placeholder sizes are static CSS, and a section's top
does not depend on what was rendered before it), so the numbers are the ones a load gives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import axe_check

DESKTOP = {"width": 1280, "height": 900}
FIRST_SCREENS = [(360, 800), (412, 915), (600, 1000), (1350, 1000)]
SECTION_WIDTHS = [360, 1280]
SECTION_WINDOW_HEIGHT = 800
LOAD = "load"

SECTION_HEIGHTS = """() => [...document.querySelectorAll('.jd-section')].map((section, i) => {
    const placeholder = parseFloat(section.style.containIntrinsicSize.split(' ').pop());
    section.style.contentVisibility = 'visible';  // lay it out for real, on screen or not
    let heading = section;
    while (heading && !/^H[1-6]$/.test(heading.tagName)) heading = heading.previousElementSibling;
    const where = `section ${i + 1} (after ${heading ? '#' + heading.id : 'the top'})`;
    return [where, section.getBoundingClientRect().height, placeholder];
})"""

FIRST_SKIPPABLE_SECTION_TOP = """() => {
    const auto = [...document.querySelectorAll('.jd-section')]
        .find(s => getComputedStyle(s).contentVisibility === 'auto');
    return auto ? auto.getBoundingClientRect().top + window.scrollY : null;
}"""

NEXT_FRAME = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


@dataclass
class Survey:
    """Data (or the error raised while gathering it) per stage of one page load."""

    data: dict[str, object] = field(default_factory=dict)
    errors: dict[str, BaseException] = field(default_factory=dict)

    def gather(self, stage: str, collect: Callable[[], object]) -> None:
        if LOAD in self.errors:  # measuring a page that did not load would pass on anything
            self.errors[stage] = self.errors[LOAD]
            return
        try:
            self.data[stage] = collect()
        except Exception as error:  # kept for the test that reads this stage
            self.errors[stage] = error

    def __getitem__(self, stage: str):
        if stage in self.errors:
            raise self.errors[stage]
        return self.data[stage]


class Surveys:
    """Surveys by (url, scheme), each made on first use; ``open_visit(scheme)`` gives a Visit."""

    def __init__(self, open_visit: Callable[[str], object]):
        self._open_visit = open_visit
        self._done: dict[tuple[str, str], Survey] = {}

    def of(self, url: str, scheme: str) -> Survey:
        if (url, scheme) not in self._done:
            visit = self._open_visit(scheme)
            try:
                self._done[url, scheme] = survey(visit, url, light=scheme == "light")
            finally:
                visit.page.context.close()
        return self._done[url, scheme]


def survey(visit, url: str, light: bool) -> Survey:
    found = Survey()
    found.gather(LOAD, lambda: visit.goto(url))
    found.gather("axe", lambda: axe_findings(visit))
    if light:
        found.gather("first screens", lambda: first_screen_tops(visit.page))
        found.gather("clean", lambda: scroll_clean(visit))
        found.gather("section heights", lambda: section_heights(visit.page))
    return found


def axe_findings(visit) -> tuple[str | None, list[dict], list[str]]:
    """The page's colour scheme, axe's violations, and the page's problems so far."""
    scheme = visit.page.get_attribute("body", "data-md-color-scheme")
    return scheme, axe_check.violations(visit.page), visit.problems()


def resize(page, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(NEXT_FRAME)  # the resize laid out and handled by the page's scripts


def first_screen_tops(page) -> dict[tuple[int, int], float | None]:
    tops = {}
    for width, height in FIRST_SCREENS:
        resize(page, width, height)
        tops[width, height] = page.evaluate(FIRST_SKIPPABLE_SECTION_TOP)
    return tops


def scroll_clean(visit) -> tuple[list[str], str]:
    """Scrolled through at the desktop size: the page's problems, and its first heading."""
    resize(visit.page, **DESKTOP)
    visit.scroll_through()
    return visit.problems(), visit.page.locator("h1").first.inner_text()


def section_heights(page) -> dict[int, list]:
    heights = {}
    for width in SECTION_WIDTHS:
        resize(page, width, SECTION_WINDOW_HEIGHT)
        heights[width] = page.evaluate(SECTION_HEIGHTS)
    return heights
