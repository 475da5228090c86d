"""Returns the jitted function itself: it compiles on its first call, not ahead of time.

Fails: compile_score(batch) returns a jax.stages.Compiled
"""

import jax
import jax.numpy as jnp


def score(x, w):
    return jnp.tanh(x @ w)


def compile_score(batch):
    return jax.jit(score)


predictions = {1: True, 2: False, 3: True, 4: False, 5: False, 6: False}
