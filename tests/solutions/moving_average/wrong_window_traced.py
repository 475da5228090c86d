"""Jits the function but leaves window traced, so it cannot size the filter.

Fails: averages [1, 2, 3, 4, 5, 6] with window 3 to [2, 3, 4, 5]
"""

import jax
import jax.numpy as jnp


@jax.jit
def moving_average(x, window):
    return jnp.convolve(x, jnp.ones(window, x.dtype) / window, mode="valid")
