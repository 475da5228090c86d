"""Uses io_callback for a lookup: it works, but promises effects a lookup does not have, and
runs once per row under vmap.

Fails: calibrate gets the gains through jax.pure_callback
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

GAINS = {0: 1.0, 1: 0.5, 2: 2.0, 3: 1.25, 4: 0.8}


def lookup_gains(ids):
    ids = np.asarray(ids)
    gains = [GAINS[int(i)] for i in ids.ravel()]
    return np.asarray(gains, dtype=np.float32).reshape(ids.shape)


@jax.jit
def calibrate(ids, readings):
    return readings * io_callback(lookup_gains, jax.ShapeDtypeStruct(ids.shape, jnp.float32), ids)
