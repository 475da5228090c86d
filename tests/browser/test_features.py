"""What a reader clicks: search, the ❌/✅ pairs, collapsible blocks, copy buttons, dark mode."""

from __future__ import annotations

import re

import pytest
from served_site import page_urls

CHART_PAGE = "course/why-compile/"


def html_of(site_dir, url: str) -> str:
    path = site_dir / (url if url.endswith(".html") else f"{url}index.html")
    return path.read_text(encoding="utf-8")


def pages_with(site_dir, needle: str) -> list[str]:
    """URLs of the built pages whose HTML contains ``needle``."""
    return [url for url in page_urls(site_dir) if needle in html_of(site_dir, url)]


def test_search_finds_a_page_by_an_api_name(open_page):
    """Typed key by key (Material listens to keyboard input; page.fill would not trigger it)."""
    visit = open_page()
    visit.goto("")
    page = visit.page
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially("fori_loop", delay=40)
    results = page.locator(".md-search-result__item a")
    results.first.wait_for(timeout=15_000)
    hrefs = [link.get_attribute("href") for link in results.all()]
    assert any("course/loops/" in href for href in hrefs), hrefs  # the page that teaches it
    assert not visit.problems(), visit.problems()


PAIRS_JS = """() => ({
    pairs: Array.from(document.querySelectorAll('.jd-pair')).map(pair => {
        const boxes = Array.from(pair.querySelectorAll(':scope > .admonition'));
        return boxes.map(box => ({
            classes: Array.from(box.classList),
            title: (box.querySelector(':scope > .admonition-title') || {}).textContent || '',
            code: box.querySelectorAll('pre').length,
        }));
    }),
    firstShown: shown(document.querySelector('.jd-pair')),
})"""

# As Playwright's is_visible: a box with an area, not visibility:hidden, not in a closed block.
SHOWN_JS = """const shown = element => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && element.checkVisibility({visibilityProperty: true});
};"""


def in_page(visit, script: str, arg=None):
    """Evaluate ``script`` with the ``shown(element)`` helper in scope: one round trip."""
    return visit.page.evaluate(f"(arg) => {{ {SHOWN_JS} return ({script})(arg); }}", arg)


def test_bad_and_good_examples_are_rendered_as_pairs(visit_each, site_dir):
    """Each .jd-pair: a titled failure box, then a titled success box, each showing code."""
    urls = pages_with(site_dir, 'class="jd-pair"')
    assert urls, "no page has a ❌/✅ pair"
    for url, visit in visit_each(urls):
        found = in_page(visit, PAIRS_JS)
        assert found["pairs"], url
        for number, boxes in enumerate(found["pairs"], start=1):
            where = f"{url} pair {number}"
            assert len(boxes) == 2, (where, boxes)
            assert "failure" in boxes[0]["classes"] and "success" in boxes[1]["classes"], where
            assert all(box["title"].strip() and box["code"] >= 1 for box in boxes), (where, boxes)
        assert found["firstShown"], url
        assert not visit.problems(), visit.problems()


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


def test_collapsible_blocks_open_on_click(visit_each, site_dir):
    """On every page, every closed block (a quiz's hidden answers aside): the site's first by a
    real mouse click, the others by a click dispatched in the page, checked in one round trip."""
    urls = pages_with(site_dir, "<details")
    assert urls, "no page has a collapsible block"
    by_mouse, in_the_page = 0, 0
    for url, visit in visit_each(urls):
        closed = visit.page.evaluate(CLOSED_JS)
        if closed and not by_mouse:
            click_open(visit, closed.pop(0), url)
            by_mouse += 1
        for block in in_page(visit, OPEN_IN_PAGE_JS, closed):
            assert block["hiddenBefore"] and block["open"] and block["shownAfter"], (url, block)
            in_the_page += 1
        assert not visit.problems(), visit.problems()
    assert by_mouse == 1 and in_the_page >= 1, (by_mouse, in_the_page)


def click_open(visit, index: int, url: str) -> None:
    """The block's summary clicked with the mouse, as a reader does: its body appears."""
    details = visit.page.locator("article details").nth(index)
    details.scroll_into_view_if_needed()
    body = details.locator(":scope > :not(summary)").first
    assert not body.is_visible(), (url, index)
    details.locator(":scope > summary").click()
    assert details.evaluate("d => d.open"), (url, index)
    assert body.is_visible(), (url, index)


# Each quiz from ``first`` on answered in the page, alternately right and wrong, as the page's
# first quiz by the mouse: a wrong answer at index 0.
ANSWER_IN_PAGE_JS = """first => Array.from(document.querySelectorAll('.jd-quiz')).slice(first)
    .map((quiz, offset) => {
        const index = first + offset;
        const right = parseInt(quiz.dataset.answer, 10);
        const options = quiz.querySelectorAll('.jd-quiz__option');
        const radios = quiz.querySelectorAll('input[type=radio]').length;
        const answer = quiz.querySelector(':scope > details');
        const hiddenBefore = !shown(answer);
        const choice = index % 2 ? right : (right % radios) + 1;
        options[choice - 1].click();
        return {index, right, choice, radios, hiddenBefore,
                feedback: quiz.querySelector('.jd-quiz__feedback').innerText,
                result: quiz.dataset.result, open: answer.open, shownAfter: shown(answer)};
    })"""


