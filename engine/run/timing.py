"""Which code measures time, and so runs with nothing beside it: the rule, and why a claim it
misses fails loudly, are in CONTRIBUTING.md ("Tests and pages that measure time run alone")."""

from __future__ import annotations

import re
from pathlib import Path

from engine.page.model import Page
from engine.run.imports import project_files

TIMING_HELPERS = ("assert_faster", "claim_ratio")  # jitkit's only ways to claim a speed
HELPERS_HOME = "snippets/jitkit.py"  # defines the helpers: naming them there claims nothing
# (nor in the engine, which names them to find them: a test that imports it claims nothing)

# Read by snippets/jitkit.py, which may not import the engine (tests/test_run.py checks they agree).
SHARED_CPU_VARIABLE = "JITDOCS_SHARED_CPU"


def measures_time(page: Page) -> bool:
    """Does the page's code, or a project module it imports, call a timing helper?"""
    return uses_timing_helpers([block.source for block in page.blocks])


def uses_timing_helpers(sources: list[str]) -> bool:
    """Do these sources, a project module they import, or a file they load by name (an
    exercise's checker) name a timing helper?"""
    imported = project_files(sources, run_time_reads=False)
    named = "\n".join([*sources, *imported.values()])
    loaded = [
        text
        for path, text in project_files(sources).items()
        if path not in imported and is_named(Path(path).stem, named)
    ]
    modules = {**imported, **project_files(loaded, run_time_reads=False)}
    kept = [t for p, t in modules.items() if p != HELPERS_HOME and not p.startswith("engine/")]
    return names_timing_helper("\n".join([*sources, *loaded, *kept]))


def is_named(stem: str, code: str) -> bool:
    """Is ``stem`` a string in ``code`` (``self_check("training_loop")``)? A file read at run
    time that the code never names is never loaded (else jitkit's guard stops its claim)."""
    return re.search(rf"""["']{re.escape(stem)}["']""", code) is not None


def names_timing_helper(code: str) -> bool:
    return any(helper in code for helper in TIMING_HELPERS)
