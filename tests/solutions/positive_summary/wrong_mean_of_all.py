"""Zeroes the other entries, then takes the mean over all of them: divides by len(x), not by
the number of positive entries.

Fails: the mean of the positive entries matches NumPy on five random arrays
"""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="k")
def positive_summary(x, k):
    hits = x > 0
    return jnp.where(hits, x, 0.0).mean(), jnp.nonzero(hits, size=k, fill_value=-1)[0]
