"""Practice pages in a browser: the quiz without JavaScript, with the keyboard, and the notebook
download links."""

from __future__ import annotations

import json

QUIZ = "practice/quiz/"
# A question's answer box; below the first screen, all but its heading is in a section.
ANSWER = ".jd-quiz > details, .jd-quiz > .jd-section > details"
IN_QUIZ = ":scope > details, :scope > .jd-section > details"  # the same, from the question


# Each quiz's parts, read in one round trip (a locator call per part per quiz cost ~6 s).
QUIZ_PARTS = """() => Array.from(document.querySelectorAll('.jd-quiz')).map(quiz => {
    const answer = quiz.querySelector(':scope > details, :scope > .jd-section > details');
    return {
        options: quiz.querySelectorAll(':scope > ol > li, :scope > .jd-section > ol > li').length,
        answer: answer !== null,
        open: answer !== null && answer.open,
        sections: answer === null ? 0
            : answer.querySelectorAll("a[href*='course/'], a[href*='beyond/']").length,
    };
})"""
ANSWERS_OPEN = f"() => Array.from(document.querySelectorAll('{ANSWER}')).map(d => d.open)"


def test_quiz_without_javascript_shows_options_and_folded_answers(open_page):
    visit = open_page(java_script_enabled=False)
    visit.goto(QUIZ)
    page = visit.page
    parts = page.evaluate(QUIZ_PARTS)
    assert len(parts) >= 8
    for index, part in enumerate(parts):
        assert part["options"] >= 2, index  # the options, as a list
        assert part["answer"] and not part["open"], index  # the answer, folded
        assert part["sections"] >= 1, index  # its section
    assert page.locator(ANSWER).filter(visible=True).count() == len(parts)  # Playwright's test
    assert page.locator(".jd-quiz input[type=radio]").count() == 0
    summaries = page.locator(ANSWER).locator(":scope > summary")
    assert summaries.count() == len(parts)
    for index in range(len(parts)):
        # A real click at the summary's centre. Without the wait for a still, unobscured target
        # (~35 ms a click): that the click hit the summary is the answer it opened, checked below.
        summaries.nth(index).click(force=True)
    assert page.evaluate(ANSWERS_OPEN) == [True] * len(parts)


def test_quiz_works_with_the_keyboard_alone(open_page):
    visit = open_page()
    visit.goto(QUIZ)
    page = visit.page
    quiz = page.locator(".jd-quiz").first
    right = int(quiz.get_attribute("data-answer"))
    options = quiz.locator("input[type=radio]")
    options.first.focus()
    page.keyboard.press("Space")  # choose option 1
    for _ in range(right - 1):
        page.keyboard.press("ArrowDown")  # arrows move to and choose the next option
    assert options.nth(right - 1).is_checked()
    feedback = quiz.locator(".jd-quiz__feedback")
    assert feedback.inner_text().strip().startswith("Right:")
    assert feedback.locator(".jd-symbol--right").is_visible()  # drawn, no emoji font needed
    assert quiz.locator(".jd-quiz__feedback").get_attribute("role") == "status"
    assert quiz.locator(IN_QUIZ).evaluate("d => d.open")
    score = page.locator(".jd-quiz-score")
    visit.show(score)  # at the foot of the page
    assert "1 right out of 1 answered" in score.inner_text()
    assert not visit.problems(), visit.problems()


def test_chapter_pages_offer_their_notebook_for_download(open_page):
    visit = open_page()
    for url in ("course/why-compile/", "practice/exercises/"):
        visit.goto(url)
        link = visit.page.locator("article a.jd-download")
        assert link.count() == 1, url
        href = link.get_attribute("href")
        assert href.endswith(".ipynb") and link.get_attribute("download"), (url, href)
        response = visit.page.request.get(visit.page.url + href)
        assert response.ok, (url, href, response.status)
        notebook = json.loads(response.text())
        assert notebook["nbformat"] == 4 and notebook["cells"], url
    assert not visit.problems(), visit.problems()
