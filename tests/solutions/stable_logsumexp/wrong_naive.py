"""The formula as written: exp(1000) overflows float32, so large rows give inf.

Fails: large inputs under jit: the row [1000, 1000, 999] gives about 1000.86, not inf
"""

import jax
import jax.numpy as jnp


@jax.jit
def logsumexp(x):
    return jnp.log(jnp.sum(jnp.exp(x), axis=-1))
