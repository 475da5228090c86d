"""Who changed the project while pages ran: a page (through a process it started, or C code,
which the write guard cannot see) or the user (an editor's save, a `git checkout`).

After each page, the guard's ``Tree`` says what changed since the last look. The pages that ran
when a file changed (its change time within their run, give or take ``SLACK_NS``) are suspects;
once every page has run, each suspect runs again alone: one that changes the project again made
the change. A change that no page was running for, or that no suspect makes again, is the user's:
it is kept, and the next build builds it. No message here offers a command that writes a file:
what a file held before the build is copied aside and shown with `diff`, never copied back.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import shlex
import threading
import time
from collections.abc import Callable
from pathlib import Path

from engine.page.model import Page
from engine.run.guard import Tree, how
from engine.run.results import Failure, Kind

SLACK_NS = 500_000_000  # a file's time lags the clock by a tick; a page's start is taken late
COARSE_SLACK_NS = 2_000_000_000  # a file system that keeps whole seconds (or two: FAT)


def listing(files: dict[str, str]) -> str:
    return ", ".join(f"{name} ({kind})" for name, kind in files.items())


@dataclasses.dataclass
class Change:
    """What changed between two looks, and the pages that ran when it changed (start order)."""

    files: dict[str, str]  # file -> "changed", "removed" or "added"
    suspects: list[str]

    @property
    def summary(self) -> str:
        return f"the project changed while the page ran: {listing(self.files)}"


class ProjectWatch:
    """The project's files after each page, against the last look; who ran when they changed."""

    def __init__(self, project: Path, cache_dir: Path) -> None:
        self.tree = Tree(project)
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        self.backup = cache_dir / "changed-by-pages" / stamp  # one folder a build: none is reused
        self._lock = threading.Lock()
        self._runs: dict[str, list[int | None]] = {}  # page -> [start, end] (wall clock, ns)
        self._last_look = time.time_ns()
        self.changes: list[Change] = []
        self.saved: dict[str, Path] = {}  # file -> its bytes from before the build

    def started(self, page: Page) -> None:
        with self._lock:
            self._runs[page.path] = [time.time_ns(), None]

    def ended(self, page: Page) -> Change | None:
        """After ``page`` ran: what changed since the last look (then the new state to compare
        with), with the pages that ran when it changed."""
        now = time.time_ns()
        with self._lock:
            self._runs[page.path][1] = now
        since, self._last_look = self._last_look, now
        files = self.tree.changes()
        if not files:
            return None
        spans = [self._span(name, kind, since, now) for name, kind in files.items()]
        with self._lock:
            runs = list(self._runs.items())
        suspects = [
            path
            for path, (start, end) in runs
            if any(start <= last and (end or now) >= first for first, last in spans)
        ]
        change = Change(files, suspects)
        self.changes.append(change)
        # The first copy of a file is what it held before the build: a later change keeps it.
        fresh = {name: kind for name, kind in files.items() if name not in self.saved}
        self.saved.update(self.tree.save_originals(fresh, self.backup))
        self.tree.rebase()
        return change

    def _span(self, name: str, kind: str, since: int, now: int) -> tuple[int, int]:
        """When ``name`` changed: its change time (which no program can set), give or take the
        slack; a removed file, any time since the last look."""
        try:
            changed = os.stat(self.tree.project / name).st_ctime_ns if kind != "removed" else None
        except OSError:
            changed = None
        if changed is None:
            return since - SLACK_NS, now + SLACK_NS
        slack = COARSE_SLACK_NS if changed % 1_000_000_000 == 0 else SLACK_NS
        return changed - slack, changed + slack

    def suspects(self) -> list[str]:
        return list(dict.fromkeys(path for change in self.changes for path in change.suspects))

    def judge(self, rerun: Callable[[str], object]) -> Failure | None:
        """Run each suspect again alone (``rerun(page)``): the first that changes a file (even
        to the same bytes) is the page that changes the project, and its failure is returned.
        None: no page did; the changes were the user's (``users_edit`` says so)."""
        for path in self.suspects():
            before = self.tree.stamps()
            rerun(path)
            after = self.tree.stamps()
            names = sorted(before.keys() | after.keys())
            touched = {
                name: how(before.get(name), after.get(name))
                for name in names
                if before.get(name) != after.get(name)
            }
            if touched:
                return self.page_failure(path, touched)
        return None

    def page_failure(self, page: str, touched: dict[str, str]) -> Failure:
        summary = f"the page changes the project: {listing(touched)}"
        failure = Failure(Kind.PROJECT, page, summary=summary)
        during = "; ".join(listing(change.files) for change in self.changes)
        project = self.tree.project
        shown = [
            f"    diff -u {shlex.quote(os.path.relpath(copy, project))} {shlex.quote(name)}"
            for name, copy in self.saved.items()
        ]
        failure.message = (
            f"{page}: {summary} (it ran again alone after the other pages, and changed them "
            f"again; while the pages ran, these changed: {during}). Python writes into the "
            "project fail at their line; these came from elsewhere (a process the page started, "
            "or C code): page code writes scratch files under tempfile.gettempdir(). The page's "
            "result is not cached."
        )
        if shown:
            failure.message += (
                f" What the changed files held before the build is copied under {self.backup}; "
                f"to see what changed, run in {project}:\n" + "\n".join(shown)
            )
        return failure

    def users_edit(self) -> str:
        """The report for changes that no page made: they are the user's, and kept."""
        files = {name: kind for change in self.changes for name, kind in change.files.items()}
        suspects = self.suspects()
        why = (
            f"{', '.join(suspects)}, which ran then, changed nothing when run again alone"
            if suspects
            else "no page was running then"
        )
        return (
            f"jitdocs: you (or a program other than the pages) changed {listing(files)} during "
            f"the build ({why}). Your change is kept, and the next build builds it."
        )
