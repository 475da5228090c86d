"""Checks for the practice-track lesson "Static arguments": ``moving_average(x, window)``."""

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
from _checks._device import full_precision  # noqa: E402

from jitkit import count_compiles  # noqa: E402


def _function(module):
    fn = getattr(module, "moving_average", None)
    assert callable(fn), "expected a function named moving_average at module scope, got none"
    return fn


def _averaged(module, x, window):
    """``moving_average(x, window)``, a convolution (jnp.convolve) in full float32 if it is one:
    a TPU's default bfloat16 pass would move the third digit."""
    with full_precision():
        return _function(module)(x, window)


def _reference(values, window):
    values = np.asarray(values, dtype=np.float64)
    return np.array([values[i : i + window].mean() for i in range(len(values) - window + 1)])


def _compare(result, expected, label, rtol=1e-6):
    got = np.asarray(result, dtype=np.float64)
    assert got.shape == expected.shape, (
        f"{label}: expected {expected.shape[0]} values (len(x) - window + 1), got shape {got.shape}"
    )
    assert np.allclose(got, expected, rtol=rtol, atol=rtol), (
        f"{label}: expected {_short(expected)}, got {_short(got)}"
    )


def _short(values, limit=6):
    shown = ", ".join(f"{v:.4g}" for v in values[:limit])
    return f"[{shown}{', ...' if len(values) > limit else ''}]"


@check("averages [1, 2, 3, 4, 5, 6] with window 3 to [2, 3, 4, 5]")
def small_example(module):
    x = jnp.arange(1.0, 7.0, dtype=jnp.float32)  # 1, 2, ..., 6
    _compare(_averaged(module, x, 3), np.array([2.0, 3.0, 4.0, 5.0]), "window 3")


@check("window 1 returns x itself; window len(x) returns one value, the mean")
def edge_windows(module):
    x = jnp.array([4.0, -1.0, 2.5, 0.5, 9.0], jnp.float32)
    _compare(_averaged(module, x, 1), np.asarray(x, np.float64), "window 1")
    _compare(_averaged(module, x, 5), np.array([3.0]), "window 5 = len(x)")


@check("matches NumPy on 50 random values for windows 2, 5 and 10")
def random_values(module):
    x = jax.random.uniform(jax.random.key(3), (50,), jnp.float32, -5.0, 5.0)
    for window in (2, 5, 10):
        _compare(_averaged(module, x, window), _reference(x, window), f"window {window}", 1e-5)


@check("keeps the input's dtype (float32 in, float32 out; float16 in, float16 out)")
def keeps_dtype(module):
    fn = _function(module)
    for dtype in (jnp.float32, jnp.float16):
        result = jnp.asarray(fn(jnp.arange(8, dtype=dtype), 4))
        assert result.dtype == jnp.dtype(dtype), (
            f"expected dtype {jnp.dtype(dtype).name}, got {result.dtype.name}"
        )


@check("jitted, window static: a new window compiles once, new values of one shape compile nothing")
def compiles_once_per_window(module):
    fn = _function(module)
    first = jnp.linspace(0.0, 1.0, 23, dtype=jnp.float32)
    second = jnp.linspace(5.0, 9.0, 23, dtype=jnp.float32)
    jax.block_until_ready((first, second))
    jax.clear_caches()  # start from nothing compiled, even if these checks ran before
    counts, others = [], []
    for x, window in ((first, 4), (second, 4), (first, 6)):
        with count_compiles() as compiles:
            jax.block_until_ready(fn(x, window))
        counts.append(compiles("moving_average"))
        others += [name for name in compiles.names if name != "jit(moving_average)"]
    expected = [1, 0, 1]
    assert counts == expected, (
        f"expected compilations of jit(moving_average) per call {expected} "
        f"(new window, same window with new values, new window), got {counts}"
        + (f"; other compilations seen: {others}" if others else "")
        + "; decorate moving_average itself with jax.jit and mark window static"
    )
