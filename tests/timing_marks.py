"""Marks for tests that run timing code indirectly: a page's notebook, an exercise's checker.

conftest.py marks a test `timing` when its own source names a timing helper; these tests name
none, yet run code that does, so they are marked where they are parametrized, from that code.
"""

from __future__ import annotations

import pytest

from engine.page.model import ROOT
from engine.page.parser import read_page
from engine.run.timing import measures_time, uses_timing_helpers

CHECKS = ROOT / "snippets" / "_checks"


def timed_if(value, measures: bool):
    return pytest.param(value, marks=pytest.mark.timing) if measures else value


def pages(paths: list[str]) -> list:
    """Page paths, each marked `timing` when the page's code claims a speed."""
    return [timed_if(path, measures_time(read_page(path))) for path in paths]


def checker_measures_time(exercise: str) -> bool:
    """The rule the build uses, on the checker's code and the modules it imports."""
    return uses_timing_helpers([(CHECKS / f"{exercise}.py").read_text(encoding="utf-8")])


def exercises(ids: list[str]) -> list:
    """Exercise ids, each marked `timing` when its checker times the solution."""
    return [timed_if(exercise, checker_measures_time(exercise)) for exercise in ids]
