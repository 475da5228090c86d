"""Checks for the practice-track lesson "cond vs where": ``safe_sqrt(x)``."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from check_solution import check

MIXED = [-4.0, -0.5, 0.0, 0.25, 9.0]


def _function(module):
    fn = getattr(module, "safe_sqrt", None)
    assert callable(fn), "expected a function named safe_sqrt at module scope, got none"
    return fn


def _expected(values):
    values = np.asarray(values, dtype=np.float64)
    return np.where(values > 0, np.sqrt(np.maximum(values, 0)), 0.0)


def _gradient(fn, values):
    return np.asarray(jax.grad(lambda v: jnp.sum(fn(v)))(jnp.asarray(values, jnp.float32)))


@check("values: sqrt(x) where x > 0 and 0 elsewhere, for [-4, -0.5, 0, 0.25, 9]")
def values_on_mixed_signs(module):
    got = np.asarray(_function(module)(jnp.asarray(MIXED, jnp.float32)), dtype=np.float64)
    want = _expected(MIXED)
    assert got.shape == want.shape and np.allclose(got, want), (
        f"expected {want.tolist()}, got {got.tolist()}"
    )


@check("keeps the shape of a 2-D input and the dtype (float32 and float16)")
def keeps_shape_and_dtype(module):
    fn = _function(module)
    for dtype in (jnp.float32, jnp.float16):
        x = jnp.asarray([[1.0, -1.0, 4.0], [0.0, 16.0, -9.0]], dtype)
        got = jnp.asarray(fn(x))
        assert got.shape == x.shape, f"expected shape {x.shape}, got {got.shape}"
        assert got.dtype == x.dtype, f"expected dtype {x.dtype.name}, got {got.dtype.name}"


@check("runs under jax.jit (no Python if on array values)")
def runs_under_jit(module):
    got = np.asarray(jax.jit(_function(module))(jnp.asarray(MIXED, jnp.float32)), np.float64)
    assert np.allclose(got, _expected(MIXED)), (
        f"expected {_expected(MIXED).tolist()}, got {got.tolist()}"
    )


@check("gradient is 0, not NaN or inf, where x <= 0")
def gradient_is_zero_where_not_positive(module):
    grad = _gradient(_function(module), [-4.0, -0.5, 0.0])
    assert np.all(np.isfinite(grad)), (
        f"expected finite gradients [0, 0, 0] at x = [-4, -0.5, 0], got {grad.tolist()}: "
        "the slope of sqrt at or below 0 still reaches the gradient"
    )
    assert np.all(grad == 0.0), f"expected gradients [0, 0, 0], got {grad.tolist()}"


@check("gradient is 1 / (2 sqrt(x)) where x > 0")
def gradient_where_positive(module):
    grad = _gradient(_function(module), [0.25, 1.0, 9.0])
    want = [1.0, 0.5, 1.0 / 6.0]
    assert np.allclose(grad, want, rtol=1e-5), f"expected {want}, got {grad.tolist()}"


@check("gradient of the jitted function is finite too (jax.jit(jax.grad(...)))")
def gradient_under_jit(module):
    fn = _function(module)
    grad_fn = jax.jit(jax.grad(lambda v: jnp.sum(fn(v))))
    grad = np.asarray(grad_fn(jnp.asarray(MIXED, jnp.float32)))
    want = np.where(np.asarray(MIXED) > 0, 0.5 / np.sqrt(np.maximum(MIXED, 1e-30)), 0.0)
    assert np.allclose(grad, want, rtol=1e-5), f"expected {want.tolist()}, got {grad.tolist()}"
