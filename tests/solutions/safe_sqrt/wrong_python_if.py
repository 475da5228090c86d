"""Takes a Python shortcut when every element is positive: fine eagerly, breaks under jit.

Fails: runs under jax.jit (no Python if on array values)
"""

import jax.numpy as jnp


def safe_sqrt(x):
    if jnp.all(x > 0):
        return jnp.sqrt(x)
    inside = jnp.where(x > 0, x, 1.0)
    return jnp.where(x > 0, jnp.sqrt(inside), 0.0).astype(x.dtype)
