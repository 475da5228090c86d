"""Every runnable block of every page under docs/ is a test (see engine/run/sybil_setup.py).

Tests that measure time are marked ``timing`` here, from their code, and `nox -s tests` runs them
alone after the rest has run on every core (pytest-xdist). A pytest-xdist worker tells the code it
runs that the CPU is shared (``JITDOCS_SHARED_CPU``), and jitkit then refuses any timing claim, so a
test this rule misses fails with a message that says how to mark it. Under ``--dist loadscope``,
the scope is ours: a page (``group_of``).

Under `nox -s tests`, the build before the tests has run every page's code, timing pages alone,
and written down what each block did (``engine.run.record``): a page's examples then report that
run, measure nothing and run with the rest. The record's file is read here and handed to the
xdist workers, and left out of the environment of everything the tests start (a build a test
makes must not write to it).
"""

from __future__ import annotations

import functools
import gc
import inspect
import os
import sys
from pathlib import Path

import pytest

from engine.page.model import ROOT
from engine.page.parser import read_page
from engine.run.record import RECORD_VARIABLE
from engine.run.sybil_setup import docs, recorded_runs, use_record
from engine.run.timing import SHARED_CPU_VARIABLE, measures_time, uses_timing_helpers
from tests.unit_guard import UNIT_VARIABLE

pytest_collect_file = docs.pytest()
pytest_plugins = ["tests.tiers"]  # the default and the full tier (--full)
RECORD_KEY = pytest.StashKey[str | None]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "timing: measures time, so it runs alone (set from the code below; by hand only where "
        "jitkit's SharedCPUError asks for it, see tests/timing_marks.py)",
    )
    config.addinivalue_line(
        "markers",
        "clockless: names a timing helper but gives it its numbers, so it runs with the rest "
        "(tests/timing_marks.py)",
    )
    worker_input = getattr(config, "workerinput", {})
    named = worker_input.get(RECORD_VARIABLE) or os.environ.pop(RECORD_VARIABLE, None)
    config.stash[RECORD_KEY] = named
    if named:
        use_record(Path(named))
    worker = worker_input.get("workerid")
    if worker:  # inherited by everything the worker starts: pages, notebook kernels, checkers
        os.environ[SHARED_CPU_VARIABLE] = f"pytest-xdist worker {worker}, beside other tests"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """An xdist worker reads the build's record that this process was given."""
    named = node.config.stash.get(RECORD_KEY, None)
    if named:
        node.workerinput[RECORD_VARIABLE] = named


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if os.environ.get(UNIT_VARIABLE) == "1":
        return  # `nox -s unit` is one run in one process: the mark splits only `nox -s tests`
    for item in items:
        if measures_time_in(item, page_of(item)):
            item.add_marker(pytest.mark.timing)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection made (every item, every parsed page) out of the garbage
    collector's reach: each full collection, and JAX's leak checks (a ``gc.collect()`` and a
    ``gc.get_referrers`` per trace), would walk it again. 15% less CPU on the pages and checkers
    that leak-check. What a test makes is not frozen, so a leak it makes is still found."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """``--dist loadscope`` with a page as the scope. (pytest-xdist's loadgroup cannot group
    here: it renames a test's nodeid, which pytest 9 no longer reads.)"""
    if config.getoption("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    url_ids = site_url_ids()

    class PageScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid, url_ids)

    return PageScheduling(config, log)


def group_of(nodeid: str, url_ids: list[str]) -> str:
    """What one worker runs together: a docs page's examples (they share one namespace, in
    order); a site page's browser tests (its one load, made once per worker, serves them all);
    any other test alone."""
    path = nodeid.split("::", 1)[0]
    if path.endswith(".md"):
        return path
    if path.startswith("tests/browser/") and nodeid.endswith("]") and "[" in nodeid:
        params = nodeid[nodeid.index("[") + 1 : -1]
        for url in url_ids:  # a URL id has a "/" or is "home" or "404.html": no other id is
            if f"-{params}-".find(f"-{url}-") >= 0:
                return f"site page {url}"
    return nodeid


def site_url_ids() -> list[str]:
    """The browser tests' ids of the site's pages (tests/browser/conftest.py), longest first."""
    site = os.environ.get("JITDOCS_SITE_DIR")
    if not site:
        return []  # each worker builds its own site: nothing to share
    sys.path.insert(0, str(ROOT / "tests" / "browser"))
    from served_site import page_urls, url_id

    return sorted(map(url_id, page_urls(Path(site))), key=len, reverse=True)


def page_of(item: pytest.Item) -> str | None:
    """The docs page a Sybil example comes from, as a path from the project root."""
    path = Path(item.path)
    return path.relative_to(ROOT).as_posix() if path.suffix == ".md" else None


def measures_time_in(item: pytest.Item, page: str | None) -> bool:
    """A page whose code claims a speed and runs in its examples (not reported from the build's
    record), or a test whose own source names a timing helper (unless it is ``clockless``).

    A test that makes a claim any other way (runs a page's notebook, a checker that times
    code) is marked by hand where it is parametrized; jitkit's SharedCPUError points there.
    """
    if page:
        return page_measures_time(page)
    function = getattr(item, "function", None)
    if function is None or item.get_closest_marker("clockless"):
        return False
    return function_measures_time(function)


@functools.cache
def function_measures_time(function) -> bool:
    """Once per test function, not per parameter: following its imports was most of the time
    collection took."""
    return uses_timing_helpers([inspect.getsource(function)])


@functools.cache
def page_measures_time(path: str) -> bool:
    """Its examples run its code here, and the code makes a timing claim."""
    page = read_page(path)
    return recorded_runs(page) is None and measures_time(page)
