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

    start = (jnp.zeros_like(v), jnp.maximum(v, 1.0), jnp.int32(0))
    lo, hi, steps = lax.while_loop(keep_going, halve, start)
    return (lo + hi) / 2, steps
