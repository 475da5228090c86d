"""The scan widget on the jit-of-scan lesson, in a real browser.

Its numbers must be the ones JAX computed when the site was built: the page prints them as JSON
in an output block, and the widget reads that block. These tests
- recompute that JSON here with ``lax.scan`` (so the embedded values really are JAX's),
- step through every operation and preset, by mouse and by keyboard, and compare each shown
  number with the build-time value,
- check play / reset, the learner's own input (labelled as a simulation), accessibility in
  light and dark mode, and that nothing is requested from another host.

Fixtures (``open_page``, ``site_dir``) come from ``tests/browser/conftest.py``.
"""

from __future__ import annotations

import html
import json
import math
import re

import axe_check
import pytest

LESSON = "track/jit-of-scan/"

# The step functions the lesson's snippet scans, written again here, independently.
STEPS = {
    "sum": (0.0, lambda c, x: (c + x, c + x)),
    "product": (1.0, lambda c, x: (c * x, c * x)),
    "max": (-math.inf, lambda c, x: (_jnp().maximum(c, x), _jnp().maximum(c, x))),
    "ema": (0.0, lambda c, x: (0.5 * c + 0.5 * x, 0.5 * c + 0.5 * x)),
    "diff": (0.0, lambda c, x: (x, x - c)),
}


def _jnp():
    import jax.numpy as jnp

    return jnp


def build_time_data(site_dir) -> dict:
    """The JSON the page printed at build time, read from the built HTML."""
    page = (site_dir / LESSON / "index.html").read_text(encoding="utf-8")
    for block in re.findall(r"<code[^>]*>(.*?)</code>", page, re.DOTALL):
        text = html.unescape(re.sub(r"<[^>]+>", "", block)).strip()
        if text.startswith("{") and '"scanViz"' in text:
            return json.loads(text)
    raise AssertionError("the scan data block is missing from the built page")


def number(value) -> float:
    return float(value)  # float() reads "Infinity" / "-Infinity" too


def shown(text: str) -> float:
    """A number as the widget displays it (6 significant digits, ∞ for infinities)."""
    text = text.strip().replace("\u2212", "-")  # the widget writes a real minus sign
    return {"∞": math.inf, "-∞": -math.inf}.get(text) if "∞" in text else float(text)


def rounded(value: float) -> float:
    return value if math.isinf(value) else float(f"{value:.6g}")


@pytest.fixture(scope="module")
def data(site_dir) -> dict:
    return build_time_data(site_dir)


def test_embedded_values_are_what_lax_scan_returns(data):
    import jax
    from jax import lax
    from jax import numpy as jnp

    assert [op["id"] for op in data["ops"]] == list(STEPS), "the widget's operations changed"
    assert len(data["ops"]) >= 4 and data["jax"] == jax.__version__
    for op in data["ops"]:
        init, step = STEPS[op["id"]]
        assert number(op["init"]) == init
        for name, xs in data["presets"].items():

            def recorded(carry, x, step=step):
                new, y = step(carry, x)
                return new, (carry, new, y)

            final, (before, after, ys) = lax.scan(recorded, jnp.float32(init), jnp.asarray(xs))
            run = op["runs"][name]
            assert [s["x"] for s in run["steps"]] == xs
            for field, values in (("before", before), ("after", after), ("y", ys)):
                assert [number(s[field]) for s in run["steps"]] == [float(v) for v in values], (
                    op["id"],
                    name,
                    field,
                )
            assert number(run["final"]) == float(final)


ROWS = """Array.from(document.querySelectorAll('.scan-viz tbody tr')).map(row => {
    const cells = {};
    row.querySelectorAll('td').forEach(td => {
        cells[td.dataset.field] = {text: td.textContent, value: td.dataset.value};
    });
    cells.current = row.classList.contains('scan-viz__row--current');
    return cells;
})"""


def widget_rows(page) -> list[dict]:
    return page.evaluate(f"() => {ROWS}")


def rows_and_status(page) -> tuple[list[dict], str]:
    """The rows and the status line's text (Playwright's inner_text), in one round trip."""
    return page.evaluate(
        f"() => [{ROWS}, document.querySelector('.scan-viz .scan-viz__status').innerText]"
    )


def check_row(row: dict, expected: dict, where: str) -> None:
    for field in ("x", "before", "after", "y"):
        want = number(expected[field])
        assert number(row[field]["value"]) == want, (where, field, row[field], want)
        assert shown(row[field]["text"]) == rounded(want), (where, field, row[field], want)


def open_lesson(open_page, scheme: str = "light"):
    """The lesson, scrolled to the widget, once the widget says it is ready (it starts lazily)."""
    visit = open_page(scheme)
    visit.goto(LESSON)
    visit.page.locator(".scan-viz").scroll_into_view_if_needed()
    visit.page.locator(".scan-viz.scan-viz--ready").wait_for()
    return visit


def test_widget_starts_only_when_it_comes_near_the_screen(open_page):
    visit = open_page()
    page = visit.page
    page.set_viewport_size({"width": 800, "height": 400})  # the widget is far below the fold
    visit.goto(LESSON)
    widget = page.locator(".scan-viz")
    top = widget.evaluate("node => node.getBoundingClientRect().top")
    assert top > 400 + 300, f"the widget is near the first screen (top {top}px)"
    page.wait_for_timeout(300)  # time enough to start if it were started eagerly
    assert widget.get_attribute("data-ready") is None
    assert "needs JavaScript" in widget.text_content()  # the no-script text is still there
    widget.scroll_into_view_if_needed()
    page.locator(".scan-viz.scan-viz--ready").wait_for()
    assert widget.locator("button").count() > 0
    assert not visit.problems(), visit.problems()


