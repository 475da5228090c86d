"""Execute pages for the build: one child process per page, results cached on disk
(``engine.run.cache``).
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import json
import logging
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from engine.page.model import ROOT, SNIPPETS, Page
from engine.run import results, terminal
from engine.run.cache import (
    CACHE_DIR,
    _digest,
    _version,
    code_key,
    entry_path,
    environment_fingerprint,
    load_cached,
    store,
)
from engine.run.execute import TIMEOUT_ADVICE, leftover_message
from engine.run.results import Failure, Outcome, PageResult

STARTUP_SECONDS = 120.0  # importing JAX and running the prelude


KILL_GRACE_SECONDS = 30.0  # the child stops a slow block itself; this catches hangs in C code


STDERR_LINES = 200  # the page's stderr the parent keeps (for a crash report), at most


log = logging.getLogger("mkdocs.jitdocs")


class PageFailure(Exception):
    """A page's code failed: ``failure`` says how; the message names the page, file and line."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure

    @property
    def timing_claims(self) -> list[dict]:
        return self.failure.timing_claims


def child_environment() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # makes `import jax` ~3x slower in a fresh venv
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(SNIPPETS)])
    env["MPLBACKEND"] = "Agg"
    env.setdefault("PYTHONHASHSEED", "0")
    return env


def run_page(page: Page) -> PageResult:
    """Execute the page's blocks in a fresh interpreter; raise PageFailure on any broken block."""
    started = time.perf_counter()
    request = {"blocks": [dataclasses.asdict(block) for block in page.blocks]}
    scratch = tempfile.mkdtemp(prefix="jitdocs-page-")  # the page's tempfile.gettempdir()
    child = subprocess.Popen(
        [sys.executable, "-m", "engine.run.child"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**child_environment(), "TMPDIR": scratch},
        text=True,
        encoding="utf-8",
        errors="backslashreplace",
        start_new_session=True,  # the page's processes: its own session and process group
    )
    lines: queue.Queue = queue.Queue()
    stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
    threading.Thread(target=_pump, args=(child.stdout, lines), daemon=True).start()
    threading.Thread(target=_pump, args=(child.stderr, stderr), daemon=True).start()
    child.stdin.write(json.dumps(request))
    child.stdin.close()
    where = page.path
    try:
        outcomes, env = _follow(page, child, lines, stderr)
    except PageFailure as error:
        where = error.failure.where
        raise
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        stopped = stop_session(child.pid)
        shutil.rmtree(scratch, ignore_errors=True)
        if stopped:
            log.warning("jitdocs: %s", leftover_message(where, stopped))
    return PageResult(outcomes, env, cached=False, seconds=time.perf_counter() - started)


def stop_session(session: int) -> list[str]:
    """End what is left of a page's session once its runner has ended (a block that timed out or
    crashed could not stop its own processes). Without /proc, kill its process group instead."""
    if terminal.PROC.is_dir():
        return terminal.stop_all(lambda: terminal.live(session=session))
    with contextlib.suppress(OSError, AttributeError):  # no group left; no groups on Windows
        os.killpg(session, signal.SIGKILL)
    return []


def _pump(stream, sink) -> None:
    for line in stream:
        sink.put(line) if isinstance(sink, queue.Queue) else sink.append(line)
    if isinstance(sink, queue.Queue):
        sink.put(None)


def _follow(page: Page, child, lines: queue.Queue, stderr) -> tuple[list[Outcome], dict]:
    outcomes: list[Outcome] = []
    current, limit = None, STARTUP_SECONDS
    deadline = time.monotonic() + limit
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            summary = f"block did not finish within {limit:g} s and was stopped"
            raise _page_failure(page, current, results.TIMEOUT, summary, TIMEOUT_ADVICE) from None
        if line is None:
            child.wait()
            tail = "".join(list(stderr)[-20:]).rstrip()
            summary = f"the page's process exited ({child.returncode}) before finishing"
            raise _page_failure(page, current, results.CRASH, summary, f":\n{tail}")
        message = json.loads(line)
        event = message["event"]
        if event == "start":
            current = message["index"]
            limit = page.blocks[current].timeout + KILL_GRACE_SECONDS
            deadline = time.monotonic() + limit
        elif event == "done":
            outcomes.append(Outcome.from_dict(message["outcome"]))
        elif event == "failed":
            raise PageFailure(Failure.from_dict(message["failure"]))
        elif event == "environment":
            return outcomes, message["environment"]


