"""Asks for full precision in a hand-written gradient's first product only.

Fails: every matrix product in sgd_step's program asks for HIGHEST precision
"""

import jax
import jax.numpy as jnp


@jax.jit(donate_argnums=0)
def sgd_step(w, X, y, lr):
    residual = jnp.matmul(X, w, precision="highest") - y
    return w - lr * 2 * (X.T @ residual) / y.shape[0]  # this product is at DEFAULT


def fit(w, X, y, lr, steps):
    for _ in range(steps):
        w = sgd_step(w, X, y, lr)
    return w
