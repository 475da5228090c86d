"""Always runs 20 Newton steps with fori_loop, so the tolerance changes nothing.

Fails: a tighter tolerance takes more iterations: tol=1e-1 versus tol=1e-6 for a=5
"""

import jax.numpy as jnp
from jax import jit, lax


@jit
def newton_sqrt(a, tol):
    start = jnp.where(a < 1.0, 1.0, a)
    root = lax.fori_loop(0, 20, lambda _, x: 0.5 * (x + a / x), start)
    return root, 20
