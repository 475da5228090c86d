"""The build's run of each page, block by block, for its examples' tests to report instead of
running the code again (CONTRIBUTING.md, "Tests and pages that measure time run alone")."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple

from engine.page.model import Page
from engine.run.execute import leftover_message
from engine.run.results import NOT_RUN, Failure, PageResult

RECORD_VARIABLE = "JITDOCS_RUN_RECORD"  # the file, named by `nox -s tests` for its build
PASSED, FAILED = "passed", "failed"


class BlockRun(NamedTuple):
    line: int  # the block's page line
    status: str  # PASSED, FAILED or NOT_RUN
    message: str = ""  # what the build said: the failure, or why the block did not run


def record_file() -> Path | None:
    named = os.environ.get(RECORD_VARIABLE)
    return Path(named) if named else None


def write(destination: Path, page: Page, code: str, runs: list[BlockRun]) -> None:
    """Append the page's run (``passed_runs`` or ``failed_runs``), for its code key ``code``."""
    line = {"page": page.path, "code": code, "blocks": [run._asdict() for run in runs]}
    with destination.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")


def passed_runs(page: Page, result: PageResult) -> list[BlockRun]:
    """Every block ran; one that left processes running still fails, as the strict build does."""
    return [
        BlockRun(block.line, FAILED, leftover_message(block.where, outcome.stopped))
        if outcome.stopped
        else BlockRun(block.line, PASSED)
        for block, outcome in zip(page.blocks, result.outcomes, strict=True)
    ]


def failed_runs(page: Page, failure: Failure) -> list[BlockRun]:
    """The blocks before the failing one passed; the ones after it never ran. A failure of the
    page as a whole (its process died before a block started) is its first block's."""
    failed_at = failure.index or 0
    after = f"not run: the page stopped at {page.blocks[failed_at].where}, which failed"
    return [
        BlockRun(block.line, PASSED)
        if index < failed_at
        else BlockRun(block.line, FAILED, failure.message)
        if index == failed_at
        else BlockRun(block.line, NOT_RUN, after)
        for index, block in enumerate(page.blocks)
    ]


def read(source: Path | None) -> dict[tuple[str, str], dict[int, BlockRun]]:
    """(page, code key) -> each block's run, by page line; the last record of a page wins."""
    if source is None or not source.exists():
        return {}
    runs = {}
    for text in source.read_text(encoding="utf-8").splitlines():
        entry = json.loads(text)
        blocks = [BlockRun(**block) for block in entry["blocks"]]
        runs[entry["page"], entry["code"]] = {run.line: run for run in blocks}
    return runs
