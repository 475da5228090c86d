"""Declares a fixed shape of 5 gains: right for five ids, wrong for any other shape.

Fails: the callback's result is declared as float32 in the shape of ids (a 2x3 and a scalar)
"""

import jax
import jax.numpy as jnp
import numpy as np

GAINS = {0: 1.0, 1: 0.5, 2: 2.0, 3: 1.25, 4: 0.8}


def lookup_gains(ids):
    ids = np.asarray(ids)
    gains = [GAINS[int(i)] for i in ids.ravel()]
    return np.asarray(gains, dtype=np.float32).reshape(ids.shape)


@jax.jit
def calibrate(ids, readings):
    gains_type = jax.ShapeDtypeStruct((5,), jnp.float32)
    return readings * jax.pure_callback(lookup_gains, gains_type, ids, vmap_method="expand_dims")
