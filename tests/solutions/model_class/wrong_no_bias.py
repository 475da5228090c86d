"""A correct pytree class whose predict forgets to add the bias.

Fails: predict gives activation(x @ weight + bias) for relu, tanh and identity
"""

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp

ACTIVATIONS = {"relu": jax.nn.relu, "tanh": jnp.tanh, "identity": lambda h: h}


@jax.tree_util.register_dataclass
@dataclass
class Affine:
    weight: jax.Array
    bias: jax.Array
    activation: str = field(metadata=dict(static=True))

    @jax.jit
    def predict(self, x):
        return ACTIVATIONS[self.activation](x @ self.weight)
