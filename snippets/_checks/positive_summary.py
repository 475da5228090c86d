"""Checks for the exercise "positive_summary": ``positive_summary(x, k) -> (mean, first)``.

``mean`` is the mean of the positive entries of ``x`` (0.0 when there are none) and ``first``
the positions of the first ``k`` positive entries, padded with -1 to length ``k``. The function
is jitted with ``k`` static, so it compiles once for every ``x`` of one shape.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import jax
import numpy as np

from check_solution import check

# Loaded by file path, a checks module cannot count on snippets/ (where jitkit is) being importable.
_SNIPPETS = str(Path(__file__).resolve().parent.parent)
if _SNIPPETS not in sys.path:
    sys.path.append(_SNIPPETS)
from jitkit import count_compiles  # noqa: E402

# Made once, as NumPy arrays: creating them compiles nothing.
_RNG = np.random.default_rng(7)
ARRAYS = [_RNG.normal(size=8).astype(np.float32) for _ in range(5)]
FEW = np.array([-1.0, 4.0, -2.0, 0.0, 6.0, -3.0, -0.5, -9.0], np.float32)  # two positive
MANY = np.array([2.0, -1.0, 3.0, 5.0, 0.0, 1.0, 8.0, -4.0], np.float32)  # five positive
NONE = np.array([-1.0, -2.0, 0.0, -4.0, -0.5, -3.0, -7.0, -8.0], np.float32)


def _function(module):
    fn = getattr(module, "positive_summary", None)
    assert callable(fn), "expected a function named positive_summary at module scope, got none"
    return fn


def _call(fn, x, k):
    """``fn(x, k=k)`` as (mean as a float, first as a NumPy array)."""
    out = fn(x, k=k)
    assert isinstance(out, tuple | list) and len(out) == 2, (
        f"expected a pair (mean, first), got {type(out).__name__}"
    )
    mean, first = np.asarray(out[0]), np.asarray(out[1])
    assert mean.shape == (), f"expected mean to be a scalar, got shape {mean.shape}"
    return float(mean), first


def _reference(x, k):
    hits = np.flatnonzero(x > 0)
    mean = float(x[hits].mean(dtype=np.float64)) if hits.size else 0.0
    first = np.full(k, -1, np.int64)
    first[: min(k, hits.size)] = hits[:k]
    return mean, first


@check("positive_summary is wrapped in jax.jit")
def is_jitted(module):
    fn = _function(module)
    assert hasattr(fn, "lower") and hasattr(fn, "trace"), (
        f"expected a jitted function (one with .lower and .trace), got a plain "
        f"{type(fn).__name__}: decorate it with @partial(jax.jit, static_argnames='k')"
    )


@check("the mean of the positive entries matches NumPy on five random arrays")
def mean_matches(module):
    fn = _function(module)
    for number, x in enumerate(ARRAYS, 1):
        got, _ = _call(fn, x, 3)
        want, _ = _reference(x, 3)
        assert np.isclose(got, want, rtol=1e-5, atol=1e-6), (
            f"array {number}: expected mean {want:.6f} of {int((x > 0).sum())} positive entries, "
            f"got {got:.6f}"
        )


@check("an array with no positive entry gives a mean of 0.0, not NaN")
def empty_mean_is_zero(module):
    got, _ = _call(_function(module), NONE, 3)
    assert got == 0.0, (
        f"expected 0.0 for {NONE.tolist()}, got {got} (0 / 0 is NaN: guard the count)"
    )


@check("with fewer than k positive entries, first pads their positions with -1: [1, 4, -1, -1]")
def pads_with_minus_one(module):
    _, got = _call(_function(module), FEW, 4)
    want = [1, 4, -1, -1]
    padded_with_zero = got.tolist()[2:] == [0, 0]
    hint = " (jnp.nonzero pads with 0 unless you pass fill_value)" if padded_with_zero else ""
    assert got.tolist() == want, (
        f"expected {want} for {FEW.tolist()} and k=4, got {got.tolist()}{hint}"
    )


@check("with more than k positive entries, first holds the first k positions in order")
def keeps_first_k(module):
    fn = _function(module)
    for k in (2, 3):
        _, got = _call(fn, MANY, k)
        _, want = _reference(MANY, k)
        assert got.tolist() == want.tolist(), (
            f"expected {want.tolist()} for {MANY.tolist()} and k={k}, got {got.tolist()}"
        )


@check("first has shape (k,) and an integer dtype, for k = 1, 3 and 6")
def first_shape(module):
    fn = _function(module)
    for k in (1, 3, 6):
        _, got = _call(fn, MANY, k)
        assert got.shape == (k,) and np.issubdtype(got.dtype, np.integer), (
            f"expected an integer array of shape ({k},), got {got.dtype.name} with shape "
            f"{got.shape}"
        )


@check("five arrays of shape (8,) with different values compile one program, once")
def compiles_once(module):
    fn = _function(module)
    jax.clear_caches()  # start from nothing compiled, even if these checks ran before
    with count_compiles() as compiles:
        for x in [*ARRAYS, FEW, NONE]:
            jax.block_until_ready(fn(x, k=3))
    programs = ", ".join(f"{name} x{n}" for name, n in Counter(compiles.names).most_common(4))
    assert compiles.total == 1, (
        f"expected 1 compilation for seven arrays of one shape and k=3, got {compiles.total} "
        f"({programs}{', ...' if len(set(compiles.names)) > 4 else ''}): jit the whole function, "
        "and let every shape inside come from x.shape and k, never from the values"
    )
