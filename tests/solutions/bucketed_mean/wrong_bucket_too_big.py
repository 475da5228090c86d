"""Rounds with 2 ** n.bit_length(): a length that is already a power of two jumps a bucket.

Fails: bucket_length rounds up to a power of two, at least 8: 1->8, 8->8, 9->16, 17->32, 100->128
"""

import jax
import jax.numpy as jnp
import numpy as np


def bucket_length(n):
    return max(8, 2 ** n.bit_length())


@jax.jit
def masked_mean(padded, mask):
    return jnp.sum(jnp.where(mask, padded, 0.0)) / jnp.sum(mask)


def bucketed_mean(x):
    values = np.asarray(x, dtype=np.float32)
    size = bucket_length(len(values))
    padded = np.zeros(size, dtype=np.float32)
    padded[: len(values)] = values
    return masked_mean(padded, np.arange(size) < len(values))
