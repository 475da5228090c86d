"""Hard-codes 200 steps in the fori_loop, so steps is ignored.

Fails: steps is used: 5 and 6 steps give different parameters
"""

import jax.numpy as jnp
from jax import jit, lax


@jit
def descent_step(w, b, xs, ys, rate):
    residual = w * xs + b - ys
    return w - rate * jnp.mean(2 * residual * xs), b - rate * jnp.mean(2 * residual)


def fit_python_loop(w, b, xs, ys, rate, steps):
    for _ in range(steps):
        w, b = descent_step(w, b, xs, ys, rate)
    return w, b


@jit
def fit_fori(w, b, xs, ys, rate, steps):
    return lax.fori_loop(0, 200, lambda _, p: descent_step(*p, xs, ys, rate), (w, b))
