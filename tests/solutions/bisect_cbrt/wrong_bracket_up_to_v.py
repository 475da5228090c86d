"""Brackets the root with [0, v]: for v < 1 the cube root is larger than v and is missed.

Fails: inputs below 1 use the bracket [0, 1]: v = 0.125 gives 0.5, v = 0 gives about 0
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
        return jnp.where(below, mid, lo), jnp.where(below, hi, mid), steps + 1

    lo, hi, steps = lax.while_loop(keep_going, halve, (jnp.zeros_like(v), v, 0))
    return (lo + hi) / 2, steps
