"""Keeps reading the learning rate from a global: the rate argument is accepted but ignored.

Fails: rate=0 leaves w and b unchanged (the rate comes from the argument, not a global)
"""

import jax.numpy as jnp
from jax import jit, lax

LEARNING_RATE = 0.5


@jit
def descent_step(w, b, xs, ys, rate):
    residual = w * xs + b - ys
    return (
        w - LEARNING_RATE * jnp.mean(2 * residual * xs),
        b - LEARNING_RATE * jnp.mean(2 * residual),
    )


def fit_python_loop(w, b, xs, ys, rate, steps):
    for _ in range(steps):
        w, b = descent_step(w, b, xs, ys, rate)
    return w, b


@jit
def fit_fori(w, b, xs, ys, rate, steps):
    return lax.fori_loop(0, steps, lambda _, p: descent_step(*p, xs, ys, rate), (w, b))
