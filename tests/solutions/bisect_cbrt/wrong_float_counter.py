"""Counts steps in a float carry, so the step count comes back as a float.

Fails: returns the step count as an integer scalar
"""

import jax
from jax import lax
from jax import numpy as jnp


@jax.jit
def bisect_cbrt(v, tol, max_steps):
    def keep_going(state):
        lo, hi, steps = state
        return (hi - lo > tol) & (steps < max_steps)

    def halve(state):
        lo, hi, steps = state
        mid = (lo + hi) / 2
        below = mid * mid * mid < v
        return jnp.where(below, mid, lo), jnp.where(below, hi, mid), steps + 1.0

    start = (jnp.zeros_like(v), jnp.maximum(v, 1.0), jnp.float32(0))
    lo, hi, steps = lax.while_loop(keep_going, halve, start)
    return (lo + hi) / 2, steps
