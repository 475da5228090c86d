"""Loops until the tolerance is met, with no step limit: a tolerance that can never be met
(or a NaN) spins forever.

Fails: stops after a capped number of steps when the tolerance can never be met (tol=-1)
"""

import jax.numpy as jnp
from jax import jit, lax


@jit
def newton_sqrt(a, tol):
    start = jnp.where(a < 1.0, 1.0, a)
    root, _, steps = lax.while_loop(
        lambda s: jnp.abs(s[0] - s[1]) >= tol,
        lambda s: (0.5 * (s[0] + a / s[0]), s[0], s[2] + 1),
        (start, start + 1.0, 0),
    )
    return root, steps
