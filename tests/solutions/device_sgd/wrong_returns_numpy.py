"""Returns the parameters as a NumPy array: a copy to the host the caller did not ask for.

Fails: fit gives the reference's w after 40 steps, as a jax.Array
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
    for _ in range(steps):
        w = sgd_step(w, X, y, lr)
    return np.asarray(w)
