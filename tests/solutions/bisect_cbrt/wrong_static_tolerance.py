"""Makes tol static so a Python loop can test it: each new tolerance compiles again.

Fails: decorated with jax.jit: tol = 1e-2, 1e-4, 1e-6 compile jit(bisect_cbrt) once
"""

from functools import partial

import jax
from jax import lax
from jax import numpy as jnp


@partial(jax.jit, static_argnames=("tol", "max_steps"))
def bisect_cbrt(v, tol, max_steps):
    tol = float(tol)

    def halve(state):
        lo, hi, steps = state
        mid = (lo + hi) / 2
        below = mid * mid * mid < v
        return jnp.where(below, mid, lo), jnp.where(below, hi, mid), steps + 1

    def keep_going(state):
        lo, hi, steps = state
        return (hi - lo > tol) & (steps < max_steps)

    lo, hi, steps = lax.while_loop(keep_going, halve, (jnp.zeros_like(v), jnp.maximum(v, 1.0), 0))
    return (lo + hi) / 2, steps
