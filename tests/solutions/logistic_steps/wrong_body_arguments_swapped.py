"""Writes the body as body(x, i): the loop index is used as the state.

Fails: one step: logistic_steps(0.2, 3.0, 1) is 3.0 * 0.2 * 0.8 = 0.48
"""

import jax
from jax import lax
from jax import numpy as jnp


@jax.jit
def logistic_steps(x0, r, n):
    def body(x, i):
        return (r * x * (1 - x)).astype(jnp.result_type(i))

    return lax.fori_loop(0, n, body, x0)
