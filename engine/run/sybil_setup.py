"""Sybil set-up: every runnable block of every page under docs/ is a test.

Blocks are found by ``engine.page.markers`` and run by ``engine.run.execute``, exactly as the
build does:
in page order, one namespace per page, with the same marker contracts. The root ``conftest.py``
hands ``pytest_collect_file`` to pytest.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sybil import Document, Region, Sybil

from engine.page.model import ROOT
from engine.page.parser import parse_page
from engine.page.syntax import line_starts, split_front_matter
from engine.run.execute import BlockFailure, execute_block, leftover_message, new_namespace
from engine.run.isolation import restore_state, snapshot_state

STATE_KEY = "__jitdocs_state__"


def parse_blocks(document: Document):
    body, offset = split_front_matter(document.text)
    shift = len(document.text) - len(body)
    page = parse_page(Path(document.path).resolve().relative_to(ROOT).as_posix(), body, offset)
    starts = line_starts(document.text)
    for block in page.blocks:
        # The test id names the line the failure message names: the fence's (or directive's).
        start = max(block.start + shift, starts[block.line - 1])
        yield Region(start, block.end + shift, parsed=block, evaluator=evaluate)


def evaluate(example) -> None:
    block = example.parsed
    if block.skip:
        pytest.skip(f"{block.where}: {block.skip}")
    try:
        outcome = execute_block(block, example.namespace)
    except BlockFailure as error:
        failure = str(error)
    else:
        if not outcome.stopped:
            return
        failure = leftover_message(block.where, outcome.stopped)  # as `nox -s docs` (strict) fails
    pytest.fail(failure, pytrace=False)  # outside the except: no "during handling" second report


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
