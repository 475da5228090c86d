"""A TPU's rounding, on the CPU: ``tpu_rounding()`` makes the CPU compute as a TPU v5e does where
the two differ in the numbers a checker compares, so a test can prove on any machine that the
checkers judge a solution, not the device it runs on.

Inside the block, every program compiled for the CPU is lowered with three changes, each the
size the TPU showed (docs/data/accelerator.json, issue #70):

- a float32 matrix product or convolution at DEFAULT precision rounds both operands to bfloat16
  first, as the TPU's one bfloat16 pass does (about 4e-3 relative on the result); HIGH and
  HIGHEST stay exact;
- a float64 addition or sum keeps only 40 of its 52 mantissa bits (about 1e-12 relative): a
  TPU has no float64 unit and emulates it;
- a float32 exp, exp2, expm1, log, log1p, tanh or logistic comes out 1e-5 too large, relative.

The changes are lowering rules registered for the CPU over JAX's own (``mlir.register_lowering``
is public; the tables it writes, read here to put JAX's rules back, are not). Compiled programs
are cleared on the way in and out, so nothing compiled inside is reused outside, or the reverse.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax._src.interpreters import mlir as mlir_tables
from jax.interpreters import mlir

PLATFORM = "cpu"
KEPT_FLOAT64_BITS = 40  # of 52: the last 12 are cleared, about 2**-40 = 9e-13 relative
TRANSCENDENTAL_ERROR = 1e-5
TRANSCENDENTALS = (
    lax.exp_p,
    lax.exp2_p,
    lax.expm1_p,
    lax.log_p,
    lax.log1p_p,
    lax.tanh_p,
    lax.logistic_p,
)
SUMS = (lax.add_p, lax.reduce_sum_p)
PRODUCTS = (lax.dot_general_p, lax.conv_general_dilated_p)
DEFAULT_PRECISIONS = (None, lax.Precision.DEFAULT, (lax.Precision.DEFAULT, lax.Precision.DEFAULT))


def _jax_rule(primitive):
    """The rule JAX lowers ``primitive`` with for the CPU: the CPU's own, else the common one."""
    entry = mlir_tables._platform_specific_lowerings[PLATFORM].get(primitive)
    return (entry or mlir_tables._lowerings[primitive]).rule


def _apply(ctx, function, value, aval):
    """``function`` (JAX code) applied to one lowered ``value`` of ``aval``."""
    inner = ctx.replace(avals_in=[aval], avals_out=[aval])
    (result,) = mlir.lower_fun(function, multiple_results=False)(inner, value)
    return result


def _to_bfloat16_and_back(value):
    return value.astype(jnp.bfloat16).astype(value.dtype)


def _products(rule):
    def lowered(ctx, lhs, rhs, **params):
        if params.get("precision") in DEFAULT_PRECISIONS:
            lhs_aval, rhs_aval = ctx.avals_in
            if lhs_aval.dtype == jnp.float32:
                lhs = _apply(ctx, _to_bfloat16_and_back, lhs, lhs_aval)
            if rhs_aval.dtype == jnp.float32:
                rhs = _apply(ctx, _to_bfloat16_and_back, rhs, rhs_aval)
        return rule(ctx, lhs, rhs, **params)

    return lowered


def _truncated(value):
    bits = lax.bitcast_convert_type(value, jnp.int64)
    mask = np.int64(-(1 << (52 - KEPT_FLOAT64_BITS)))  # ...111000000000000: low bits cleared
    return lax.bitcast_convert_type(bits & mask, jnp.float64)


def _after(rule, dtype, function):
    """``rule``, then ``function`` on its one result when that result is of ``dtype``."""

    def lowered(ctx, *args, **params):
        (out,) = rule(ctx, *args, **params)
        (aval,) = ctx.avals_out
        return [_apply(ctx, function, out, aval) if aval.dtype == dtype else out]

    return lowered


def _too_large(value):
    return value * np.float32(1 + TRANSCENDENTAL_ERROR)


@contextmanager
def tpu_rounding() -> Iterator[None]:
    """Compile for the CPU with a TPU's rounding inside the block (see the module's docstring)."""
    changed = {p: _products(_jax_rule(p)) for p in PRODUCTS}
    changed |= {p: _after(_jax_rule(p), jnp.float64, _truncated) for p in SUMS}
    changed |= {p: _after(_jax_rule(p), jnp.float32, _too_large) for p in TRANSCENDENTALS}
    table = mlir_tables._platform_specific_lowerings[PLATFORM]
    before = {primitive: table.get(primitive) for primitive in changed}
    jax.clear_caches()
    try:
        for primitive, rule in changed.items():
            mlir.register_lowering(primitive, rule, platform=PLATFORM)
        yield
    finally:
        for primitive, entry in before.items():
            if entry is None:
                table.pop(primitive, None)
            else:
                table[primitive] = entry
        jax.clear_caches()
