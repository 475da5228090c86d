"""Small helpers the course pages use, and that learners may copy into their own work.

- ``count_compiles``: count real XLA compilations, per function, inside a ``with`` block.
- ``time_it``: time a function honestly (warm-up, block on the whole result, median of runs).
- ``assert_faster``: measure two functions side by side and assert one is faster, with retries.
- ``claim_ratio``: assert a measured ratio lies in a required range, and record it.
- ``show_error``: run code that must fail and print the error compactly.

Every timing claim (``assert_faster``, ``claim_ratio``) is also recorded in ``TIMING_CLAIMS``, so
the site's build can report each claim's margin and ``nox -s stress`` can test it under load.

Only depends on JAX and the standard library.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import jax
from jax import monitoring

__all__ = [
    "TIMING_CLAIMS",
    "CompileCount",
    "SharedCPUError",
    "Timing",
    "TimingClaim",
    "assert_faster",
    "claim_ratio",
    "count_compiles",
    "show_error",
    "time_it",
]

# jax_log_compiles writes one line like this per real XLA compilation.
_COMPILE_LINE = re.compile(r"^Finished XLA compilation of (?P<name>.+?) in [0-9.e-]+ sec")
# JAX also reports each backend compile as a monitoring event; used to cross-check the log.
_COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"


@dataclass
class CompileCount:
    """What ``count_compiles`` saw. ``names`` holds one entry per compilation, e.g. ``jit(f)``."""

    names: list[str] = field(default_factory=list)
    log_lines: list[str] = field(default_factory=list)
    _events: list[str] = field(default_factory=list, repr=False)

    def __call__(self, fn_name: str | None = None) -> int:
        """Compilations of ``jit(fn_name)``, or of everything when no name is given."""
        if fn_name is None:
            return len(self.names)
        return Counter(self.names)[f"jit({fn_name})"]

    @property
    def total(self) -> int:
        return len(self.names)


_active: list[CompileCount] = []


def _on_event(event: str, duration: float, **kwargs: object) -> None:
    if event == _COMPILE_EVENT:
        for counter in _active:
            counter._events.append(str(kwargs.get("fun_name", "?")))


monitoring.register_event_duration_secs_listener(_on_event)


class _LineCollector(logging.Handler):
    def __init__(self, counter: CompileCount) -> None:
        super().__init__(level=logging.DEBUG)
        self.counter = counter

    def emit(self, record: logging.LogRecord) -> None:
        line = record.getMessage()
        self.counter.log_lines.append(line)
        match = _COMPILE_LINE.match(line)
        if match:
            self.counter.names.append(match["name"])


@contextlib.contextmanager
def count_compiles() -> Iterator[CompileCount]:
    """Count XLA compilations inside the block, by function name.

    >>> with count_compiles() as compiles:  # doctest: +SKIP
    ...     f(x); f(x)
    >>> compiles("f")  # doctest: +SKIP
    1

    The counts come from ``jax_log_compiles``; JAX's own compile events are counted alongside,
    and if the two disagree the log format has changed and we fail loudly instead of reporting 0.
    """
    counter = CompileCount()
    jax_logger = logging.getLogger("jax")
    handler = _LineCollector(counter)
    old_propagate = jax_logger.propagate
    jax_logger.addHandler(handler)
    jax_logger.propagate = False  # keep the log out of the page's output while counting
    _active.append(counter)
    try:
        with jax.log_compiles(True):
            yield counter
    finally:
        _active.remove(counter)
        jax_logger.removeHandler(handler)
        jax_logger.propagate = old_propagate
    if len(counter._events) != len(counter.names):
        raise RuntimeError(
            f"count_compiles: JAX reported {len(counter._events)} compilation(s) "
            f"({counter._events}) but the jax_log_compiles log matched {len(counter.names)}; "
            "the log format has probably changed, update _COMPILE_LINE in jitkit.py"
        )


@dataclass(frozen=True)
class Timing:
    """Seconds per call over several runs."""

    runs: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def spread(self) -> float:
        """Half the distance between the fastest and slowest run."""
        return (max(self.runs) - min(self.runs)) / 2

    def __str__(self) -> str:
        return f"{_fmt_seconds(self.median)} ± {_fmt_seconds(self.spread)}"


def _fmt_seconds(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def time_it(fn: Callable, *args: object, warmup: int = 1, runs: int = 7, number: int = 1) -> Timing:
    """Median-friendly timing: ``warmup`` untimed calls, then ``runs`` timed batches of ``number``.

    Every call's result is passed to ``jax.block_until_ready``, which waits for every array in
    any pytree (a tuple, a dict...), so asynchronous dispatch cannot make a call look free.
    """
    if runs < 1 or number < 1:
        raise ValueError("runs and number must be at least 1")
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(number):
            jax.block_until_ready(fn(*args))
        samples.append((time.perf_counter() - start) / number)
    return Timing(tuple(samples))


@dataclass(frozen=True)
class TimingClaim:
    """One asserted timing ratio: what was compared, what was measured, what was required."""

    label: str
    measured: float
    at_least: float | None = None
    at_most: float | None = None
    filename: str = ""  # where the claim was made: the caller of assert_faster / claim_ratio
    line: int = 0

    @property
    def margin(self) -> float:
        """How far the measurement is from failing: 2.0 means twice what was required."""
        margins = []
        if self.at_least is not None:
            margins.append(self.measured / self.at_least)
        if self.at_most is not None:
            margins.append(self.at_most / self.measured if self.measured > 0 else float("inf"))
        return min(margins)

    @property
    def holds(self) -> bool:
        return self.margin >= 1.0

    @property
    def required(self) -> str:
        if self.at_least is not None and self.at_most is not None:
            return f"between {self.at_least:g}x and {self.at_most:g}x"
        if self.at_least is not None:
            return f"at least {self.at_least:g}x"
        return f"at most {self.at_most:g}x"


TIMING_CLAIMS: list[TimingClaim] = []  # every claim checked in this process, in order


# The site's build and tests set this where other work shares the CPU (pages run side by side,
# pytest-xdist workers). A speed measured there says nothing, so a claim refuses to be made.
SHARED_CPU_VARIABLE = "JITDOCS_SHARED_CPU"


class SharedCPUError(RuntimeError):
    """A timing claim was about to be measured while other work shares the CPU."""


def _refuse_shared_cpu(label: str) -> None:
    beside = os.environ.get(SHARED_CPU_VARIABLE)
    if beside:
        raise SharedCPUError(
            f"timing claim {label!r} refused: other work runs beside it ({beside}). Code that "
            "claims a speed runs alone. The build and the tests find it by the names "
            "assert_faster and claim_ratio in a page's code, a project module it imports, a "
            "checker it names or a test function's source; a test that makes a claim any other "
            "way (a notebook, a checker run by id) needs @pytest.mark.timing "
            "(tests/timing_marks.py marks a parameter)."
        )


def _caller() -> tuple[str, int]:
    """File and line of the first frame outside this module: where the claim was written."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename == __file__:
        frame = frame.f_back
    return (frame.f_code.co_filename, frame.f_lineno) if frame else ("?", 0)


