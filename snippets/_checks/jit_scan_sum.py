"""Checks for the practice-track lesson "jit of scan": ``jit_scan_sum(x)``.

Only sums, shapes and dtypes are checked, never how the function is compiled or cached.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from check_solution import check

# Loaded by file path, a checks module cannot count on snippets/ being on sys.path.
sys.path.append(str(Path(__file__).resolve().parent.parent))
from _checks._device import FLOAT64_RTOL

# Small integers and quarters: every partial sum is exact in float16, bfloat16 and float32,
# so the expected totals below are exact whatever the dtype.
SHORT = [0.5, 1.25, -2.0, 3.0, 0.75]  # total 3.5
INTEGERS = [(3 * i) % 7 - 2 for i in range(40)]  # values -2..4, partial sums stay below 50


def _function(module):
    fn = getattr(module, "jit_scan_sum", None)
    assert callable(fn), "expected a function named jit_scan_sum at module scope, got none"
    return fn


def _call(module, values, dtype):
    return _function(module)(jnp.asarray(np.asarray(values, dtype=np.float64), dtype=dtype))


def _expect_scalar(result, dtype, total, label):
    result = jnp.asarray(result)
    assert result.shape == (), (
        f"{label}: expected a scalar (shape ()), got shape {result.shape}; "
        "return the final carry, not the per-step values"
    )
    assert result.dtype == jnp.dtype(dtype), (
        f"{label}: expected dtype {jnp.dtype(dtype).name}, got {result.dtype.name}; "
        "start the carry with the input's dtype"
    )
    assert float(result) == total, f"{label}: expected {total}, got {float(result)}"


@check("sums a short float32 vector: [0.5, 1.25, -2, 3, 0.75] gives 3.5")
def short_float32_sum(module):
    result = jnp.asarray(_call(module, SHORT, jnp.float32))
    assert result.size == 1, (
        f"expected one number, got {result.size} values {np.asarray(result).tolist()} "
        "(running sums?)"
    )
    assert float(result.reshape(())) == 3.5, f"expected 3.5, got {float(result.reshape(()))}"


@check("returns one scalar (shape ()), not the running sums")
def returns_a_scalar(module):
    result = jnp.asarray(_call(module, SHORT, jnp.float32))
    assert result.shape == (), (
        f"expected shape (), got shape {result.shape}; lax.scan returns (final_carry, ys): "
        "return the final carry and emit None per step"
    )


@check("float16 in, float16 out, with the exact sum of 40 small integers")
def keeps_float16(module):
    _expect_scalar(_call(module, INTEGERS, jnp.float16), jnp.float16, sum(INTEGERS), "float16")


@check("bfloat16 in, bfloat16 out, with the exact sum of 40 small integers")
def keeps_bfloat16(module):
    _expect_scalar(_call(module, INTEGERS, jnp.bfloat16), jnp.bfloat16, sum(INTEGERS), "bfloat16")


@check("float32 in, float32 out")
def keeps_float32(module):
    _expect_scalar(_call(module, SHORT, jnp.float32), jnp.float32, 3.5, "float32")


@check("float64 in, float64 out (with x64 enabled), summed in float64: ten 0.1s")
def keeps_float64_under_x64(module):
    fn = _function(module)
    with jax.enable_x64(True):
        values = jnp.asarray(np.full(10, 0.1, dtype=np.float64))
        assert values.dtype == jnp.float64, "x64 did not turn on; this check cannot run"
        result = jnp.asarray(fn(values))
        expected = 0.0
        for value in [0.1] * 10:  # the order a scan adds in: 0.9999999999999999
            expected += value
        assert result.shape == (), f"expected shape (), got shape {result.shape}"
        assert result.dtype == jnp.float64, (
            f"expected dtype float64, got {result.dtype.name}; start the carry with x.dtype"
        )
        # float64 rounding, a TPU's emulated float64 too, and nothing like float32's 1e-7
        assert abs(float(result) - expected) <= FLOAT64_RTOL * abs(expected), (
            f"expected {expected!r} (a float64 sum), got {float(result)!r}"
        )


@check("an empty input gives 0 of the input's dtype (float32 and float16)")
def empty_input_is_zero(module):
    fn = _function(module)
    for dtype in (jnp.float32, jnp.float16):
        result = jnp.asarray(fn(jnp.zeros((0,), dtype)))
        _expect_scalar(result, dtype, 0.0, f"empty {jnp.dtype(dtype).name} input")


@check("sums 1,000 random float32 values to within float32 rounding")
def random_float32_sum(module):
    values = jax.random.normal(jax.random.key(7), (1000,), jnp.float32)
    result = jnp.asarray(_function(module)(values))
    expected = float(np.sum(np.asarray(values, dtype=np.float64)))
    assert result.shape == (), f"expected shape (), got shape {result.shape}"
    tolerance = 1e-5 * float(np.sum(np.abs(np.asarray(values, dtype=np.float64))))
    assert abs(float(result) - expected) <= tolerance, (
        f"expected {expected:.6f} (within {tolerance:.1e}), got {float(result):.6f}"
    )
