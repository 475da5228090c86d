"""Marks tol static: right answers, but every new tolerance compiles a new program.

Fails: new values of a and tol reuse the compiled program (tol is traced, not static)
"""

from functools import partial

import jax.numpy as jnp
from jax import jit, lax


@partial(jit, static_argnames="tol")
def newton_sqrt(a, tol):
    start = jnp.where(a < 1.0, 1.0, a)
    root, _, steps = lax.while_loop(
        lambda s: (jnp.abs(s[0] - s[1]) >= tol) & (s[2] < 50),
        lambda s: (0.5 * (s[0] + a / s[0]), s[0], s[2] + 1),
        (start, start + 1.0, 0),
    )
    return root, steps
