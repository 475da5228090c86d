"""Jits the Python loop with a static step count: it works, but tracing unrolls all the
steps into one long program instead of a loop.

Fails: fit_fori is jitted, and its compiled program holds a loop, not unrolled steps
"""

from functools import partial

import jax.numpy as jnp
from jax import jit


@jit
def descent_step(w, b, xs, ys, rate):
    residual = w * xs + b - ys
    return w - rate * jnp.mean(2 * residual * xs), b - rate * jnp.mean(2 * residual)


def fit_python_loop(w, b, xs, ys, rate, steps):
    for _ in range(steps):
        w, b = descent_step(w, b, xs, ys, rate)
    return w, b


fit_fori = partial(jit, static_argnames="steps")(fit_python_loop)
