"""Static self hashed and compared by its activation only: objects share a program, but the
weights of the first object traced are baked into it.

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

    def __hash__(self):
        return hash(self.activation)

    def __eq__(self, other):
        return isinstance(other, Affine) and self.activation == other.activation

    @partial(jax.jit, static_argnums=0)
    def predict(self, x):
        return ACTIVATIONS[self.activation](x @ self.weight + self.bias)
