"""Decays the learning rate with a Python number outside jit: a copy to the device per step.

Fails: fit runs under jax.transfer_guard('disallow'): no copy to the device it was not given
"""

import jax
import jax.numpy as jnp


def loss(w, X, y):
    return jnp.mean((jnp.matmul(X, w, precision="highest") - y) ** 2)


@jax.jit(donate_argnums=0)
def sgd_step(w, X, y, lr):
    return w - lr * jax.grad(loss)(w, X, y)


def fit(w, X, y, lr, steps):
    for _ in range(steps):
        w = sgd_step(w, X, y, lr)
        lr = lr * 1.0  # "no decay yet": still a Python float meeting a device array
    return w
