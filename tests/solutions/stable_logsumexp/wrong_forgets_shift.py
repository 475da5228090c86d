"""Shifts by the row's largest value but never adds it back: every row comes out too small.

Fails: matches a float64 reference on ordinary rows (values between -5 and 5)
"""

import jax
import jax.numpy as jnp


@jax.jit
def logsumexp(x):
    top = jnp.max(x, axis=-1, keepdims=True)
    top = jnp.where(jnp.isfinite(top), top, 0.0)
    return jnp.log(jnp.sum(jnp.exp(x - top), axis=-1))
