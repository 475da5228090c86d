"""Forgets to divide by the window: moving sums, not moving averages.

Fails: matches NumPy on 50 random values for windows 2, 5 and 10
"""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="window")
def moving_average(x, window):
    return jnp.convolve(x, jnp.ones(window, x.dtype), mode="valid")
