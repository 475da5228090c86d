"""Sybil set-up: every runnable block of every page under docs/ is a test, parsed and run as the
build does (page order, one namespace per page), or reporting the build's run of it
(``engine.run.record``; the root ``conftest.py`` calls ``use_record``). A page that starts JAX's
backend its own way reports a run of it in a process of its own (``starts_its_own_backend``).
"""

from __future__ import annotations

import functools
import logging
import re
import warnings
from pathlib import Path

import pytest
from sybil import Document, Region, Sybil

from engine.page.model import ROOT, Page
from engine.page.parser import parse_page, split_front_matter
from engine.page.syntax import line_starts
from engine.run import record
from engine.run.cache import code_key
from engine.run.execute import execute_block, leftover_message, new_namespace
from engine.run.pages import run_page
from engine.run.results import PageFailure

STATE_KEY = "__jitdocs_state__"
_record: dict = {}  # (page, code key) -> its blocks' runs in the build, from use_record()
_own_runs: dict = {}  # (page, code key) -> its blocks' runs in a process of its own
# An option JAX reads once, when its backend starts at the first computation: set by a page's
# first block (jax_num_cpu_devices, several CPU devices), it needs a process whose backend has
# not started yet, as the build gives each page. The test process runs every page in one.
BACKEND_OPTION = re.compile(r"""jax\.config\.update\(\s*["'](jax_num_cpu_devices)["']""")


def use_record(source: Path | None) -> None:
    """Report the build's runs of the pages in ``source`` (None: run every example here)."""
    _record.clear()
    _record.update(record.read(source))


def recorded_runs(page: Page) -> dict[int, record.BlockRun] | None:
    """The build's run of this very code of the page, block by block, if it made one."""
    return _record.get((page.path, code_key(page))) if _record else None


def parse_blocks(document: Document):
    body, offset = split_front_matter(document.text)
    shift = len(document.text) - len(body)
    page = parse_page(Path(document.path).resolve().relative_to(ROOT).as_posix(), body, offset)
    starts = line_starts(document.text)
    runs = recorded_runs(page)
    if runs is not None:
        check = functools.partial(report_build_run, runs)
    elif starts_its_own_backend(page):
        check = functools.partial(report_own_run, page)
    else:
        check = evaluate
    for block in page.blocks:
        # The test id names the line the failure message names: the fence's (or directive's).
        start = max(block.start + shift, starts[block.line - 1])
        yield Region(start, block.end + shift, parsed=block, evaluator=check)


def skip_if_marked(block):
    """A block the page marks to skip is reported as skipped, with the page's reason."""
    if block.skip:
        pytest.skip(f"{block.where}: {block.skip}")
    return block


def report_build_run(runs: dict[int, record.BlockRun], example) -> None:
    """Pass, fail or skip as the block did in the build's run of its page."""
    block = skip_if_marked(example.parsed)
    run = runs[block.line]
    if run.status == record.FAILED:
        pytest.fail(run.message, pytrace=False)
    if run.status == record.NOT_RUN:
        pytest.skip(run.message)


def starts_its_own_backend(page: Page) -> bool:
    """Does the page's first block set an option JAX reads only as its backend starts?"""
    return bool(page.blocks) and BACKEND_OPTION.search(page.blocks[0].source) is not None


def own_process_runs(page: Page) -> dict[int, record.BlockRun]:
    """The page run once, as the build runs it, in a process of its own; block by block."""
    key = (page.path, code_key(page))
    if key not in _own_runs:
        try:
            runs = record.passed_runs(page, run_page(page))
        except PageFailure as error:
            runs = record.failed_runs(page, error.failure)
        _own_runs[key] = {run.line: run for run in runs}
    return _own_runs[key]


def report_own_run(page: Page, example) -> None:
    """Pass, fail or skip as the block did in the page's run in a process of its own."""
    report_build_run(own_process_runs(page), example)


def evaluate(example) -> None:
    block = skip_if_marked(example.parsed)
    try:
        outcome = execute_block(block, example.namespace)
    except PageFailure as error:
        failure = str(error)
    else:
        if not outcome.stopped:
            return
        failure = leftover_message(block.where, outcome.stopped)  # as `nox -s docs` (strict) fails
    pytest.fail(failure, pytrace=False)  # outside the except: no "during handling" second report


def snapshot_state() -> dict:
    """What a page may change globally: JAX's config, matplotlib's rcParams, the jax logger. The
    build has a process per page; the tests run every page in one, so they restore it after each."""
    import jax
    import matplotlib

    jax_logger = logging.getLogger("jax")
    return {
        "jax": dict(jax.config.values),
        "rc": dict(matplotlib.rcParams),
        "logger": (jax_logger.level, jax_logger.propagate, list(jax_logger.handlers)),
    }


def restore_state(state: dict) -> None:
    import jax
    import matplotlib
    import matplotlib.pyplot as plt

    for name, value in state["jax"].items():
        if jax.config.values.get(name) != value:
            jax.config.update(name, value)
    plt.close("all")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rcParams includes deprecated keys
        matplotlib.rcParams.update(state["rc"])
    jax_logger = logging.getLogger("jax")
    jax_logger.level, jax_logger.propagate, jax_logger.handlers[:] = state["logger"]


def setup(namespace: dict) -> None:
    import jax

    # Start each page with empty compile caches, as the build's fresh process per page does:
    # a page that counts compilations must not see kernels an earlier page already compiled.
    jax.clear_caches()
    namespace.update(new_namespace())
    namespace[STATE_KEY] = snapshot_state()


def teardown(namespace: dict) -> None:
    restore_state(namespace[STATE_KEY])


docs = Sybil(
    parsers=[parse_blocks],
    patterns=["*.md"],
    path=str(ROOT / "docs"),
    setup=setup,
    teardown=teardown,
)
