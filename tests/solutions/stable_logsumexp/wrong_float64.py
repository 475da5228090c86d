"""Computes in float64 "for safety": with x64 off that is float32 anyway (and a warning), but
under x64 the result comes back float64, twice the memory of the input.

Fails: float32 in, float32 out, with x64 off and with x64 on
"""

import jax
import jax.numpy as jnp


@jax.jit
def logsumexp(x):
    x = x.astype(jnp.float64)
    top = jnp.max(x, axis=-1, keepdims=True)
    top = jnp.where(jnp.isfinite(top), top, 0.0)
    return jnp.log(jnp.sum(jnp.exp(x - top), axis=-1)) + top[..., 0]