def test_stepping_through_every_operation_shows_the_build_time_values(open_page, data):
    visit = open_lesson(open_page)
    page = visit.page
    widget = page.locator(".scan-viz")
    status = widget.locator(".scan-viz__status")
    step_button = widget.locator("button[data-action=step]")
    assert status.get_attribute("aria-live") == "polite"
    presses = 0
    for op in data["ops"]:
        for name, run in op["runs"].items():
            widget.locator(f"button[data-preset={name}]").click()
            widget.locator(f"button[data-op={op['id']}]").click()
            where = f"{op['id']}/{name}"
            assert (
                widget.locator(f"button[data-op={op['id']}]").get_attribute("aria-pressed")
                == "true"
            )
            source = widget.locator(".scan-viz__source")
            assert source.get_attribute("data-source") == "jax", where
            assert "Real JAX values" in source.inner_text()
            rows = widget_rows(page)
            n = len(run["steps"])
            assert len(rows) == n, where
            assert all(row["after"]["text"] == "·" for row in rows), (where, rows)
            assert "starts at" in status.inner_text()
            for k in range(1, n + 1):
                if presses % 2:  # every other step by keyboard: a real, focusable button
                    step_button.focus()
                    page.keyboard.press("Enter" if presses % 4 == 1 else " ")
                else:  # a real click at its centre; that it landed is the step it made, below
                    step_button.click(force=True)  # no wait for a still target: ~35 ms a step
                presses += 1
                rows, said = rows_and_status(page)
                for index in range(k):
                    check_row(rows[index], run["steps"][index], f"{where} step {k} row {index}")
                assert [row["current"] for row in rows] == [i == k - 1 for i in range(n)]
                assert all(row["after"]["text"] == "·" for row in rows[k:]), (where, k)
                assert said.startswith(f"Step {k} of {n}:"), said
            assert step_button.is_disabled(), where
            result = widget.locator(".scan-viz__result")
            assert number(result.get_attribute("data-final")) == number(run["final"]), where
            assert "final carry" in result.inner_text()
            widget.locator("button[data-action=reset]").click()
            assert "starts at" in status.inner_text() and step_button.is_enabled()
    assert not visit.problems(), visit.problems()


def test_play_runs_to_the_end_and_reset_starts_over(open_page, data):
    visit = open_lesson(open_page)
    page = visit.page
    widget = page.locator(".scan-viz")
    widget.evaluate("node => { node.dataset.playMs = '60'; }")  # fast playback for the test
    widget.locator("button[data-op=product]").click()
    play = widget.locator("button[data-action=play]")
    play.click()
    assert play.get_attribute("aria-pressed") == "true" and play.inner_text() == "Pause"
    status = widget.locator(".scan-viz__status")
    page.wait_for_function(
        "() => document.querySelector('.scan-viz__status').textContent.includes('Finished')"
    )
    assert play.get_attribute("aria-pressed") == "false" and play.inner_text() == "Play"
    run = next(op for op in data["ops"] if op["id"] == "product")["runs"]["A"]
    for index, row in enumerate(widget_rows(page)):
        check_row(row, run["steps"][index], f"product/A row {index}")
    widget.locator("button[data-action=reset]").click()
    assert "starts at" in status.inner_text()
    assert all(row["after"]["text"] == "·" for row in widget_rows(page))
    assert not visit.problems(), visit.problems()


def test_own_input_is_a_labelled_simulation_that_agrees_with_jax(open_page, data):
    visit = open_lesson(open_page)
    page = visit.page
    widget = page.locator(".scan-viz")
    field = widget.locator(".scan-viz__custom input")
    assert widget.locator(f"label[for='{field.get_attribute('id')}']").count() == 1

    field.fill("1, 2, x")
    widget.locator("button[data-action=simulate]").click()
    assert "plain numbers" in widget.locator(".scan-viz__error").inner_text()
    assert widget.locator(".scan-viz__source").get_attribute("data-source") == "jax"

    preset = ", ".join(str(v) for v in data["presets"]["A"])
    for op in data["ops"]:
        widget.locator(f"button[data-op={op['id']}]").click()
        field.fill(preset)
        field.press("Enter")  # submits the form, like the Simulate button
        source = widget.locator(".scan-viz__source")
        assert source.get_attribute("data-source") == "simulation"
        assert "Simulation" in source.inner_text() and "not by JAX" in source.inner_text()
        assert widget.locator(".scan-viz__error").inner_text() == ""
        run = op["runs"]["A"]
        for _ in run["steps"]:  # a click that missed leaves a row without its numbers
            widget.locator("button[data-action=step]").click(force=True)
        for index, row in enumerate(widget_rows(page)):  # exact float32 sums: same numbers
            check_row(row, run["steps"][index], f"simulated {op['id']} row {index}")
        widget.locator("button[data-preset=A]").click()  # back to the real JAX values
        assert widget.locator(".scan-viz__source").get_attribute("data-source") == "jax"
    assert not visit.problems(), visit.problems()


def test_widget_is_accessible_in_light_and_dark_mode(open_page, scheme):
    visit = open_lesson(open_page, scheme)
    page = visit.page
    expected = "slate" if scheme == "dark" else "default"
    assert page.get_attribute("body", "data-md-color-scheme") == expected
    widget = page.locator(".scan-viz")
    widget.locator("button[data-op=max]").click()
    for _ in range(3):
        widget.locator("button[data-action=step]").click()
    found = axe_check.blocking(axe_check.violations(page, context=".scan-viz"))
    assert not found, "\n".join(found)
    colors = widget.evaluate(
        """node => {
            const style = getComputedStyle(node.querySelector('.scan-viz__status'));
            return [style.color, getComputedStyle(document.body).backgroundColor];
        }"""
    )
    assert colors[0] != colors[1], colors
    assert not visit.problems(), visit.problems()
