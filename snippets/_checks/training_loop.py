"""Checks for the exercise "training_loop": ``descent_step``, ``fit_python_loop``, ``fit_fori``.

The expected step is computed in float64 NumPy from the formula, and compared with the step run
at full float32 precision (``_device.full_precision``); the data is a noisy line with known slope
and intercept, made from explicit random keys.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from check_solution import check

# Loaded by file path, a checks module cannot count on snippets/ (where jitkit is) being importable.
sys.path.append(str(Path(__file__).resolve().parent.parent))
from _checks._device import full_precision

from jitkit import assert_faster

TRUE_W, TRUE_B = 2.0, -0.5
_k_x, _k_noise = jax.random.split(jax.random.key(2024))
X = jax.random.uniform(_k_x, (256,), minval=-1.0, maxval=1.0)
Y = TRUE_W * X + TRUE_B + 0.05 * jax.random.normal(_k_noise, (256,))
ZERO = jnp.float32(0.0)
W0, B0 = ZERO, ZERO
RATE, STEPS = 0.5, 200
MIN_SPEEDUP = 2.0


def _function(module, name):
    fn = getattr(module, name, None)
    assert callable(fn), f"expected a function named {name} at module scope, got none"
    return fn


def _pair(out, name):
    assert isinstance(out, tuple | list) and len(out) == 2, (
        f"expected {name} to return a pair (w, b), got {type(out).__name__}"
    )
    return float(out[0]), float(out[1])


@check("descent_step(w, b, xs, ys, rate) is one gradient-descent step on the mean squared error")
def step_follows_gradient(module):
    w, b, rate = 0.5, 0.25, 0.2
    fn = _function(module, "descent_step")
    with full_precision():  # a product written as jnp.dot would lose digits on a TPU otherwise
        got = _pair(fn(jnp.float32(w), jnp.float32(b), X, Y, rate), "descent_step")
    inputs, targets = np.array(X, dtype=np.float64), np.array(Y, dtype=np.float64)
    residual = w * inputs + b - targets
    want = (w - rate * np.mean(2 * residual * inputs), b - rate * np.mean(2 * residual))
    assert np.allclose(got, want, atol=1e-5), (
        f"from w=0.5, b=0.25 with rate=0.2: expected (w, b) = ({want[0]:.6f}, {want[1]:.6f}), "
        f"got ({got[0]:.6f}, {got[1]:.6f})"
    )


@check("fit_fori learns the true line w=2, b=-0.5 from noisy data (within 0.05)")
def fori_learns_the_line(module):
    w, b = _pair(_function(module, "fit_fori")(W0, B0, X, Y, RATE, STEPS), "fit_fori")
    assert abs(w - TRUE_W) < 0.05 and abs(b - TRUE_B) < 0.05, (
        f"after {STEPS} steps with rate={RATE}: expected w≈{TRUE_W}, b≈{TRUE_B}, "
        f"got w={w:.4f}, b={b:.4f}"
    )


@check("fit_fori and fit_python_loop agree (same data, rate and 8 steps, to 1e-4)")
def fori_matches_python_loop(module):
    # Few steps, so that the parameters still move a lot from one step to the next.
    fori = _pair(_function(module, "fit_fori")(W0, B0, X, Y, RATE, 8), "fit_fori")
    loop = _pair(_function(module, "fit_python_loop")(W0, B0, X, Y, RATE, 8), "fit_python_loop")
    assert np.allclose(fori, loop, atol=1e-4), (
        f"after 8 steps: expected fit_fori to give fit_python_loop's "
        f"({loop[0]:.6f}, {loop[1]:.6f}), got ({fori[0]:.6f}, {fori[1]:.6f})"
    )


@check("rate=0 leaves w and b unchanged (the rate comes from the argument, not a global)")
def zero_rate_changes_nothing(module):
    start = (jnp.float32(1.25), jnp.float32(3.0))
    got = _pair(_function(module, "fit_fori")(*start, X, Y, 0.0, 20), "fit_fori")
    assert got == (1.25, 3.0), (
        f"with rate=0: expected (1.25, 3.0) back, got ({got[0]:.6f}, {got[1]:.6f}): "
        "pass rate down to descent_step instead of reading a global"
    )


@check("steps is used: 5 and 6 steps give different parameters")
def step_count_matters(module):
    fn = _function(module, "fit_fori")
    five = _pair(fn(W0, B0, X, Y, RATE, 5), "fit_fori")
    six = _pair(fn(W0, B0, X, Y, RATE, 6), "fit_fori")
    assert five != six, (
        f"expected different (w, b) after 5 and 6 steps, got {five} both times: "
        "use steps as the loop's upper bound"
    )


@check("fit_fori is jitted, and its compiled program holds a loop, not unrolled steps")
def fori_compiles_to_a_loop(module):
    fn = _function(module, "fit_fori")
    assert hasattr(fn, "lower"), (
        f"expected fit_fori to be jitted (to have .lower), got a plain {type(fn).__name__}"
    )
    program = fn.lower(W0, B0, X, Y, RATE, STEPS).as_text()
    assert "stablehlo.while" in program, (
        "expected a stablehlo.while loop in the lowered program, got none: a Python loop "
        f"over a static step count is unrolled into {STEPS} copies; use lax.fori_loop"
    )


@check(
    f"fit_fori is {MIN_SPEEDUP:g}x faster or more than fit_python_loop ({STEPS} steps, "
    "jitkit.assert_faster)"
)
def fori_is_faster(module):
    fori = _function(module, "fit_fori")
    loop = _function(module, "fit_python_loop")
    try:
        assert_faster(
            fori,
            loop,
            W0,
            B0,
            X,
            Y,
            RATE,
            STEPS,
            min_ratio=MIN_SPEEDUP,
            runs=5,
            label="fit_python_loop / fit_fori",
        )
    except AssertionError as error:
        raise AssertionError(
            f"fit_fori against fit_python_loop: {error} (one compiled loop should save "
            f"{STEPS} Python dispatches; is fit_fori compiled once and then reused?)"
        ) from None
