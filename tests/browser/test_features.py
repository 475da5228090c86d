"""What a reader clicks: search, the ❌/✅ pairs, collapsible blocks, copy buttons, dark mode."""

from __future__ import annotations

import re

import pytest
from page_survey import CLOSED_JS, in_page
from served_site import RENDERER, html_of, page_urls, pages_with, search_results

from tests import tiers

CHART_PAGE = "course/why-compile/"


def test_search_finds_a_page_by_an_api_name(open_page):
    """Typed key by key (Material listens to keyboard input; page.fill would not trigger it)."""
    visit = open_page(real_search=True)
    visit.goto("")
    page = visit.page
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially("fori_loop", delay=40)
    hrefs = search_results(page)
    assert any("course/loops/" in href for href in hrefs), hrefs  # the page that teaches it
    assert not visit.problems(), visit.problems()


@pytest.mark.pages_with('class="jd-pair"')
def test_bad_and_good_examples_are_rendered_as_pairs(surveys, url):
    """Each .jd-pair: a titled failure box, then a titled success box, each showing code."""
    found = surveys.of(url)["pairs"]
    assert found["pairs"], url
    for number, boxes in enumerate(found["pairs"], start=1):
        where = f"{url} pair {number}"
        assert len(boxes) == 2, (where, boxes)
        assert "failure" in boxes[0]["classes"] and "success" in boxes[1]["classes"], where
        assert all(box["title"].strip() and box["code"] >= 1 for box in boxes), (where, boxes)
    assert found["firstShown"], url


@pytest.mark.pages_with("<details")
def test_collapsible_blocks_open_on_click(surveys, url):
    """Every closed block on the page (a quiz's hidden answers aside, which the quiz test
    opens), clicked in the page: hidden before, open and shown after."""
    blocks, quiz_answers, problems = surveys.of(url)["collapsibles"]
    assert blocks or quiz_answers, f"{url} has a <details>, but none is closed or a quiz answer"
    for block in blocks:
        assert block["hiddenBefore"] and block["open"] and block["shownAfter"], (url, block)
    assert not problems, problems


def test_a_collapsible_block_opens_on_a_mouse_click(open_page):
    """As a reader opens one: the mouse on its summary (the per-page test clicks in the page)."""
    visit = open_page()
    visit.goto(CHART_PAGE)
    closed = visit.page.evaluate(CLOSED_JS)
    assert closed, f"{CHART_PAGE} has no closed block to click"
    click_open(visit, closed[0], CHART_PAGE)
    assert not visit.problems(), visit.problems()


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
        const answer = quiz.querySelector(':scope > details, :scope > .jd-section > details');
        const hiddenBefore = !shown(answer);
        const choice = index % 2 ? right : (right % radios) + 1;
        options[choice - 1].click();
        return {index, right, choice, radios, hiddenBefore,
                feedback: quiz.querySelector('.jd-quiz__feedback').innerText.trim(),
                mark: quiz.querySelector('.jd-quiz__feedback > .jd-symbol').className,
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
            assert quiz["feedback"].startswith("Right:" if right else "Not quite:"), where
            assert quiz["mark"].endswith("--right" if right else "--wrong"), where
            assert quiz["result"] == ("right" if right else "wrong"), where
            assert quiz["open"] and quiz["shownAfter"], where
        assert not visit.problems(), visit.problems()


def answer_with_the_mouse(quiz, url: str) -> None:
    """The first quiz (index 0: a wrong option, as the alternation says), clicked as a reader."""
    right = int(quiz.get_attribute("data-answer"))
    options = quiz.locator("input[type=radio]")
    answer = quiz.locator(":scope > details, :scope > .jd-section > details")
    assert options.count() >= 2 and not answer.is_visible(), url
    choice = (right % options.count()) + 1
    quiz.locator(".jd-quiz__option").nth(choice - 1).click()
    feedback = quiz.locator(".jd-quiz__feedback")
    assert feedback.inner_text().strip().startswith("Not quite:"), (url, feedback.inner_text())
    assert feedback.locator(".jd-symbol--wrong").count() == 1, url
    assert quiz.get_attribute("data-result") == "wrong"
    assert answer.is_visible() and answer.evaluate("d => d.open"), url


# The chart page (folded blocks, lazy buttons) in both tiers; the home page, the same script on
# the same template, when it or the site's markup, scripts or this file change.
@pytest.mark.parametrize(
    "address",
    [
        pytest.param(
            "",
            marks=tiers.only_when_changed(
                "docs/index.md", *RENDERER, "tests/browser/test_features.py"
            ),
        ),
        CHART_PAGE,
    ],
)
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
