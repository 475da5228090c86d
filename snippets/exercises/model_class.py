"""Exercise "model_class": a layer class whose jitted predict compiles once per shape and
activation, never once per object, and always uses the object's current weights.

Affine(weight, bias, activation)  weight (n_in, n_out), bias (n_out,), activation a string
Affine.predict(x)                 activation(x @ weight + bias), jitted
"""

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp

ACTIVATIONS = {"relu": jax.nn.relu, "tanh": jnp.tanh, "identity": lambda h: h}


@jax.tree_util.register_dataclass
@dataclass
class Affine:
    weight: jax.Array  # a traced leaf: new values reuse the program
    bias: jax.Array
    activation: str = field(metadata=dict(static=True))  # part of the cache key

    @jax.jit
    def predict(self, x):  # self arrives flattened: its arrays are traced, activation is not
        return ACTIVATIONS[self.activation](x @ self.weight + self.bias)
