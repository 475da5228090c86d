"""Donates the data as well as w: the batch is deleted after the first step.

Fails: sgd_step donates w, and only w: w is deleted after the call, no other buffer is offered
"""

from functools import partial

import jax
import jax.numpy as jnp


def loss(w, X, y):
    return jnp.mean((jnp.matmul(X, w, precision="highest") - y) ** 2)


@partial(jax.jit, donate_argnums=(0, 1))
def sgd_step(w, X, y, lr):
    return w - lr * jax.grad(loss)(w, X, y)


def fit(w, X, y, lr, steps):
    for _ in range(steps):
        w = sgd_step(w, X, y, lr)
    return w
