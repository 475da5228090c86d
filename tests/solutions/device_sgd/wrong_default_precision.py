"""Leaves the products at DEFAULT precision: right on a CPU, one bfloat16 pass on a TPU.

Fails: every matrix product in sgd_step's program asks for HIGHEST precision
"""

import jax
import jax.numpy as jnp


def loss(w, X, y):
    return jnp.mean((X @ w - y) ** 2)


@jax.jit(donate_argnums=0)
def sgd_step(w, X, y, lr):
    return w - lr * jax.grad(loss)(w, X, y)


def fit(w, X, y, lr, steps):
    for _ in range(steps):
        w = sgd_step(w, X, y, lr)
    return w
