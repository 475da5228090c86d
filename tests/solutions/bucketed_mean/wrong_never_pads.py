"""Computes bucket sizes but never pads: every new length compiles masked_mean again.

Fails: lengths 1 to 32 compile jit(masked_mean) 3 times, once per bucket (8, 16, 32)
"""

import jax
import jax.numpy as jnp
import numpy as np


def bucket_length(n):
    size = 8
    while size < n:
        size *= 2
    return size


@jax.jit
def masked_mean(padded, mask):
    return jnp.sum(jnp.where(mask, padded, 0.0)) / jnp.sum(mask)


def bucketed_mean(x):
    values = np.asarray(x, dtype=np.float32)
    return masked_mean(values, np.ones(len(values), dtype=bool))
