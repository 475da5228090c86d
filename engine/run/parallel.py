"""Page runs side by side, a worker thread per CPU. A build that stops on a failure raises what a
serial build would (the earliest failing page in page order): when a page fails, the pages after
it are cancelled or stopped (their process groups killed), and the pages before it still run.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import math
import os
import subprocess
import threading
from collections.abc import Callable, Iterator

from engine.run import terminal


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask, which a container or `taskset`
    narrows), not the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # no affinity outside Linux
        return os.cpu_count() or 1


class Sessions:
    """The children of the jobs in flight, and the order after which none may run."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: dict[int, subprocess.Popen] = {}
        self.cutoff: float = math.inf

    @contextlib.contextmanager
    def watch(self, order: int, child: subprocess.Popen):
        """Register ``child`` (job ``order``) while the job follows it."""
        with self._lock:
            self._live[order] = child
            if order > self.cutoff:  # started as a failure came in
                _kill_group(child)
        try:
            yield
        finally:
            with self._lock:
                self._live.pop(order, None)

    def stop_after(self, order: float) -> None:
        """Kill the children of the jobs after ``order``; none after it starts from now on."""
        with self._lock:
            self.cutoff = min(self.cutoff, order)
            for later, child in self._live.items():
                if later > self.cutoff:
                    _kill_group(child)


def _kill_group(child: subprocess.Popen) -> None:
    if child.returncode is None:  # not reaped yet, so its pid still names its group
        terminal.kill_group(child.pid)


SKIPPED = object()  # what a job returns when an earlier one failed before it could start


def run_jobs(
    jobs: list, run: Callable, workers: int, stop_on_failure: bool, sessions: Sessions
) -> Iterator[tuple[object, object, BaseException | None]]:
    """``run(job, watch)`` for each job, ``workers`` at a time, started in the order given (a
    job's ``order`` is its place in page order); yields (job, result, None) or (job, None, error)
    as each ends. ``watch(child)`` registers the job's child process, so ``stop_on_failure`` can
    stop it. The errors of jobs stopped because an earlier one failed are not yielded: they are
    what stopping them caused."""

    def attempt(job):
        if job.order > sessions.cutoff:
            return SKIPPED
        try:
            return run(job, lambda child: sessions.watch(job.order, child))
        except BaseException:
            if stop_on_failure:  # here, before this worker takes the next job
                sessions.stop_after(job.order)
            raise

    pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="jitdocs-page")
    futures = {pool.submit(attempt, job): job for job in jobs}
    try:
        for future in concurrent.futures.as_completed(futures):
            job, error = futures[future], future.exception()
            if error is None and future.result() is not SKIPPED:
                yield job, future.result(), None
            elif error is not None and job.order <= sessions.cutoff:
                yield job, None, error
    except BaseException:  # an error in the caller, Ctrl-C: stop everything still running
        sessions.stop_after(-math.inf)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
