"""Checks for the exercise "stable_logsumexp": ``logsumexp(x)``, the log of the sum of the
exponentials along the last axis, finite and right in float32 under jax.jit for any input.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from check_solution import NotChecked, check

# A TPU's float32 exp and log are each about 1e-5 off NumPy's, relative (_device.py), so there
# log(sum(exp(x))) moves by about 2e-5, absolute, whatever the row: allowed five times over. A
# wrong answer is off by whole units, or inf, or NaN.
ATOL = 1e-4

ORDINARY = [[0.5, -1.0, 2.0], [3.0, 3.0, 3.0], [-4.5, 0.0, 4.5], [1.0, -5.0, 0.25]]


def _function(module):
    fn = getattr(module, "logsumexp", None)
    assert callable(fn), "expected a function named logsumexp at module scope, got none"
    return fn


def _reference(rows):
    """log(sum(exp(row))) for each row, in float64 NumPy, shifted so that nothing overflows."""
    rows = np.asarray(rows, dtype=np.float64)
    top = rows.max(axis=-1, keepdims=True)
    return (top + np.log(np.exp(rows - top).sum(axis=-1, keepdims=True)))[..., 0]


def _jitted(module, rows, dtype=jnp.float32):
    """``jax.jit(logsumexp)`` on ``rows``, as a jax.Array."""
    fn = _function(module)
    return jnp.asarray(jax.jit(fn)(jnp.asarray(rows, dtype)))


def _values(module, rows):
    got = _jitted(module, rows)
    want_shape = np.shape(rows)[:-1]
    if got.shape != want_shape:
        raise NotChecked(f"because logsumexp returned shape {got.shape}, not {want_shape}")
    return np.asarray(got, dtype=np.float64)


def _compare(got, want, rows):
    # rtol: float32 itself, whose neighbouring values near 1000 are 6e-5 apart
    assert np.allclose(got, want, rtol=1e-5, atol=ATOL), (
        f"expected {np.round(want, 4).tolist()} for rows {rows}, got {np.round(got, 4).tolist()}"
    )


@check("runs under jax.jit and returns one value per row: shape (4, 3) in, (4,) out")
def one_value_per_row(module):
    got = _jitted(module, ORDINARY)
    assert got.shape == (4,), (
        f"expected shape (4,) for an input of shape (4, 3), got {got.shape}: reduce over the "
        "last axis only, without keepdims"
    )


@check("matches a float64 reference on ordinary rows (values between -5 and 5)")
def ordinary_values(module):
    _compare(_values(module, ORDINARY), _reference(ORDINARY), ORDINARY)


@check("large inputs under jit: the row [1000, 1000, 999] gives about 1000.86, not inf")
def large_inputs(module):
    rows = [[1000.0, 1000.0, 999.0], [90.0, 0.0, -90.0]]
    got, want = _values(module, rows), _reference(rows)
    assert np.all(np.isfinite(got)), (
        f"expected finite values {np.round(want, 4).tolist()}, got {got.tolist()}: exp(1000) "
        "overflows float32, so shift the row by its largest value before exp"
    )
    _compare(got, want, rows)


@check("very negative inputs under jit: the row [-1000, -1000] gives about -999.31, not -inf")
def very_negative_inputs(module):
    rows = [[-1000.0, -1000.0], [-200.0, -150.0]]
    got, want = _values(module, rows), _reference(rows)
    assert np.all(np.isfinite(got)), (
        f"expected finite values {np.round(want, 4).tolist()}, got {got.tolist()}: exp(-1000) "
        "underflows to 0 in float32, so shift by the largest value even when it is negative"
    )
    _compare(got, want, rows)


@check("infinite entries: a row of -inf gives -inf and a row holding +inf gives inf, not NaN")
def infinite_entries(module):
    rows = [[-np.inf, -np.inf, -np.inf], [np.inf, 0.0, 1.0], [-np.inf, 0.0, 0.0]]
    got = _values(module, rows)
    rows = [[float(v) for v in row] for row in rows]
    want = [-np.inf, np.inf, round(float(np.log(2.0)), 4)]
    assert not np.any(np.isnan(got)), (
        f"expected {want} for rows {rows}, got {np.round(got, 4).tolist()}: with an infinite "
        "largest value, x - max is inf - inf = NaN; shift by 0 when the largest value is not "
        "finite"
    )
    log2 = np.isclose(got[2], np.log(2.0), rtol=0, atol=ATOL)
    assert got[0] == -np.inf and got[1] == np.inf and log2, (
        f"expected {want} for rows {rows}, got {got.tolist()}"
    )


@check("float32 in, float32 out, with x64 off and with x64 on")
def keeps_float32(module):
    got = _jitted(module, ORDINARY)
    assert got.dtype == jnp.float32, f"expected dtype float32, got {got.dtype.name}"
    with jax.enable_x64(True):
        wide = _jitted(module, ORDINARY)
    assert wide.dtype == jnp.float32, (
        f"expected dtype float32 under jax.enable_x64(True) too, got {wide.dtype.name}: keep "
        "the input's dtype (no astype(float64), no NumPy float64 scalars)"
    )


@check("the gradient under jit is the softmax of the row, finite for [1000, 1000, 0]")
def gradient_is_softmax(module):
    fn = _function(module)
    rows = jnp.asarray([[1000.0, 1000.0, 0.0], [0.5, -1.0, 2.0]], jnp.float32)
    try:
        slopes = jax.jit(jax.grad(lambda r: jnp.sum(fn(r))))(rows)
    except TypeError as error:
        raise NotChecked(f"because logsumexp cannot be differentiated ({error})") from None
    slopes = np.asarray(slopes, dtype=np.float64)
    want = np.asarray(jax.nn.softmax(rows, axis=-1), dtype=np.float64)
    assert np.all(np.isfinite(slopes)), (
        f"expected finite gradients {np.round(want, 4).tolist()}, got "
        f"{np.round(slopes, 4).tolist()}: a "
        "branch you do not pick still reaches the gradient, so no side may overflow"
    )
    assert np.allclose(slopes, want, atol=ATOL), (
        f"expected gradients {np.round(want, 4).tolist()} (the softmax), got "
        f"{np.round(slopes, 4).tolist()}"
    )
