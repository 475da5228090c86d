"""Sums every entry of the bucket, padding included, then divides by the real count.

Fails: masked_mean ignores masked-out entries: [1, 2, 100, 100] with mask [T, T, F, F] is 1.5
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
    return jnp.sum(padded) / jnp.sum(mask)


def bucketed_mean(x):
    values = np.asarray(x, dtype=np.float32)
    size = bucket_length(len(values))
    padded = np.zeros(size, dtype=np.float32)
    padded[: len(values)] = values
    return masked_mean(padded, np.arange(size) < len(values))
