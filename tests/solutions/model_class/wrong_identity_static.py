"""Makes self static without __hash__/__eq__: the object is its own cache key, so a weight
assigned after the first call is never used.

Fails: a reassigned weight, bias or activation is used by the next predict (no stale result)
"""

from functools import partial

import jax
import jax.numpy as jnp

ACTIVATIONS = {"relu": jax.nn.relu, "tanh": jnp.tanh, "identity": lambda h: h}


class Affine:
    def __init__(self, weight, bias, activation):
        self.weight = weight
        self.bias = bias
        self.activation = activation

    @partial(jax.jit, static_argnums=0)
    def predict(self, x):
        return ACTIVATIONS[self.activation](x @ self.weight + self.bias)
