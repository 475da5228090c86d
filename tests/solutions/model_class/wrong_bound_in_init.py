"""Jits the bound method once per object in __init__: every object compiles its own program.

Fails: a second Affine with new weights compiles nothing and gives its own result
"""

import jax
import jax.numpy as jnp

ACTIVATIONS = {"relu": jax.nn.relu, "tanh": jnp.tanh, "identity": lambda h: h}


class Affine:
    def __init__(self, weight, bias, activation):
        self.weight = weight
        self.bias = bias
        self.activation = activation
        self.predict = jax.jit(self._predict)

    def _predict(self, x):
        return ACTIVATIONS[self.activation](x @ self.weight + self.bias)
