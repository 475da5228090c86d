"""Compiles for 8 rows whatever batch it is given.

Fails: the Compiled takes float32[batch,3] and float32[3], for batch 8 and for batch 5
"""

import jax
import jax.numpy as jnp


def score(x, w):
    return jnp.tanh(x @ w)


def compile_score(batch):
    specs = (jax.ShapeDtypeStruct((8, 3), jnp.float32), jax.ShapeDtypeStruct((3,), jnp.float32))
    return jax.jit(score).trace(*specs).lower().compile()


predictions = {1: True, 2: False, 3: True, 4: False, 5: False, 6: False}
