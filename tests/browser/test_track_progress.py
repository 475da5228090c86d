"""Practice-track progress: "Mark as done" on a lesson is remembered in the browser
(localStorage) and shown on the track page; undo and reset work. No server, no account."""

from __future__ import annotations

import re

TRACK = "track/"


def lesson_urls_and_ids(page) -> list[tuple[str, str]]:
    """(lesson URL, lesson id) for each row of the track page's table, in order."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('.md-typeset table tbody tr')).map(row => [
            row.querySelector('a').getAttribute('href'),
            row.querySelector('.track-status').dataset.lesson,
        ])"""
    )


def statuses(page) -> dict[str, str]:
    return page.evaluate(
        """() => Object.fromEntries(Array.from(document.querySelectorAll('.track-status'))
            .map(cell => [cell.dataset.lesson, cell.textContent.trim()]))"""
    )


# A lesson page's first screen, in one round trip: the step line (as shown), where its "Jump to
# the task" links lead, how many task headings there are, and whose "Mark as done" buttons.
LESSON_TOP = """() => ({
    meta: document.querySelector('.track-meta').innerText,
    jumps: Array.from(document.querySelectorAll('.track-meta a'))
        .filter(a => a.textContent.toLowerCase().includes('jump to the task'))
        .map(a => a.getAttribute('href')),
    tasks: document.querySelectorAll('h2#problem').length,
    buttons: Array.from(document.querySelectorAll('button.track-done'), b => b.dataset.lesson),
})"""


def test_marking_lessons_done_shows_on_the_track_page_and_survives_reloads(open_page):
    visit = open_page()
    page = visit.page
    visit.goto(TRACK)
    rows = lesson_urls_and_ids(page)
    assert len(rows) >= 6
    assert set(statuses(page).values()) == {"Not done"}
    assert page.locator(".track-progress").inner_text().startswith(f"0 of {len(rows)} lessons")

    first_url, first_id = rows[0]
    last_url, last_id = rows[-1]
    for url in (first_url, last_url):
        visit.goto(TRACK + url)
        button = page.locator("button.track-done")
        visit.show(button)
        assert button.is_visible() and button.get_attribute("aria-pressed") == "false"
        assert button.inner_text() == "Mark as done"
        button.click()
        assert button.get_attribute("aria-pressed") == "true"
        assert "Done" in button.inner_text()

    visit.goto(TRACK)
    shown = statuses(page)
    assert shown[first_id] == shown[last_id] == "✓ Done"
    assert all(text == "Not done" for key, text in shown.items() if key not in {first_id, last_id})
    assert page.locator(".track-progress").inner_text().startswith(f"2 of {len(rows)} lessons")

    visit.goto(TRACK + first_url)  # a reload keeps the state; a second click undoes it
    button = page.locator("button.track-done")
    assert button.get_attribute("aria-pressed") == "true"
    button.focus()
    page.keyboard.press("Enter")
    assert button.get_attribute("aria-pressed") == "false"

    visit.goto(TRACK)
    assert statuses(page)[first_id] == "Not done" and statuses(page)[last_id] == "✓ Done"
    page.locator("button.track-reset").click()
    assert set(statuses(page).values()) == {"Not done"}
    stored = page.evaluate("() => localStorage.getItem('jitdocs-track-progress-v1')")
    assert stored == "{}", stored  # the progress key, emptied
    assert not visit.problems(), visit.problems()


def test_each_lesson_page_shows_step_links_and_its_own_button(open_page):
    visit = open_page()
    page = visit.page
    visit.goto(TRACK)
    rows = lesson_urls_and_ids(page)
    for number, (url, lesson) in enumerate(rows, start=1):
        visit.goto(TRACK + url)
        top = page.evaluate(LESSON_TOP)
        assert re.search(rf"Step {number} of {len(rows)}\b", top["meta"]), top
        assert top["jumps"] == ["#problem"], top
        assert top["tasks"] == 1 and top["buttons"] == [lesson], top
        visit.show(page.locator(".track-nav"))
        links = page.locator(".track-nav a").all_inner_texts()
        assert any(text.startswith("← Previous") for text in links), links
        assert any(text.endswith("→") for text in links), links
    assert not visit.problems(), visit.problems()
