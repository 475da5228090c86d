"""Pads correctly but averages over the whole bucket, so the zeros drag the mean down.

Fails: padding never counts: bucketed_mean([5.0]) is 5.0, not 5.0 / 8
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
    return jnp.mean(padded)


def bucketed_mean(x):
    values = np.asarray(x, dtype=np.float32)
    size = bucket_length(len(values))
    padded = np.zeros(size, dtype=np.float32)
    padded[: len(values)] = values
    return masked_mean(padded, np.arange(size) < len(values))
