"""Returns the stacked per-step values (running sums) instead of the final carry.

Fails: returns one scalar (shape ()), not the running sums
"""

import jax
from jax import lax
from jax import numpy as jnp


@jax.jit
def jit_scan_sum(x):
    def step(total, value):
        total = total + value
        return total, total

    _, running = lax.scan(step, jnp.zeros((), x.dtype), x)
    return running
