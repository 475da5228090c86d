"""axe-core in a page: the script injected once per page, and only the violations sent back.

Measured on the longest page (course/pitfalls/, ~3,300 elements): the run itself is nearly all
of a run's cost (colour contrast, target sizes, scrollable regions and landmarks lead), so every
rule still runs. What goes is overhead around it: the 570 kB script sent and compiled again
before each run (0.2-0.8 s), and the passes, incomplete and inapplicable lists sent back as
~60 kB of JSON that nobody reads.
"""

from __future__ import annotations

from axe_playwright_python.base import AXE_SCRIPT

BLOCKING = {"serious", "critical"}  # the impacts that fail a test
OPTIONS = {"resultTypes": ["violations"]}  # as axe-playwright-python's default: all rules run

RUN = """async ([context, options]) => {
    const results = await axe.run(context ?? document, options);
    return results.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        targets: v.nodes.map(n => n.target.map(String).join(' ')),
    }));
}"""


def violations(page, context: str | None = None) -> list[dict]:
    """Every axe violation on the page (or in the element ``context`` selects), any impact."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    return page.evaluate(RUN, [context, OPTIONS])


def blocking(found: list[dict], targets: int = 5) -> list[str]:
    """One line per serious or critical violation, with where it is (its first targets)."""
    return [
        f"{v['impact']} {v['id']}: {v['help']} at " + ", ".join(v["targets"][:targets])
        for v in found
        if v["impact"] in BLOCKING
    ]
