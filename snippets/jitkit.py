"""Small helpers the course pages use, and that learners may copy into their own work.

- ``count_compiles``: count real XLA compilations, per function, inside a ``with`` block.
- ``time_it``: time a function honestly (warm-up, block on the whole result, median of runs).
- ``assert_faster``: measure two functions side by side and assert one is faster, with retries.
- ``show_error``: run code that must fail and print the error compactly.

Only depends on JAX and the standard library.
"""

from __future__ import annotations

import contextlib
import logging
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import jax
from jax import monitoring

__all__ = ["CompileCount", "Timing", "assert_faster", "count_compiles", "show_error", "time_it"]

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


def assert_faster(
    fast: Callable,
    slow: Callable,
    *args: object,
    min_ratio: float = 1.0,
    retries: int = 3,
    runs: int = 7,
    number: int = 1,
) -> float:
    """Assert ``fast(*args)`` beats ``slow(*args)`` by ``min_ratio``; return the measured ratio.

    Both are timed side by side in each attempt. A busy machine can spoil one attempt, so we
    measure again up to ``retries`` times before failing with every measurement in the message.
    """
    attempts = []
    for _ in range(retries):
        slow_t = time_it(slow, *args, runs=runs, number=number)
        fast_t = time_it(fast, *args, runs=runs, number=number)
        ratio = slow_t.median / fast_t.median
        if ratio >= min_ratio:
            return ratio
        attempts.append(f"slow {slow_t}, fast {fast_t}, ratio {ratio:.2f}")
    raise AssertionError(
        f"expected a speed-up of at least {min_ratio}x, measured: " + "; ".join(attempts)
    )


@contextlib.contextmanager
def show_error(expected: type[BaseException]) -> Iterator[None]:
    """Run a block that must raise ``expected``; print its type and first line, then carry on.

    Raises AssertionError if the block runs clean; any other exception propagates unchanged.
    """
    try:
        yield
    except expected as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        print(f"{type(error).__name__}: {first_line}")
    else:
        raise AssertionError(f"expected {expected.__name__}, but the block ran without error")
