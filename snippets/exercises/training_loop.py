"""Exercise "training_loop": gradient descent for y ≈ w·x + b as a pure, jitted fori_loop.

descent_step(w, b, xs, ys, rate)            one step on the mean squared error
fit_python_loop(w, b, xs, ys, rate, steps)  a Python loop: one jitted call per step
fit_fori(w, b, xs, ys, rate, steps)         the whole loop in one compiled program
"""

import jax.numpy as jnp
from jax import jit, lax


@jit
def descent_step(w, b, xs, ys, rate):
    residual = w * xs + b - ys  # d/dw mean(r²) = mean(2 r x), d/db mean(r²) = mean(2 r)
    return w - rate * jnp.mean(2 * residual * xs), b - rate * jnp.mean(2 * residual)


def fit_python_loop(w, b, xs, ys, rate, steps):
    for _ in range(steps):
        w, b = descent_step(w, b, xs, ys, rate)
    return w, b


@jit
def fit_fori(w, b, xs, ys, rate, steps):
    def one_step(_, params):  # descent_step is jitted too: it compiles as part of fit_fori
        return descent_step(*params, xs, ys, rate)

    return lax.fori_loop(0, steps, one_step, (w, b))
