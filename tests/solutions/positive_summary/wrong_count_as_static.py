"""Reads the number of positive entries eagerly and passes it as a static size to a jitted
helper: a new program for every new count, and positive_summary itself is not jitted.

Fails: five arrays of shape (8,) with different values compile one program, once
"""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("k", "count"))
def _summary(x, k, count):
    hits = x > 0
    mean = jnp.where(hits, x, 0.0).sum() / max(count, 1)
    return mean, jnp.nonzero(hits, size=k, fill_value=-1)[0]


def positive_summary(x, k):
    count = int((jnp.asarray(x) > 0).sum())  # a concrete number, read on the host
    return _summary(x, k=k, count=count)
