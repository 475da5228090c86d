"""Every runnable block of every page under docs/ is a test (see engine/run/sybil_setup.py).

Tests that measure time are marked ``timing`` here, from their code, and `nox -s tests` runs them
alone before the rest runs on every core (pytest-xdist). A pytest-xdist worker tells the code it
runs that the CPU is shared (``JITDOCS_SHARED_CPU``), and jitkit then refuses any timing claim, so a
test this rule misses fails with a message that says how to mark it.
"""

from __future__ import annotations

import functools
import inspect
import os
from pathlib import Path

import pytest

from engine.page.model import ROOT
from engine.page.parser import read_page
from engine.run.sybil_setup import docs
from engine.run.timing import SHARED_CPU_VARIABLE, measures_time, uses_claim_helpers

pytest_collect_file = docs.pytest()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "timing: measures time, so it runs alone (set from the code below; by hand only where "
        "jitkit's SharedCPUError asks for it, see tests/timing_marks.py)",
    )
    worker = getattr(config, "workerinput", {}).get("workerid")
    if worker:  # inherited by everything the worker starts: pages, notebook kernels, checkers
        os.environ[SHARED_CPU_VARIABLE] = f"pytest-xdist worker {worker}, beside other tests"


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's loadgroup reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        page = page_of(item)
        if page:  # its examples share one namespace: one worker runs them all, in order
            item.add_marker(pytest.mark.xdist_group(page))
        if measures_time_in(item, page):
            item.add_marker(pytest.mark.timing)


def page_of(item: pytest.Item) -> str | None:
    """The docs page a Sybil example comes from, as a path from the project root."""
    path = Path(item.path)
    return path.relative_to(ROOT).as_posix() if path.suffix == ".md" else None


def measures_time_in(item: pytest.Item, page: str | None) -> bool:
    """A page whose code claims a speed, or a test whose own source names a claim helper.

    A test that makes a claim any other way (runs a page's notebook, a checker that times
    code) is marked by hand where it is parametrized; jitkit's SharedCPUError points there.
    """
    if page:
        return page_measures_time(page)
    function = getattr(item, "function", None)
    return function is not None and uses_claim_helpers([inspect.getsource(function)])


@functools.cache
def page_measures_time(path: str) -> bool:
    return measures_time(read_page(path))
