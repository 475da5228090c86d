"""Accumulates in float32 and casts back at the end: float64 inputs lose their precision.

Fails: float64 in, float64 out (with x64 enabled), summed in float64: ten 0.1s
"""

import jax
from jax import lax
from jax import numpy as jnp


@jax.jit
def jit_scan_sum(x):
    total, _ = lax.scan(lambda c, v: (c + v.astype(jnp.float32), None), jnp.float32(0), x)
    return total.astype(x.dtype)