def _page_failure(page: Page, index: int | None, kind: str, summary: str, tail: str):
    """A failure the parent detects: the block that was running (if any) is named."""
    block = page.blocks[index] if index is not None else None
    failure = Failure(kind, page.path, block.line if block else None, index, summary=summary)
    failure.message = f"{failure.where}: {summary}{tail}"
    return PageFailure(failure)


def execute_pages(
    pages: list[Page],
    fresh: bool = False,
    cache_dir: Path = CACHE_DIR,
    report=log.info,
    on_failure=None,
) -> dict[str, PageResult]:
    """Run (or load from the cache) every page, printing one progress line per page.

    A failing page raises PageFailure, or, given ``on_failure(page, error)`` (the preview), is
    reported there and left out of the results while the other pages go on.
    """
    fingerprint = environment_fingerprint()
    results = {}
    width = max((len(page.path) for page in pages), default=0)
    for page in pages:
        code = code_key(page)
        key = _digest({"code": code, "environment": fingerprint})
        result = None if fresh else load_cached(page, key, cache_dir)
        if result is None and not page.blocks:
            result = PageResult([], {}, cached=True)  # nothing to run, nothing to cache
        if result is None:
            try:
                result = run_page(page)
            except PageFailure as error:
                error.failure.message += last_pass_hint(page, code, cache_dir)
                failure = PageFailure(error.failure)
                if on_failure is None:
                    raise failure from None
                on_failure(page, failure)
                continue
            store(page, key, result, cache_dir, code)
        for block, outcome in zip(page.blocks, result.outcomes, strict=False):
            if outcome.stopped:  # said again from the cache: --strict fails until it is fixed
                log.warning("jitdocs: %s", leftover_message(block.where, outcome.stopped))
        status = "no code" if not page.blocks else "cached" if result.cached else "executed"
        seconds = 0.0 if result.cached else result.seconds
        report(
            f"jitdocs: {page.path:<{width}} {len(page.blocks):3d} blocks  {status:<8} "
            f"{seconds:6.1f} s"
        )
        results[page.path] = result
    summary = timing_summary(results)
    if summary:
        report(summary)
    return results


def last_pass_hint(page: Page, code: str, cache_dir: Path) -> str:
    """What the page's last passing run (its cache entry) says about this failure."""
    try:
        entry = json.loads(entry_path(page, cache_dir).read_text(encoding="utf-8"))
        passed_with = entry["result"]["environment"]
    except (OSError, ValueError, KeyError, TypeError):
        return ""
    if entry.get("code") != code:
        return ""  # the code changed since it last passed: look there first
    now = {"jax": _version("jax"), "jaxlib": _version("jaxlib")}
    before = {"jax": passed_with.get("jax"), "jaxlib": passed_with.get("jaxlib")}
    if before != now:
        return (
            f"\nThe page's code is unchanged since it last passed, with jax {before['jax']} "
            f"and jaxlib {before['jaxlib']}: JAX's behaviour may have changed."
        )
    return (
        "\nThe same code passed before with this JAX: the claim may depend on timing or load "
        "(`nox -s stress` measures its margin)."
    )


def claim_margin(claim: dict) -> float:
    """Measured / required for a lower bound, required / measured for an upper one; the smaller."""
    margins = []
    if claim.get("at_least") is not None:
        margins.append(claim["measured"] / claim["at_least"])
    if claim.get("at_most") is not None:
        margins.append(claim["at_most"] / claim["measured"] if claim["measured"] else float("inf"))
    return min(margins)


def timing_summary(results: dict[str, PageResult]) -> str | None:
    """One line naming the thinnest timing claim, so a shrinking margin shows on every build."""
    claims = [
        claim
        for result in results.values()
        for outcome in result.outcomes
        for claim in outcome.timing_claims
    ]
    if not claims:
        return None
    thinnest = min(claims, key=claim_margin)
    return (
        f"jitdocs: timing claims: {len(claims)}, smallest margin {claim_margin(thinnest):.1f}x "
        f"at {thinnest['where']} ({thinnest['label']}: measured {thinnest['measured']:.2f}x)"
    )
