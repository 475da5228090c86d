"""A Python while loop inside a jitted function: the loop test is a traced boolean.

Fails: v, tol and max_steps may be traced: jax.jit(bisect_cbrt) works
"""

import jax
import jax.numpy as jnp


@jax.jit
def bisect_cbrt(v, tol, max_steps):
    lo, hi, steps = jnp.zeros_like(v), jnp.maximum(v, 1.0), 0
    while hi - lo > tol and steps < max_steps:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if mid**3 < v else (lo, mid)
        steps += 1
    return (lo + hi) / 2, steps
