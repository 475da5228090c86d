"""Takes the gradient of the summed squared error, not of its mean: steps 32 times too long.

Fails: sgd_step is one step on the mean squared error, to 1e-4 of a float64 reference
"""

import jax
import jax.numpy as jnp


def loss(w, X, y):
    return jnp.sum((jnp.matmul(X, w, precision="highest") - y) ** 2)


@jax.jit(donate_argnums=0)
def sgd_step(w, X, y, lr):
    return w - lr * jax.grad(loss)(w, X, y)


def fit(w, X, y, lr, steps):
    for _ in range(steps):
        w = sgd_step(w, X, y, lr)
    return w
