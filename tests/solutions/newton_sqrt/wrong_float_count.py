"""Counts iterations in a float carry, so the count comes back as 5.0, not 5.

Fails: returns an integer iteration count of at least 1
"""

import jax.numpy as jnp
from jax import jit, lax


@jit
def newton_sqrt(a, tol):
    start = jnp.where(a < 1.0, 1.0, a)
    root, _, steps = lax.while_loop(
        lambda s: (jnp.abs(s[0] - s[1]) >= tol) & (s[2] < 50),
        lambda s: (0.5 * (s[0] + a / s[0]), s[0], s[2] + 1.0),
        (start, start + 1.0, 0.0),
    )
    return root, steps
