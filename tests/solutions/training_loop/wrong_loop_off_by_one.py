"""The Python-loop version starts counting at 1 and so runs one step fewer than asked.

Fails: fit_fori and fit_python_loop agree (same data, rate and 8 steps, to 1e-4)
"""

import jax.numpy as jnp
from jax import jit, lax


@jit
def descent_step(w, b, xs, ys, rate):
    residual = w * xs + b - ys
    return w - rate * jnp.mean(2 * residual * xs), b - rate * jnp.mean(2 * residual)


def fit_python_loop(w, b, xs, ys, rate, steps):
    for _ in range(1, steps):
        w, b = descent_step(w, b, xs, ys, rate)
    return w, b


@jit
def fit_fori(w, b, xs, ys, rate, steps):
    return lax.fori_loop(0, steps, lambda _, p: descent_step(*p, xs, ys, rate), (w, b))
