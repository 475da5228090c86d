"""Execute pages for the build: a child process per page, results cached (``engine.run.cache``)."""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import json
import os
import pickle
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from engine.page.model import ROOT, SNIPPETS, Page
from engine.run import record, terminal, zygote
from engine.run.cache import (
    CACHE_DIR,
    cache_key,
    code_key,
    engine_text,
    last_entry,
    load_cached,
    store,
    timing_beside,
)
from engine.run.environment import environment_fingerprint, installed_version
from engine.run.execute import TIMEOUT_ADVICE, leftover_message
from engine.run.files import log
from engine.run.parallel import Sessions, run_jobs, usable_cpus
from engine.run.results import Failure, Kind, Outcome, PageFailure, PageResult
from engine.run.timing import SHARED_CPU_VARIABLE, measures_time
from engine.run.watch import ProjectWatch

STARTUP_SECONDS = 120.0  # importing JAX and running the prelude
KILL_GRACE_SECONDS = 30.0  # the child stops a slow block itself; this catches hangs in C code
STDERR_LINES = 20  # the last lines of the page's stderr, kept for a crash report
# What differs from one page run to the next (its scratch folder, whether it has company, the test
# that runs it): set in the forked page, so that one warm process serves them all.
PER_RUN = ("TMPDIR", SHARED_CPU_VARIABLE, "PYTEST_CURRENT_TEST")


class ProjectChanged(PageFailure):
    """A page changes the project's files through something the write guard in the block could
    not see (a process the page started, C code): ``engine.run.watch`` found which."""


def child_variables() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # makes `import jax` ~3x slower in a fresh venv
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(SNIPPETS)])
    env["MPLBACKEND"] = "Agg"
    env.setdefault("PYTHONHASHSEED", "0")
    return env


def run_page(
    page: Page, shared_cpu: str = "", watch=None, project: Path = ROOT, failures: list | None = None
) -> PageResult:
    """Execute the page's blocks in a process of its own; raise PageFailure on any broken block.

    ``shared_cpu`` (set as SHARED_CPU_VARIABLE) says what runs beside the page: a timing claim
    then fails. ``watch(child)``, a context manager, is told the child process while it runs.
    Python-level writes under ``project`` fail in the block that makes them (``engine.run.guard``).
    With a ``failures`` list, a failed block is added to it, its outcome is None, and the page
    goes on (a timeout or crash still stops it): one process per page on a device that admits one.
    """
    started = time.perf_counter()
    beside = {SHARED_CPU_VARIABLE: shared_cpu} if shared_cpu else {}
    scratch = tempfile.mkdtemp(prefix="jitdocs-page-")  # the page's tempfile.gettempdir()
    child = start_child(project, {**child_variables(), "TMPDIR": scratch, **beside})
    lines: queue.Queue = queue.Queue()
    stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES)
    threading.Thread(target=_pump, args=(child.stdout, lines), daemon=True).start()
    threading.Thread(target=_pump, args=(child.stderr, stderr), daemon=True).start()
    request = {"blocks": page.blocks, "project": project, "keep_going": failures is not None}
    child.stdin.buffer.write(pickle.dumps(request))
    child.stdin.close()
    where = page.path
    try:
        with watch(child) if watch else contextlib.nullcontext():
            outcomes, env = _follow(page, child, lines, stderr, failures)
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


