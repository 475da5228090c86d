"""One load of a page gathers what test_pages.py's per-page tests assert.

Those tests used to open a fresh context and load the page once each: a clean load, axe in light
and in dark, two widths for section heights and four first screens, nine loads per page. Now one
load gathers, in this order: the first-screen layout at five window sizes, a scroll through at the
desktop width (``SCROLL_WINDOW``), the section heights (which lay every section out for good), the
❌/✅ pairs, every closed block clicked open (axe calls folded text hidden and judges none of it,
so its colours are judged only opened), then axe's findings in light (every rule) and, the page
switched with its own palette toggle as a reader switches it, in dark (the rules about colour:
test_pages.py shows the others find the same in both schemes). Each stage keeps its data or its
error, and each test asserts on its own stage, so a test still fails on its own defect, and only
on it. A failed load fails every stage of that page.

axe leaves out the site's navigation (``NAVIGATION``): the same template on every page but for
the marks of where the page is, so test_pages.py checks it once per kind of place, in each scheme,
and shows that nothing else in it differs between pages. (axe's whole-page rules still run: a
context that only excludes is still the page to axe.)

axe runs last, on every section laid out, because a section the browser skips (off screen,
``content-visibility: auto``) keeps the colours it had when it was skipped: after a switch to
dark, axe read light-scheme colours there and reported contrast failures no reader can see.
Laid out, each section shows what a reader scrolling to it sees. Dark is switched to, not loaded:
the scheme is CSS on the same document (Material sets ``data-md-color-scheme``), so axe sees what
a dark load shows, for one load less per page. That a reader whose system prefers dark gets it
on load is tested where a page draws by scheme (test_scan_visualizer.py, test_notebook_view.py).

First-screen and section layout is measured after resizing the window, not on a load at that
size: both are pure layout (the sections' placeholder sizes are static CSS, and a section's top
does not depend on what was rendered before it), so the numbers are the ones a load gives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import axe_check

DESKTOP = {"width": 1280, "height": 900}
# The scroll through: the desktop's width, three screens tall. Every part of the page still comes
# on screen (each lazy image, each widget that starts near the screen), in a third of the steps.
SCROLL_WINDOW = (DESKTOP["width"], 3 * DESKTOP["height"])
FIRST_SCREENS = [(360, 800), (412, 900), (412, 915), (600, 1000), (1350, 1000)]
OPENING_SCREEN = (412, 900)  # a phone: a chapter's title, its one line of provenance, its idea
SECTION_WIDTHS = [360, 1280]
SECTION_WINDOW_HEIGHT = 800
LOAD = "load"
DARK = ("Switch to dark mode", "slate")  # (the toggle's title, the scheme it shows)
COLOUR_ONLY = axe_check.COLOUR_RULES  # in dark, what the switch can change (axe_check.py)
NAVIGATION = ".md-sidebar--primary"  # the site's navigation, with the page's place marked in it
PAGE_OWN = {"exclude": [[NAVIGATION]]}  # what axe checks per page: all of it but the navigation

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

# The top of the article: where the title ends, how many lines the provenance badge takes, and
# where the second line of the first paragraph of prose (the opening idea) ends.
OPENING = """() => {
    const article = document.querySelector('article');
    const h1 = article.querySelector('h1');
    const badge = article.querySelector('a.jd-compat');
    const afterTitle = p => p.compareDocumentPosition(h1) & Node.DOCUMENT_POSITION_PRECEDING;
    const idea = [...article.querySelectorAll(':scope > p')]
        .find(p => afterTitle(p) && !p.querySelector('a.jd-compat, a.jd-download'));
    const bottom = element => element.getBoundingClientRect().bottom + window.scrollY;
    const lineHeight = element => parseFloat(getComputedStyle(element).lineHeight);
    return {
        title: bottom(h1),
        badgeLines: badge ? Math.round(badge.getClientRects().length) : 0,
        idea: idea ? bottom(idea) - idea.offsetHeight + 2 * lineHeight(idea) : null,
    };
}"""

NEXT_FRAME = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


PAIRS_JS = """() => ({
    pairs: Array.from(document.querySelectorAll('.jd-pair')).map(pair => {
        const boxes = Array.from(pair.querySelectorAll(':scope > .admonition'));
        return boxes.map(box => ({
            classes: Array.from(box.classList),
            title: (box.querySelector(':scope > .admonition-title') || {}).textContent || '',
            code: box.querySelectorAll('pre').length,
        }));
    }),
    firstShown: !!document.querySelector('.jd-pair') && shown(document.querySelector('.jd-pair')),
})"""

# As Playwright's is_visible: a box with an area, not visibility:hidden, not in a closed block.
SHOWN_JS = """const shown = element => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && element.checkVisibility({visibilityProperty: true});
};"""


CLOSED_JS = """() => Array.from(document.querySelectorAll('article details'))
    .map((details, index) => [details, index])
    .filter(([details]) => !details.open && details.getClientRects().length > 0)
    .map(([, index]) => index)"""

# A reader's click on each block's summary, dispatched in the page: whether each block's body was
# hidden before any click, and is open and shown after them all (a layout per phase, not per block).
OPEN_IN_PAGE_JS = """indexes => {
    const all = document.querySelectorAll('article details');
    const blocks = indexes.map(index => {
        const details = all[index];
        return {index, details, body: details.querySelector(':scope > :not(summary)')};
    });
    const hiddenBefore = blocks.map(block => !shown(block.body));
    blocks.forEach(block => block.details.querySelector(':scope > summary').click());
    return blocks.map((block, i) => ({index: block.index, hiddenBefore: hiddenBefore[i],
                                      open: block.details.open, shownAfter: shown(block.body)}));
}"""


QUIZ_ANSWERS_JS = "() => document.querySelectorAll('article .jd-quiz details').length"


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
    """Surveys by URL, each made on first use, one after another in one tab: a new context per
    page (a new renderer process, axe compiled and warmed up again) cost a quarter of the
    surveys' CPU. Between pages the tab is emptied: the page's stored state (the scheme it was
    switched to) cleared, the page left for a blank one (what it still loads is cancelled there,
    not counted against the next page), the records and the window size reset. After a page that
    did not load, or a tab that could not be emptied, the next page gets a new tab. (A scheme
    left over would fail test_axe_finds_no_serious_violation: each page must show light first.)
    ``open_visit()`` gives a Visit in light."""

    def __init__(self, open_visit: Callable[[], object]):
        self._open_visit = open_visit
        self._visit = None
        self._done: dict[str, Survey] = {}

    def of(self, url: str) -> Survey:
        if url not in self._done:
            found = survey(self._fresh_tab(), url)
            self._done[url] = found
            if LOAD in found.errors:
                self.close()
        return self._done[url]

    def _fresh_tab(self):
        if self._visit is not None:
            try:
                empty(self._visit)
            except Exception:  # a tab that cannot be emptied is replaced, not trusted
                self.close()
        if self._visit is None:
            self._visit = self._open_visit()
        return self._visit

    def close(self) -> None:
        if self._visit is not None:
            self._visit.page.context.close()
            self._visit = None


FORGET_STORED_STATE = "() => { localStorage.clear(); sessionStorage.clear(); }"


def empty(visit) -> None:
    """The tab as a new one: no stored state, on a blank page, nothing recorded, desktop size."""
    visit.page.evaluate(FORGET_STORED_STATE)
    visit.leave()
    visit.page.set_viewport_size(DESKTOP)


def survey(visit, url: str) -> Survey:
    found = Survey()
    found.gather(LOAD, lambda: visit.goto(url))
    found.gather("first screens", lambda: first_screen_tops(visit.page))
    found.gather("clean", lambda: scroll_clean(visit))
    found.gather("section heights", lambda: section_heights(visit.page))
    found.gather("pairs", lambda: in_page(visit, PAIRS_JS))
    found.gather("collapsibles", lambda: collapsibles(visit))  # opens them, for axe to see inside
    found.gather("axe light", lambda: axe_findings(at_desktop_size(visit)))
    found.gather("axe dark", lambda: axe_findings(switch_scheme(visit, DARK), COLOUR_ONLY))
    return found


def collapsibles(visit) -> tuple[list[dict], int, list[str]]:
    """Each closed block clicked open in the page; the quiz answers; the page's problems."""
    opened = in_page(visit, OPEN_IN_PAGE_JS, visit.page.evaluate(CLOSED_JS))
    return opened, visit.page.evaluate(QUIZ_ANSWERS_JS), visit.problems()


