"""Uses mode="same", so the output keeps len(x) values instead of len(x) - window + 1.

Fails: averages [1, 2, 3, 4, 5, 6] with window 3 to [2, 3, 4, 5]
"""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="window")
def moving_average(x, window):
    return jnp.convolve(x, jnp.ones(window, x.dtype) / window, mode="same")
