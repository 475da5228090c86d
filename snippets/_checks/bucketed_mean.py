"""Checks for the practice-track lesson "Bucketed padding": ``bucket_length``, ``masked_mean``
and ``bucketed_mean``."""

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

BUCKETS = {1: 8, 7: 8, 8: 8, 9: 16, 16: 16, 17: 32, 100: 128}


def _get(module, name):
    fn = getattr(module, name, None)
    assert callable(fn), f"expected a function named {name} at module scope, got none"
    return fn


@check("bucket_length rounds up to a power of two, at least 8: 1->8, 8->8, 9->16, 17->32, 100->128")
def bucket_lengths(module):
    fn = _get(module, "bucket_length")
    got = {n: int(fn(n)) for n in BUCKETS}
    assert got == BUCKETS, f"expected {BUCKETS}, got {got}"


@check("masked_mean ignores masked-out entries: [1, 2, 100, 100] with mask [T, T, F, F] is 1.5")
def masked_mean_ignores_padding(module):
    fn = _get(module, "masked_mean")
    padded = jnp.array([1.0, 2.0, 100.0, 100.0], jnp.float32)
    mask = jnp.array([True, True, False, False])
    got = float(fn(padded, mask))
    assert got == 1.5, f"expected 1.5, got {got}"


@check("bucketed_mean matches np.mean for every length from 1 to 20")
def matches_numpy(module):
    fn = _get(module, "bucketed_mean")
    values = np.asarray(jax.random.normal(jax.random.key(11), (20,), jnp.float32))
    for n in range(1, 21):
        want = float(np.mean(values[:n], dtype=np.float64))
        got = float(fn(values[:n]))
        assert abs(got - want) <= 1e-5 * max(1.0, abs(want)), (
            f"length {n}: expected {want:.6f}, got {got:.6f}"
        )


@check("padding never counts: bucketed_mean([5.0]) is 5.0, not 5.0 / 8")
def single_value(module):
    got = float(_get(module, "bucketed_mean")(np.array([5.0], np.float32)))
    assert got == 5.0, f"expected 5.0, got {got}"


@check("bucketed_mean returns a float32 scalar")
def returns_float32_scalar(module):
    got = jnp.asarray(_get(module, "bucketed_mean")(np.arange(1.0, 6.0, dtype=np.float32)))
    assert got.shape == () and got.dtype == jnp.float32, (
        f"expected a float32 scalar, got dtype {got.dtype.name} with shape {got.shape}"
    )


@check("lengths 1 to 32 compile jit(masked_mean) 3 times, once per bucket (8, 16, 32)")
def one_compile_per_bucket(module):
    fn = _get(module, "bucketed_mean")
    # NumPy inputs, made before counting: creating them compiles nothing.
    inputs = [np.linspace(-1.0, 1.0, n, dtype=np.float32) for n in range(1, 33)]
    jax.clear_caches()  # start from nothing compiled, even if these checks ran before
    with count_compiles() as compiles:
        for x in inputs:
            jax.block_until_ready(fn(x))
    count = compiles("masked_mean")
    assert count == 3, (
        f"expected 3 compilations of jit(masked_mean) for 32 lengths, got {count}; pad every "
        "input to bucket_length(len(x)) before calling the jitted masked_mean"
    )
