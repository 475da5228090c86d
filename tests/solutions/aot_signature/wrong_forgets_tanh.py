"""Compiles the product without the tanh: the right signature, the wrong program.

Fails: the Compiled computes tanh(x @ w)
"""

import jax
import jax.numpy as jnp


def compile_score(batch):
    specs = (jax.ShapeDtypeStruct((batch, 3), jnp.float32), jax.ShapeDtypeStruct((3,), jnp.float32))
    return jax.jit(jnp.matmul).trace(*specs).lower().compile()


predictions = {1: True, 2: False, 3: True, 4: False, 5: False, 6: False}
