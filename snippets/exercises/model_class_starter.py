"""Exercise "model_class": copy this file, rewrite it as asked, then run
python check.py model_class <your file>
(check.py is on the site's "Run it yourself" page; in a clone: nox -s check -- ...)

Affine(weight, bias, activation).predict(x) computes activation(x @ weight + bias). The
arithmetic below is right, but calling predict fails: @jax.jit cannot take this self. Make it
work so that:
- predict runs as one jitted function;
- a new object with new weights of the same shapes and the same activation compiles nothing;
- after obj.weight, obj.bias or obj.activation is reassigned, obj.predict uses the new value;
- predict keeps no tracer anywhere once it returns.
"""

import jax
import jax.numpy as jnp

ACTIVATIONS = {"relu": jax.nn.relu, "tanh": jnp.tanh, "identity": lambda h: h}


class Affine:
    def __init__(self, weight, bias, activation):
        self.weight = weight
        self.bias = bias
        self.activation = activation

    @jax.jit
    def predict(self, x):
        return ACTIVATIONS[self.activation](x @ self.weight + self.bias)
