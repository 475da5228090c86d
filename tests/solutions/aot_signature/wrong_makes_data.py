"""Makes arrays of zeros to lower with, which compiles JAX's own array-making programs too.

Fails: compile_score compiles exactly one program (no arrays made to get shapes)
"""

import jax
import jax.numpy as jnp


def score(x, w):
    return jnp.tanh(x @ w)


def compile_score(batch):
    return jax.jit(score).lower(jnp.zeros((batch, 3)), jnp.zeros(3)).compile()


predictions = {1: True, 2: False, 3: True, 4: False, 5: False, 6: False}
