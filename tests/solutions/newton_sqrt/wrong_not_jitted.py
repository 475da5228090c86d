"""A correct while_loop, but the function itself is never jitted.

Fails: newton_sqrt is wrapped in jax.jit
"""

import jax.numpy as jnp
from jax import lax


def newton_sqrt(a, tol):
    start = jnp.where(a < 1.0, 1.0, a)
    state = (start, start + 1.0, 0)
    root, _, steps = lax.while_loop(
        lambda s: (jnp.abs(s[0] - s[1]) >= tol) & (s[2] < 50),
        lambda s: (0.5 * (s[0] + a / s[0]), s[0], s[2] + 1),
        state,
    )
    return root, steps
