"""Checks for the practice-track lesson "while_loop with a tolerance": ``bisect_cbrt``.

The rules fix every step, so the checks can ask for the exact number of halvings.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from check_solution import check

# Loaded by file path, a checks module cannot count on snippets/ (where jitkit is) being importable.
_SNIPPETS = str(Path(__file__).resolve().parent.parent)
if _SNIPPETS not in sys.path:
    sys.path.append(_SNIPPETS)
from jitkit import count_compiles  # noqa: E402

F32 = np.float32


def _function(module):
    fn = getattr(module, "bisect_cbrt", None)
    assert callable(fn), "expected a function named bisect_cbrt at module scope, got none"
    return fn


def _reference(v, tol, max_steps):
    """The lesson's rules, step by step, in float32."""
    v, tol = F32(v), F32(tol)
    lo, hi, steps = F32(0), max(v, F32(1)), 0
    while hi - lo > tol and steps < max_steps:
        mid = (lo + hi) / F32(2)
        if mid * mid * mid < v:
            lo = mid
        else:
            hi = mid
        steps += 1
    return (lo + hi) / F32(2), steps


def _run(fn, v, tol, max_steps):
    result = fn(jnp.float32(v), jnp.float32(tol), max_steps)
    assert isinstance(result, tuple | list) and len(result) == 2, (
        f"expected a pair (root, steps), got {type(result).__name__}"
    )
    root, steps = (jnp.asarray(part) for part in result)
    assert root.shape == () and steps.shape == (), (
        f"expected two scalars, got shapes {root.shape} and {steps.shape}"
    )
    return root, steps


@check("cube root of 27 with tol 1e-4 is within 1e-4 of 3")
def cube_root_of_27(module):
    root, _ = _run(_function(module), 27.0, 1e-4, 100)
    assert abs(float(root) - 3.0) <= 1e-4, f"expected 3 +/- 1e-4, got {float(root)}"


@check("takes exactly the halvings the rules give (v = 8, tol 1e-3: 13 steps; v = 50, tol 1e-2)")
def exact_step_counts(module):
    fn = _function(module)
    for v, tol in ((8.0, 1e-3), (50.0, 1e-2), (2.0, 0.25)):
        want_root, want_steps = _reference(v, tol, 100)
        root, steps = _run(fn, v, tol, 100)
        assert int(steps) == want_steps, (
            f"v = {v}, tol = {tol}: expected {want_steps} steps, got {int(steps)}"
        )
        assert float(root) == float(want_root), (
            f"v = {v}, tol = {tol}: expected root {float(want_root)}, got {float(root)}"
        )


@check("stops at max_steps when the tolerance can never be met (tol = 0, max_steps = 30)")
def respects_max_steps(module):
    root, steps = _run(_function(module), 5.0, 0.0, 30)
    assert int(steps) == 30, f"expected exactly 30 steps, got {int(steps)}"
    assert abs(float(root) - 5.0 ** (1 / 3)) < 1e-5, (
        f"expected about {5.0 ** (1 / 3):.6f}, got {float(root)}"
    )


@check("inputs below 1 use the bracket [0, 1]: v = 0.125 gives 0.5, v = 0 gives about 0")
def small_inputs(module):
    fn = _function(module)
    for v, want in ((0.125, 0.5), (0.0, 0.0)):
        root, _ = _run(fn, v, 1e-4, 100)
        assert abs(float(root) - want) <= 1e-4, (
            f"v = {v}: expected {want} +/- 1e-4, got {float(root)}"
        )


@check("returns the step count as an integer scalar")
def steps_are_integers(module):
    _, steps = _run(_function(module), 8.0, 1e-3, 100)
    assert jnp.issubdtype(steps.dtype, jnp.integer), (
        f"expected an integer dtype for steps, got {steps.dtype.name}"
    )


@check("v, tol and max_steps may be traced: jax.jit(bisect_cbrt) works")
def runs_traced(module):
    jitted = jax.jit(_function(module))
    root, steps = jitted(jnp.float32(8.0), jnp.float32(1e-3), jnp.int32(100))
    assert int(steps) == 13 and abs(float(root) - 2.0) <= 1e-3, (
        f"expected (about 2.0, 13), got ({float(root)}, {int(steps)})"
    )


@check("decorated with jax.jit: tol = 1e-2, 1e-4, 1e-6 compile jit(bisect_cbrt) once")
def new_tolerance_does_not_recompile(module):
    fn = _function(module)
    jax.clear_caches()  # start from nothing compiled, even if these checks ran before
    with count_compiles() as compiles:
        for tol in (1e-2, 1e-4, 1e-6):
            jax.block_until_ready(fn(jnp.float32(10.0), tol, 100))  # tol: a plain float
    count = compiles("bisect_cbrt")
    assert count == 1, (
        f"expected 1 compilation of jit(bisect_cbrt) for three tolerances, got {count} "
        f"(all compilations: {compiles.names}); decorate the function with jax.jit and keep "
        "tol traced"
    )
