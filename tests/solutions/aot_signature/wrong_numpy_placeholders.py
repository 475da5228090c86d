"""Lowers with NumPy zeros instead of specs: no extra compilation, but real arrays are made.

Fails: compile_score makes no arrays, not even NumPy ones (memory stays far below one x)
"""

import jax
import jax.numpy as jnp
import numpy as np


def score(x, w):
    return jnp.tanh(x @ w)


def compile_score(batch):
    x = np.zeros((batch, 3), np.float32)  # only there to carry a shape and a dtype
    w = np.zeros(3, np.float32)
    return jax.jit(score).lower(x, w).compile()


predictions = {1: True, 2: False, 3: True, 4: False, 5: False, 6: False}
