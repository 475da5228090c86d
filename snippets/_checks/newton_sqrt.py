"""Checks for the exercise "newton_sqrt": ``newton_sqrt(a, tol) -> (root, iterations)``.

The function must be jitted with ``tol`` traced, loop with ``lax.while_loop`` until two
guesses agree to ``tol``, and stop after a capped number of steps even when they never do.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import sys
import threading
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from check_solution import NotChecked, check

# Loaded by file path, a checks module cannot count on snippets/ (where jitkit is) being importable.
sys.path.append(str(Path(__file__).resolve().parent.parent))
from jitkit import count_compiles

# An uncapped loop is caught by counting its steps, not by a clock, so a busy machine cannot fail
# a correct solution. STEP_LIMIT is far above any sensible cap; the clock is only a backstop for
# code the step counter cannot see (a while_loop imported under another name).
STEP_LIMIT = 5_000
CAP_SECONDS = 120.0


def _function(module):
    fn = getattr(module, "newton_sqrt", None)
    assert callable(fn), "expected a function named newton_sqrt at module scope, got none"
    return fn


def _call(fn, a, tol):
    """``fn(a, tol)`` as (root, iterations) floats, with advice for the usual mistakes."""
    try:
        out = fn(a, tol)
    except jax.errors.JAXTypeError as error:
        first = str(error).strip().splitlines()[0]
        raise AssertionError(
            f"expected newton_sqrt({a}, {tol}) to trace, got {type(error).__name__}: {first} "
            "(a Python while/if cannot test a traced value: use lax.while_loop)"
        ) from None
    assert isinstance(out, tuple | list) and len(out) == 2, (
        f"expected a pair (root, iterations), got {type(out).__name__}"
    )
    root, steps = (jnp.asarray(v) for v in out)
    assert root.shape == () and steps.shape == (), (
        f"expected two scalars, got shapes {root.shape} and {steps.shape}"
    )
    return float(root), steps


@check("newton_sqrt is wrapped in jax.jit")
def is_jitted(module):
    fn = _function(module)
    assert hasattr(fn, "lower") and hasattr(fn, "trace"), (
        f"expected a jitted function (one with .lower and .trace), got a plain "
        f"{type(fn).__name__}: decorate it with @jax.jit"
    )


@check("roots of 0.04, 0.5, 2, 81 and 12345 match jnp.sqrt (relative error below 1e-5)")
def matches_sqrt(module):
    fn = _function(module)
    for a in (0.04, 0.5, 2.0, 81.0, 12_345.0):
        root, _ = _call(fn, a, 1e-6)
        want = float(np.sqrt(a))
        assert np.isclose(root, want, rtol=1e-5), f"a={a}: expected {want:.6f}, got {root:.6f}"


@check("returns an integer iteration count of at least 1")
def counts_iterations(module):
    _, steps = _call(_function(module), 2.0, 1e-6)
    assert jnp.issubdtype(steps.dtype, jnp.integer), (
        f"expected an integer count, got dtype {steps.dtype.name}"
    )
    assert int(steps) >= 1, f"expected at least 1 iteration for a=2, got {int(steps)}"


@check("a tighter tolerance takes more iterations: tol=1e-1 versus tol=1e-6 for a=5")
def tighter_tolerance_takes_longer(module):
    fn = _function(module)
    _, loose = _call(fn, 5.0, 1e-1)
    _, tight = _call(fn, 5.0, 1e-6)
    assert int(tight) > int(loose), (
        f"expected more iterations for tol=1e-6 than for tol=1e-1, got {int(tight)} and "
        f"{int(loose)}: is tol really used in the loop's condition?"
    )


@check("new values of a and tol reuse the compiled program (tol is traced, not static)")
def tolerance_is_traced(module):
    fn = _function(module)
    if not hasattr(fn, "lower"):
        raise NotChecked("because newton_sqrt is not jitted, so there is no compiled program")
    _call(fn, 3.0, 1e-3)  # the one compilation these argument types need
    name = getattr(getattr(fn, "__wrapped__", fn), "__name__", None)
    with count_compiles() as compiles:
        for a, tol in ((7.0, 1e-4), (11.0, 1e-5), (0.3, 1e-2)):
            _call(fn, a, tol)
    again = compiles(name) if name else compiles.total
    assert again == 0, (
        f"expected no new compilation for new values of a and tol, got {again}: "
        "a static tol compiles once per value; leave it a traced argument"
    )


class _TooSlow(BaseException):
    """Raised inside the checked call when it runs past its time (a BaseException, so that
    no ``except Exception`` in the code under test can swallow it)."""


def _finishes_within(seconds, call):
    """Run ``call()``; return (True, result), or (False, None) if it ran past ``seconds``.

    Only for Python-level loops (here: lax.while_loop under jax.disable_jit): the watchdog
    raises _TooSlow in this thread, which happens at its next Python instruction.
    """
    target = threading.get_ident()
    lock, done = threading.Lock(), threading.Event()

    def interrupt():
        with lock:
            if not done.is_set():
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(target), ctypes.py_object(_TooSlow)
                )

    watchdog = threading.Timer(seconds, interrupt)
    watchdog.start()
    try:
        try:
            result = call()
        finally:
            with lock:
                done.set()
            watchdog.cancel()
    except _TooSlow:
        return False, None
    return True, result


@contextlib.contextmanager
def _counted_while_loops(limit):
    """Make ``lax.while_loop`` raise _TooSlow once its condition has run ``limit`` times.

    Under jax.disable_jit the loop is a Python loop that calls the condition each step.
    """
    original = jax.lax.while_loop

    def counted(cond_fun, body_fun, init_val):
        calls = itertools.count(1)

        def cond(value):
            if next(calls) > limit:
                raise _TooSlow()
            return cond_fun(value)

        return original(cond, body_fun, init_val)

    jax.lax.while_loop = counted
    try:
        yield
    finally:
        jax.lax.while_loop = original


@check("stops after a capped number of steps when the tolerance can never be met (tol=-1)")
def loop_is_capped(module):
    fn = _function(module)
    trace = getattr(fn, "trace", None) or jax.jit(fn).trace  # a jitted fn keeps its static args
    try:  # tracing builds the loop without running it, so an uncapped loop cannot hang here
        trace(2.0, -1.0)
    except Exception as error:
        raise NotChecked(
            f"because newton_sqrt does not trace ({type(error).__name__}), and a Python loop "
            "run eagerly here would say nothing about the jitted one"
        ) from None
    # Run the loop eagerly (jax.disable_jit makes lax.while_loop a Python loop), so that a
    # loop without a cap can be interrupted instead of spinning forever in compiled code.
    with jax.disable_jit(), _counted_while_loops(STEP_LIMIT):
        finished, out = _finishes_within(CAP_SECONDS, lambda: _call(fn, 2.0, -1.0))
    assert finished, (
        f"expected newton_sqrt(2.0, tol=-1.0) to stop (no step can get closer than -1), got "
        f"no result after {STEP_LIMIT:,} steps: add a step limit to the loop's condition"
    )
    root, steps = out
    assert int(steps) >= 1 and np.isclose(root, np.sqrt(2.0), rtol=1e-5), (
        f"expected sqrt(2) after the capped steps, got {root} after {int(steps)} steps"
    )
