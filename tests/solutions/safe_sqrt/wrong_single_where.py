"""One jnp.where: right values, but sqrt of negatives still feeds NaN into the gradient.

Fails: gradient is 0, not NaN or inf, where x <= 0
"""

import jax.numpy as jnp


def safe_sqrt(x):
    return jnp.where(x > 0, jnp.sqrt(x), 0.0).astype(x.dtype)
