"""Which code measures time (engine/run/timing.py, conftest.py), and the guard behind the rule:
code that claims a speed while other work runs beside it fails, and says how to mark it."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from timing_marks import clockless

import jitkit
from engine.page.model import ROOT, SNIPPETS
from engine.run import timing
from tests.helpers import fence, page, root_conftest


def test_the_engine_and_jitkit_name_the_same_variable():
    assert jitkit.SHARED_CPU_VARIABLE == timing.SHARED_CPU_VARIABLE


@clockless
def test_a_claim_where_the_cpu_is_shared_is_refused_before_it_is_recorded(monkeypatch):
    jitkit.TIMING_CLAIMS.clear()
    monkeypatch.setenv(timing.SHARED_CPU_VARIABLE, "a test beside it")
    with pytest.raises(jitkit.SharedCPUError, match=r"a test beside it.*@pytest\.mark\.timing"):
        jitkit.claim_ratio("x vs y", 8.0, at_least=2)
    assert jitkit.TIMING_CLAIMS == []


@clockless
def test_a_page_measures_time_when_its_code_or_a_module_it_imports_claims_a_speed():
    claiming = [
        path
        for path in sorted(SNIPPETS.glob("*/*.py"))
        if timing.names_timing_helper(path.read_text(encoding="utf-8"))
    ]
    assert claiming, "no snippet claims a speed: this test needs a module that does"
    dotted = ".".join(claiming[0].relative_to(SNIPPETS).with_suffix("").parts)
    assert timing.measures_time(page("# D\n\n" + fence(f"import {dotted}")))
    assert timing.measures_time(page("# D\n\n" + fence("from jitkit import claim_ratio")))
    # jitkit defines the helpers: importing something else from it is no claim
    assert not timing.measures_time(page("# D\n\n" + fence("from jitkit import count_compiles")))
    assert not timing.measures_time(page("# D\n\n" + fence("print(1)")))


def test_a_checker_counts_only_on_a_page_that_names_it():
    """check_solution reads every snippets/_checks/*.py at run time, but loads one by its name."""
    checkers = sorted((SNIPPETS / "_checks").glob("*.py"))
    claiming = [path.stem for path in checkers if timing.names_timing_helper(path.read_text())]
    quiet = [path.stem for path in checkers if path.stem not in claiming]
    assert claiming and quiet, "this test needs a checker that claims a speed and one that does not"
    uses = "from check_solution import run_checks\nrun_checks({!r}, None)"
    assert timing.measures_time(page("# D\n\n" + fence(uses.format(claiming[0]))))
    assert not timing.measures_time(page("# D\n\n" + fence(uses.format(quiet[0]))))
    assert not timing.measures_time(page("# D\n\n" + fence("import check_solution")))


INDIRECT_CLAIM = """
import jitkit


def test_names_a_helper():  # conftest.py marks it `timing`: deselected below
    jitkit.claim_ratio("named", 8.0, at_least=2)


def test_hides_the_helper():  # the rule cannot see this claim; the guard must
    getattr(jitkit, "claim" + "_ratio")("hidden", 8.0, at_least=2)
"""


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest on ``folder`` with this project's conftest.py loaded as a plugin."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(SNIPPETS)]))
    env.pop(timing.SHARED_CPU_VARIABLE, None)
    command = [sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider", *args]
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)


def test_a_claim_the_rule_misses_fails_loudly_in_a_parallel_worker(tmp_path):
    (tmp_path / "test_claims.py").write_text(textwrap.dedent(INDIRECT_CLAIM))
    parallel = run_pytest(tmp_path, "-m", "not timing", "-n", "1", "-q")
    assert parallel.returncode == 1, parallel.stdout + parallel.stderr
    assert "1 failed" in parallel.stdout and "'named'" not in parallel.stdout, parallel.stdout
    assert "SharedCPUError: timing claim 'hidden' refused" in parallel.stdout, parallel.stdout
    assert "@pytest.mark.timing" in parallel.stdout
    alone = run_pytest(tmp_path, "-q")  # the same two, one at a time in one process: they pass
    assert alone.returncode == 0 and "2 passed" in alone.stdout, alone.stdout + alone.stderr


def test_one_worker_runs_a_docs_page_or_a_site_page_together():
    group_of = root_conftest().group_of
    urls = ["course/why-compile/notebook/", "course/why-compile/", "404.html", "home"]
    assert group_of("docs/course/loops.md::line:12,column:1", urls) == "docs/course/loops.md"
    browser = "tests/browser/test_pages.py::"
    assert group_of(browser + "test_axe[course/why-compile/-dark]", urls) == (
        "site page course/why-compile/"
    )
    assert group_of(browser + "test_heights[360-course/why-compile/notebook/]", urls) == (
        "site page course/why-compile/notebook/"
    )
    assert group_of(browser + "test_clean[home]", urls) == "site page home"
    alone = [browser + "test_clean[course/loops/]", "tests/test_run.py::test_x[a-b]"]
    assert [group_of(nodeid, urls) for nodeid in alone] == alone


def test_collection_is_frozen_but_what_a_test_makes_is_found_by_referrers():
    """conftest.py freezes what collection made (cheaper garbage collections); a leak check
    looks for what holds a tracer among objects made later, which stay visible."""
    assert gc.get_freeze_count() > 10_000  # every collected item, every parsed page
    made_here = Exception("a stand-in for a tracer")
    holder = [made_here]
    assert any(referrer is holder for referrer in gc.get_referrers(made_here))
