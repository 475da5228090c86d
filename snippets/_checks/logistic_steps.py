"""Checks for the practice-track lesson "fori_loop with a traced count": ``logistic_steps``."""

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


def _function(module):
    fn = getattr(module, "logistic_steps", None)
    assert callable(fn), "expected a function named logistic_steps at module scope, got none"
    return fn


def _reference(x0, r, n):
    """The rule applied n times in float32, one rounding per operation like the compiled code."""
    x = np.asarray(x0, dtype=np.float32)
    r = np.float32(r)
    for _ in range(n):
        x = (r * x) * (np.float32(1) - x)
    return x


def _close(got, want, label):
    got = np.asarray(got)
    assert got.shape == np.shape(want), f"{label}: expected shape {np.shape(want)}, got {got.shape}"
    assert np.allclose(got, want, rtol=1e-5, atol=1e-6), (
        f"{label}: expected {_rounded(want)}, got {_rounded(got)}"
    )


def _rounded(values):
    return np.round(np.asarray(values, dtype=np.float64), 6).tolist()


@check("n = 0 returns x0 unchanged")
def zero_steps(module):
    _close(_function(module)(jnp.float32(0.3), jnp.float32(3.2), 0), np.float32(0.3), "n = 0")


@check("one step: logistic_steps(0.2, 3.0, 1) is 3.0 * 0.2 * 0.8 = 0.48")
def one_step(module):
    _close(_function(module)(jnp.float32(0.2), jnp.float32(3.0), 1), np.float32(0.48), "n = 1")


@check("matches a NumPy loop for n = 5 and n = 25 (x0 = 0.3, r = 3.2)")
def matches_numpy(module):
    fn = _function(module)
    for n in (5, 25):
        _close(fn(jnp.float32(0.3), jnp.float32(3.2), n), _reference(0.3, 3.2, n), f"n = {n}")


@check("works element-wise on an array of starting points (shape and float32 kept)")
def array_of_starts(module):
    starts = np.array([[0.1, 0.2], [0.5, 0.9]], np.float32)
    got = jnp.asarray(_function(module)(jnp.asarray(starts), jnp.float32(2.5), 4))
    assert got.dtype == jnp.float32, f"expected dtype float32, got {got.dtype.name}"
    _close(got, _reference(starts, 2.5, 4), "2x2 starts, n = 4")


@check("n may be traced: jax.jit(logistic_steps)(x0, r, n) works")
def traced_count(module):
    jitted = jax.jit(_function(module))
    result = jitted(jnp.float32(0.3), jnp.float32(3.2), jnp.int32(5))
    _close(result, _reference(0.3, 3.2, 5), "n = 5")


@check("decorated with jax.jit: calls with n = 3, 7, 11 compile jit(logistic_steps) once")
def one_compile_for_many_counts(module):
    fn = _function(module)
    x0, r = jnp.float32(0.3), jnp.float32(3.2)
    jax.clear_caches()  # start from nothing compiled, even if these checks ran before
    with count_compiles() as compiles:
        for n in (3, 7, 11):
            jax.block_until_ready(fn(x0, r, n))
    count = compiles("logistic_steps")
    assert count == 1, (
        f"expected 1 compilation of jit(logistic_steps) for three different n, got {count} "
        f"(all compilations: {compiles.names}); decorate the function with jax.jit and keep "
        "n traced (not static)"
    )
