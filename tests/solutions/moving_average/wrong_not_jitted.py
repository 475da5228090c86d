"""Right numbers, but never jitted: nothing is compiled as jit(moving_average).

Fails: jitted, window static: a new window compiles once, new values of one shape compile nothing
"""

import jax.numpy as jnp


def moving_average(x, window):
    return jnp.convolve(x, jnp.ones(window, x.dtype) / window, mode="valid")