def in_page(visit, script: str, arg=None):
    """Evaluate ``script`` with the ``shown(element)`` helper in scope: one round trip."""
    return visit.page.evaluate(f"(arg) => {{ {SHOWN_JS} return ({script})(arg); }}", arg)


def switch_scheme(visit, scheme: tuple[str, str]):
    """Click the palette toggle, as a reader does; wait until the page shows the scheme."""
    toggle_title, shown = scheme
    visit.page.locator(f'[title="{toggle_title}"]').click()
    visit.page.wait_for_function(f"document.body.dataset.mdColorScheme === '{shown}'")
    visit.page.evaluate(NEXT_FRAME)
    return visit


def axe_findings(visit, rules: tuple[str, ...] = ()) -> tuple[str | None, list[dict], list[str]]:
    """The page's colour scheme, axe's violations outside the navigation (of ``rules`` only, if
    given), and the page's problems so far."""
    scheme = visit.page.get_attribute("body", "data-md-color-scheme")
    return scheme, axe_check.violations(visit.page, PAGE_OWN, rules), visit.problems()


def resize(page, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(NEXT_FRAME)  # the resize laid out and handled by the page's scripts


def first_screen_tops(page) -> dict[tuple[int, int], float | None]:
    tops = {}
    for width, height in FIRST_SCREENS:
        resize(page, width, height)
        tops[width, height] = page.evaluate(FIRST_SKIPPABLE_SECTION_TOP)
        if (width, height) == OPENING_SCREEN:
            tops["opening"] = page.evaluate(OPENING)
    return tops


def at_desktop_size(visit):
    resize(visit.page, **DESKTOP)
    return visit


# A lazy image a reader can see that has not loaded: the scroll through missed it.
LAZY_NOT_LOADED = """() => [...document.querySelectorAll('img[loading=lazy]')]
    .filter(image => image.checkVisibility() && !(image.complete && image.naturalWidth > 0))
    .map(image => image.src)"""


def scroll_clean(visit) -> tuple[list[str], str, list[str]]:
    """Scrolled through at the desktop width: the page's problems, its first heading, and the
    shown lazy images that have not loaded."""
    resize(visit.page, *SCROLL_WINDOW)
    visit.scroll_through()
    heading = visit.page.locator("h1").first.inner_text()
    return visit.problems(), heading, visit.page.evaluate(LAZY_NOT_LOADED)


def section_heights(page) -> dict[int, list]:
    heights = {}
    for width in SECTION_WIDTHS:
        resize(page, width, SECTION_WINDOW_HEIGHT)
        heights[width] = page.evaluate(SECTION_HEIGHTS)
    return heights