def test_quiz_questions_say_right_or_wrong_and_open_the_answer(visit_each, site_dir):
    """On every page with quizzes, every quiz: options, a folded answer, then right or wrong said
    and the answer opened; the site's first quiz by a real mouse click, the others in the page."""
    urls = pages_with(site_dir, 'class="jd-quiz"')
    if not urls:
        pytest.fail("no page has a quiz (.jd-quiz)", pytrace=False)
    for number, (url, visit) in enumerate(visit_each(urls)):
        assert visit.page.locator(".jd-quiz").count() >= 1
        if number == 0:
            answer_with_the_mouse(visit.page.locator(".jd-quiz").first, url)
        for quiz in in_page(visit, ANSWER_IN_PAGE_JS, 1 if number == 0 else 0):
            where = (url, quiz)
            assert quiz["radios"] >= 2 and quiz["hiddenBefore"], where
            right = quiz["choice"] == quiz["right"]
            assert quiz["feedback"].startswith("✅" if right else "❌"), where
            assert quiz["result"] == ("right" if right else "wrong"), where
            assert quiz["open"] and quiz["shownAfter"], where
        assert not visit.problems(), visit.problems()


def answer_with_the_mouse(quiz, url: str) -> None:
    """The first quiz (index 0: a wrong option, as the alternation says), clicked as a reader."""
    right = int(quiz.get_attribute("data-answer"))
    options = quiz.locator("input[type=radio]")
    answer = quiz.locator(":scope > details")
    assert options.count() >= 2 and not answer.is_visible(), url
    choice = (right % options.count()) + 1
    quiz.locator(".jd-quiz__option").nth(choice - 1).click()
    feedback = quiz.locator(".jd-quiz__feedback").inner_text()
    assert feedback.startswith("❌"), (url, feedback)
    assert quiz.get_attribute("data-result") == "wrong"
    assert answer.is_visible() and answer.evaluate("d => d.open"), url


@pytest.mark.parametrize("address", ["", CHART_PAGE])
def test_every_code_block_has_a_working_copy_button(open_page, address):
    visit = open_page(permissions=["clipboard-read", "clipboard-write"])
    visit.goto(address)
    page = visit.page
    blocks = page.locator("article pre:has(> code)")
    buttons = page.locator("article pre:has(> code) button[data-md-type=copy]")
    assert blocks.count() >= 1
    # A block gets its button when it first comes into view (content.lazy), collapsed ones too.
    page.evaluate("document.querySelectorAll('article details').forEach(d => { d.open = true; })")
    visit.scroll_through()
    page.wait_for_function(
        "n => document.querySelectorAll('article pre:has(> code) button[data-md-type=copy]')"
        ".length === n",
        arg=blocks.count(),
        timeout=10_000,
    )
    assert buttons.count() == blocks.count()
    first = blocks.first
    first.scroll_into_view_if_needed()
    first.hover()
    first.locator("button[data-md-type=copy]").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    expected = first.locator("code").inner_text()
    assert copied.strip() == expected.strip()
    assert not visit.problems(), visit.problems()


def test_the_palette_toggle_switches_charts_to_their_dark_rendering(open_page):
    visit = open_page("light")
    visit.goto(CHART_PAGE)
    page = visit.page
    assert page.get_attribute("body", "data-md-color-scheme") == "default"
    light = page.locator('article img[src$="#only-light"]')
    dark = page.locator('article img[src$="#only-dark"]')
    assert light.count() >= 1 and light.count() == dark.count()
    assert light.first.is_visible() and not dark.first.is_visible()

    page.locator('[title="Switch to dark mode"]').click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert _luminance(background) < 0.2, background
    for index in range(dark.count()):
        assert dark.nth(index).is_visible() and not light.nth(index).is_visible()
        dark.nth(index).scroll_into_view_if_needed()
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=dark.nth(index).element_handle()
        )

    page.locator('[title="Switch to light mode"]').click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'default'")
    assert light.first.is_visible() and not dark.first.is_visible()
    assert not visit.problems(), visit.problems()


def _luminance(css_color: str) -> float:
    red, green, blue = (int(v) / 255 for v in re.findall(r"\d+", css_color)[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


@pytest.mark.parametrize(
    ("script", "markup"),
    [
        ("assets/quiz.js", r'class="jd-quiz"'),
        ("assets/track.js", r'class="(track-(done|status|progress|reset)|scan-viz)[ "]'),
    ],
)
def test_a_page_specific_script_is_loaded_exactly_where_its_markup_is(site_dir, script, markup):
    """engine/site/overrides/main.html leaves quiz.js and track.js out of pages that don't use
    them."""
    loading = pages_with(site_dir, script + '"></script>')
    using = [url for url in page_urls(site_dir) if re.search(markup, html_of(site_dir, url))]
    assert using, f"no page has the markup that {script} drives"
    assert loading == using
