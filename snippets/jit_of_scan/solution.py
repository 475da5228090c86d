import jax
from jax import lax
from jax import numpy as jnp


@jax.jit
def jit_scan_sum(x):
    def add_one(total, value):
        return total + value, None  # new carry; nothing stacked per step

    start = jnp.zeros((), dtype=x.dtype)  # a 0-d zero of the input's own dtype
    total, stacked = lax.scan(add_one, start, x)
    assert stacked is None  # a step output of None stacks nothing
    return total
