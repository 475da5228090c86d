"""Keeps the reduced axis: shape (4, 1) instead of (4,).

Fails: runs under jax.jit and returns one value per row: shape (4, 3) in, (4,) out
"""

import jax
import jax.numpy as jnp


@jax.jit
def logsumexp(x):
    top = jnp.max(x, axis=-1, keepdims=True)
    top = jnp.where(jnp.isfinite(top), top, 0.0)
    return jnp.log(jnp.sum(jnp.exp(x - top), axis=-1, keepdims=True)) + top
