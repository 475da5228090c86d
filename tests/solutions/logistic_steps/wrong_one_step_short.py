"""Starts the loop at 1, so it applies the rule n - 1 times.

Fails: one step: logistic_steps(0.2, 3.0, 1) is 3.0 * 0.2 * 0.8 = 0.48
"""

import jax
from jax import lax


@jax.jit
def logistic_steps(x0, r, n):
    return lax.fori_loop(1, n, lambda i, x: r * x * (1 - x), x0)
