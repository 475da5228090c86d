"""Practice pages in a browser: the quiz without JavaScript, with the keyboard, and the notebook
download links."""

from __future__ import annotations

import json

QUIZ = "practice/quiz/"


def test_quiz_without_javascript_shows_options_and_folded_answers(open_page):
    visit = open_page(java_script_enabled=False)
    visit.goto(QUIZ)
    page = visit.page
    quizzes = page.locator(".jd-quiz")
    assert quizzes.count() >= 8
    for index in range(quizzes.count()):
        quiz = quizzes.nth(index)
        assert quiz.locator(":scope > ol > li").count() >= 2, index  # the options, as a list
        answer = quiz.locator(":scope > details")
        assert answer.is_visible() and not answer.evaluate("d => d.open"), index
        answer.locator(":scope > summary").click()
        section = answer.locator("a[href*='course/'], a[href*='beyond/']")  # its section
        assert section.count() >= 1, index
    assert quizzes.locator("input[type=radio]").count() == 0


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
    assert quiz.locator(":scope > details").evaluate("d => d.open")
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
