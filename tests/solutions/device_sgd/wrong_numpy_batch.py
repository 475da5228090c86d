"""Turns the batch into NumPy arrays in fit, so every step copies it to the device again.

Fails: fit runs under jax.transfer_guard('disallow'): no copy to the device it was not given
"""

import jax
import jax.numpy as jnp
import numpy as np


def loss(w, X, y):
    return jnp.mean((jnp.matmul(X, w, precision="highest") - y) ** 2)


@jax.jit(donate_argnums=0)
def sgd_step(w, X, y, lr):
    return w - lr * jax.grad(loss)(w, X, y)


def fit(w, X, y, lr, steps):
    X, y = np.asarray(X), np.asarray(y)  # host copies, sent back on every call
    for _ in range(steps):
        w = sgd_step(w, X, y, lr)
    return w