def _record(label: str, measured: float, at_least: float | None, at_most: float | None):
    filename, line = _caller()
    claim = TimingClaim(label, measured, at_least, at_most, filename, line)
    TIMING_CLAIMS.append(claim)
    return claim


def claim_ratio(
    label: str, measured: float, *, at_least: float | None = None, at_most: float | None = None
) -> float:
    """Assert ``at_least <= measured <= at_most`` for a ratio of timings; record it; return it.

    >>> claim_ratio("first call vs cached call", 40.0, at_least=5)  # doctest: +SKIP
    """
    if at_least is None and at_most is None:
        raise ValueError("claim_ratio needs at_least, at_most or both")
    _refuse_shared_cpu(label)
    claim = _record(label, measured, at_least, at_most)
    if not claim.holds:
        raise AssertionError(f"{label}: measured {measured:.2f}x, required {claim.required}")
    return measured


def assert_faster(
    fast: Callable,
    slow: Callable,
    *args: object,
    min_ratio: float = 1.0,
    retries: int = 3,
    runs: int = 7,
    number: int = 1,
    label: str | None = None,
) -> float:
    """Assert ``fast(*args)`` beats ``slow(*args)`` by ``min_ratio``; return the measured ratio.

    Both are timed side by side in each attempt. A busy machine can spoil one attempt, so we
    measure again up to ``retries`` times before failing with every measurement in the message.
    The best attempt is recorded in ``TIMING_CLAIMS``.
    """
    label = label or f"{_name(slow)} time / {_name(fast)} time"
    _refuse_shared_cpu(label)
    attempts, best = [], 0.0
    for _ in range(retries):
        slow_t = time_it(slow, *args, runs=runs, number=number)
        fast_t = time_it(fast, *args, runs=runs, number=number)
        ratio = slow_t.median / fast_t.median
        best = max(best, ratio)
        if ratio >= min_ratio:
            break
        attempts.append(f"slow {slow_t}, fast {fast_t}, ratio {ratio:.2f}")
    _record(label, best, min_ratio, None)
    if best < min_ratio:
        raise AssertionError(
            f"expected a speed-up of at least {min_ratio}x, measured: " + "; ".join(attempts)
        )
    return best


def _name(fn: Callable) -> str:
    return getattr(fn, "__name__", None) or type(fn).__name__


@contextlib.contextmanager
def show_error(expected: type[BaseException]) -> Iterator[None]:
    """Run a block that must raise ``expected``; print its type and whole message, then carry on.

    Raises AssertionError if the block runs clean; any other exception propagates unchanged.
    """
    try:
        yield
    except expected as error:
        print(f"{type(error).__name__}: {str(error).strip()}")
    else:
        raise AssertionError(f"expected {expected.__name__}, but the block ran without error")
