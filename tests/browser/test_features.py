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


PAIRS_JS = """() => Array.from(document.querySelectorAll('.jd-pair')).map(pair => {
    const boxes = Array.from(pair.querySelectorAll(':scope > .admonition'));
    return boxes.map(box => ({
        classes: Array.from(box.classList),
        title: (box.querySelector(':scope > .admonition-title') || {}).textContent || '',
        code: box.querySelectorAll('pre').length,
    }));
})"""


def test_bad_and_good_examples_are_rendered_as_pairs(open_page, site_dir):
    """Each .jd-pair: a titled failure box, then a titled success box, each showing code."""
    urls = pages_with(site_dir, 'class="jd-pair"')
    assert urls, "no page has a ❌/✅ pair"
    for url in urls:
        visit = open_page()
        visit.goto(url, idle=False)  # test_page_loads_clean_and_offline waits for the rest
        pairs = visit.page.evaluate(PAIRS_JS)
        assert pairs, url
        for number, boxes in enumerate(pairs, start=1):
            where = f"{url} pair {number}"
            assert len(boxes) == 2, (where, boxes)
            assert "failure" in boxes[0]["classes"] and "success" in boxes[1]["classes"], where
            assert all(box["title"].strip() and box["code"] >= 1 for box in boxes), (where, boxes)
        assert visit.page.locator(".jd-pair").first.is_visible(), url
        assert not visit.problems(), visit.problems()


CLOSED_JS = """() => Array.from(document.querySelectorAll('article details'))
    .map((details, index) => [details, index])
    .filter(([details]) => !details.open && details.getClientRects().length > 0)
    .map(([, index]) => index)"""


def test_collapsible_blocks_open_on_click(open_page, site_dir):
    """On every page, the first and the last closed block (a quiz's hidden answers aside)."""
    urls = pages_with(site_dir, "<details")
    assert urls, "no page has a collapsible block"
    tested = 0
    for url in urls:
        visit = open_page()
        visit.goto(url, idle=False)  # test_page_loads_clean_and_offline waits for the rest
        closed = visit.page.evaluate(CLOSED_JS)
        for index in closed[:1] + closed[1:][-1:]:
            details = visit.page.locator("article details").nth(index)
            details.scroll_into_view_if_needed()
            body = details.locator(":scope > :not(summary)").first
            assert not body.is_visible(), (url, index)
            details.locator(":scope > summary").click()
            assert details.evaluate("d => d.open"), (url, index)
            assert body.is_visible(), (url, index)
            tested += 1
        assert not visit.problems(), visit.problems()
    assert tested >= 1


def test_quiz_questions_say_right_or_wrong_and_open_the_answer(open_page, site_dir):
    urls = pages_with(site_dir, 'class="jd-quiz"')
    if not urls:
        pytest.fail("no page has a quiz (.jd-quiz)", pytrace=False)
    for url in urls:
        visit = open_page()
        visit.goto(url, idle=False)  # test_page_loads_clean_and_offline waits for the rest
        quizzes = visit.page.locator(".jd-quiz")
        assert quizzes.count() >= 1
        for index in range(quizzes.count()):
            quiz = quizzes.nth(index)
            right = int(quiz.get_attribute("data-answer"))
            options = quiz.locator("input[type=radio]")
            answer = quiz.locator(":scope > details")
            assert options.count() >= 2 and not answer.is_visible(), (url, index)
            choice = right if index % 2 else (right % options.count()) + 1  # alternate right/wrong
            quiz.locator(".jd-quiz__option").nth(choice - 1).click()
            feedback = quiz.locator(".jd-quiz__feedback").inner_text()
            assert feedback.startswith("✅" if choice == right else "❌"), (url, index, feedback)
            assert quiz.get_attribute("data-result") == ("right" if choice == right else "wrong")
            assert answer.is_visible() and answer.evaluate("d => d.open"), (url, index)
        assert not visit.problems(), visit.problems()


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