def start_child(project: Path, env: dict):
    """The page's process (``engine.run.child``), in ``project`` (page code runs in the project
    it is built for), leading its own session and process group: forked from a warm process
    where one can be (``engine.run.zygote``), else started afresh."""
    forked = zygote.start(project, env, per_run=PER_RUN)
    if forked:
        return forked
    return subprocess.Popen(
        [sys.executable, "-m", "engine.run.child"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=project,
        env=env,
        encoding="utf-8",
        errors="backslashreplace",
        start_new_session=True,
    )


def stop_session(session: int) -> list[str]:
    """End what is left of a page's session once its runner has ended (a block that timed out or
    crashed could not stop its own processes). Without /proc, kill its process group instead."""
    if terminal.PROC.is_dir():
        return terminal.stop_all(lambda: terminal.live(session=session))
    terminal.kill_group(session)  # a page's session is also its process group
    return []


def _pump(stream, sink) -> None:
    with stream:  # left open, a pipe warns when collected, into whatever code runs then
        for line in stream:
            sink.put(line) if isinstance(sink, queue.Queue) else sink.append(line)
    if isinstance(sink, queue.Queue):
        sink.put(None)


def _follow(
    page: Page, child, lines: queue.Queue, stderr, failures: list | None = None
) -> tuple[list[Outcome | None], dict]:
    outcomes: list[Outcome] = []
    current, limit = None, STARTUP_SECONDS
    deadline = time.monotonic() + limit
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            summary = f"block did not finish within {limit:g} s and was stopped"
            raise _page_failure(page, current, Kind.TIMEOUT, summary, TIMEOUT_ADVICE) from None
        if line is None:
            child.wait()
            tail = "".join(stderr).rstrip()
            summary = f"the page's process exited ({child.returncode}) before finishing"
            raise _page_failure(page, current, Kind.CRASH, summary, f":\n{tail}")
        message = json.loads(line)
        event = message["event"]
        if event == "start":
            current = message["index"]
            limit = page.blocks[current].timeout + KILL_GRACE_SECONDS
            deadline = time.monotonic() + limit
        elif event == "done":
            outcomes.append(Outcome.from_dict(message["outcome"]))
        elif event == "failed":
            if failures is None:
                raise PageFailure(Failure.from_dict(message["failure"]))
            failures.append(Failure.from_dict(message["failure"]))
            outcomes.append(None)
        elif event == "environment":
            return outcomes, message["environment"]


def _page_failure(page: Page, index: int | None, kind: str, summary: str, tail: str):
    """A failure the parent detects: the block that was running (if any) is named."""
    block = page.blocks[index] if index is not None else None
    failure = Failure(kind, page.path, block.line if block else None, index, summary=summary)
    failure.message = f"{failure.where}: {summary}{tail}"
    return PageFailure(failure)


# Said to a page that runs beside others (SHARED_CPU_VARIABLE): a timing claim then fails.
SIDE_BY_SIDE = "the build runs pages side by side"

SECONDS_PER_BLOCK = 0.15  # a page never run: the cache holds 54 s over 376 blocks (issue #28)


@dataclasses.dataclass(eq=False)
class _Plan:
    """One page of a build: its place in page order, its cache key, its result once known."""

    order: int
    page: Page
    code: str
    key: str
    result: PageResult | None = None


def execute_pages(
    pages: list[Page],
    fresh: bool = False,
    cache_dir: Path = CACHE_DIR,
    report=log.info,
    on_failure=None,
    workers: int | None = None,
    record_to: Path | None = None,
    project: Path = ROOT,
    preview: bool = False,
) -> dict[str, PageResult]:
    """Run (or load from the cache) every page, one progress line each.

    Pages with a timing claim run first, one at a time; the others then side by side,
    ``workers`` at a time (default: the usable CPUs), longest first. Under ``timing_beside()``
    (the test suite's build) the timing pages join the others, and are not told they have company:
    `nox -s stress` holds their claims to a margin with a CPU-bound process on every core, more
    than a page beside them, and these runs serve no published site. A failing page raises
    PageFailure (the earliest in page order), or goes to ``on_failure(page, error)`` (the
    preview) while the others go on. ``record_to``: see ``engine.run.record``. A change to
    ``project``'s files while pages ran raises ProjectChanged when a page that ran then makes it
    again (``engine.run.watch``), else it is the user's: reported, and kept. Under ``preview``
    (``mkdocs serve``) it is the user's save: reported in one line, the page shown but not kept.
    """
    width = max((len(p.path) for p in pages), default=0)
    build = _Build(cache_dir, report, on_failure, width, record_to, preview)
    fingerprint = environment_fingerprint()
    zygote.modules_from({"installed": fingerprint, "engine": engine_text()})
    plans = [build.plan(order, page, fingerprint, fresh) for order, page in enumerate(pages)]
    pending = [plan for plan in plans if plan.result is None]
    build.watch = ProjectWatch(project, cache_dir) if pending else None
    timed = [plan for plan in pending if measures_time(plan.page)]
    alone = [] if timing_beside() else timed
    beside = [plan for plan in pending if plan not in alone]
    beside.sort(key=lambda plan: expected_seconds(plan.page, cache_dir), reverse=True)
    build.run(alone, workers=1, shared_cpu="")
    build.run(beside, workers=workers or usable_cpus(), shared_cpu=SIDE_BY_SIDE, timed=timed)
    if build.watch and build.watch.changes and not preview:
        build.judge()
    if build.failures:  # the earliest in page order, as a serial build would raise
        raise build.failures[min(build.failures)] from None
    results = {plan.page.path: plan.result for plan in plans if plan.result is not None}
    if summary := timing_summary(results):
        report(summary)
    return results


def expected_seconds(page: Page, cache_dir: Path) -> float:
    """How long the page ran last time (its cache entry, even a stale one), else a guess from
    its block count: the build starts the longest first, so no page ends up running alone."""
    try:
        return float(last_entry(page, cache_dir)["result"]["seconds"])
    except (ValueError, KeyError, TypeError):
        return SECONDS_PER_BLOCK * len(page.blocks)


class _Build:
    """One execute_pages call: what it reports, stores and raises."""

    def __init__(self, cache_dir: Path, report, on_failure, width: int, record_to, preview):
        self.cache_dir, self.report, self.on_failure = cache_dir, report, on_failure
        self.record_to = record_to  # engine.run.record: what each page run here did
        self.width = width  # of the page column in the progress lines
        self.preview = preview  # `mkdocs serve`: a change to the project is the user's
        self.sessions = Sessions()  # shared by both phases: a failure stops the later pages
        self.failures: dict[int, PageFailure] = {}
        self.watch: ProjectWatch | None = None  # made when a page has to run
        # Passing runs that ended after the project changed: cached once the change is the user's.
        self.held: list[tuple[_Plan, PageResult, bool]] = []
        self.ran: dict[str, Page] = {}

    def plan(self, order: int, page: Page, fingerprint: dict, fresh: bool) -> _Plan:
        """The page's plan; a page the cache answers (or with no code) is reported at once."""
        code = code_key(page)
        plan = _Plan(order, page, code, cache_key(page, fingerprint, code))
        cached = None if fresh else load_cached(page, plan.key, self.cache_dir)
        if cached is None and not page.blocks:
            cached = PageResult([], {}, cached=True)  # nothing to run, nothing to cache
        if cached is not None:
            self.finish(plan, cached)
        return plan

    def run(self, plans: list[_Plan], workers: int, shared_cpu: str, timed=()) -> None:
        """``timed``: the plans among them that measure time, run beside others all the same."""

        def run_one(plan: _Plan, watch) -> PageResult:
            self.ran[plan.page.path] = plan.page
            self.watch.started(plan.page)
            project = self.watch.tree.project
            told = "" if plan in timed else shared_cpu
            return run_page(plan.page, shared_cpu=told, watch=watch, project=project)

        stop = self.on_failure is None
        for plan, result, error in run_jobs(plans, run_one, workers, stop, self.sessions):
            changed = self.watch.ended(plan.page)
            if changed and self.preview:
                self.report(f"jitdocs: {plan.page.path}: {changed.summary}; {NOT_KEPT}")
            if not isinstance(error, PageFailure | None):
                raise error
            if error is not None:
                self.failed(plan, error)
                continue
            beside = plan in timed and workers > 1
            if self.watch.changes and not self.preview:
                self.held.append((plan, result, beside))  # until judge() says whose change
            elif not changed:
                store(plan.page, plan.key, result, self.cache_dir, plan.code, beside)
            self.finish(plan, result)

    def judge(self) -> None:
        """The project changed while pages ran: raise ProjectChanged if a page that ran then
        changes it again, run alone; else report the user's change, and cache the runs held back
        whose code is still what they ran."""

        def rerun(path: str) -> None:
            self.report(
                f"jitdocs: {path}: the project changed while it ran; running it again alone"
            )
            with contextlib.suppress(PageFailure):  # only what it changes counts here
                run_page(self.ran[path], project=self.watch.tree.project)

        if failure := self.watch.judge(rerun):
            raise ProjectChanged(failure)
        self.report(self.watch.users_edit())
        for plan, result, beside in self.held:
            if code_key(plan.page) == plan.code:  # else it ran code read after the change
                store(plan.page, plan.key, result, self.cache_dir, plan.code, beside)

    def failed(self, plan: _Plan, error: PageFailure) -> None:
        error.failure.message += last_pass_hint(plan.page, plan.code, self.cache_dir)
        failure = PageFailure(error.failure)
        if self.record_to:
            runs = record.failed_runs(plan.page, failure.failure)
            record.write(self.record_to, plan.page, plan.code, runs)
        if self.on_failure is None:
            self.failures[plan.order] = failure
        else:
            self.on_failure(plan.page, failure)

    def finish(self, plan: _Plan, result: PageResult) -> None:
        page, plan.result = plan.page, result
        if self.record_to:  # a cached result is a run of this code in this environment
            record.write(self.record_to, page, plan.code, record.passed_runs(page, result))
        for block, outcome in zip(page.blocks, result.outcomes, strict=False):
            if outcome.stopped:  # said again from the cache: --strict fails until it is fixed
                log.warning("jitdocs: %s", leftover_message(block.where, outcome.stopped))
        status = "no code" if not page.blocks else "cached" if result.cached else "executed"
        seconds = 0.0 if result.cached else result.seconds
        self.report(
            f"jitdocs: {page.path:<{self.width}} {len(page.blocks):3d} blocks  {status:<8} "
            f"{seconds:6.1f} s"
        )


NOT_KEPT = "shown but not kept: the next build runs it again (a strict build stops here)"


def last_pass_hint(page: Page, code: str, cache_dir: Path) -> str:
    """What the page's last passing run (its cache entry) says about this failure."""
    entry = last_entry(page, cache_dir)
    try:
        passed_with = entry["result"]["environment"]
    except (KeyError, TypeError):
        return ""
    if entry.get("code") != code:
        return ""  # the code changed since it last passed: look there first
    now = {"jax": installed_version("jax"), "jaxlib": installed_version("jaxlib")}
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


def timing_summary(results: dict[str, PageResult]) -> str | None:
    """One line naming the thinnest timing claim, so a shrinking margin shows on every build."""
    outcomes = [outcome for result in results.values() for outcome in result.outcomes]
    claims = [claim for outcome in outcomes for claim in outcome.timing_claims]
    if not claims:
        return None
    thinnest = min(claims, key=lambda claim: claim["margin"])
    return (
        f"jitdocs: timing claims: {len(claims)}, smallest margin {thinnest['margin']:.1f}x "
        f"at {thinnest['where']} ({thinnest['label']}: measured {thinnest['measured']:.2f}x)"
    )
