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
    total = jnp.sum(jnp.where(mask, padded, 0.0))
    return total / jnp.sum(mask)  # count only the real entries


def bucketed_mean(x):
    values = np.asarray(x, dtype=np.float32)
    size = bucket_length(len(values))
    padded = np.zeros(size, dtype=np.float32)  # padding happens in NumPy, outside jit
    padded[: len(values)] = values
    mask = np.arange(size) < len(values)
    return masked_mean(padded, mask)
