"""Exercise "newton_sqrt": Newton's method for square roots, as one jitted while_loop.

newton_sqrt(a, tol) -> (root, iterations)
"""

import jax.numpy as jnp
from jax import jit, lax

MAX_STEPS = 60  # a cap, so a tolerance that can never be met still ends the loop


@jit
def newton_sqrt(a, tol):
    start = jnp.where(a < 1.0, 1.0, a)  # sqrt(a) lies between a and 1

    def keep_going(state):
        guess, previous, steps = state
        return (jnp.abs(guess - previous) >= tol) & (steps < MAX_STEPS)

    def improve(state):
        guess, _, steps = state
        return 0.5 * (guess + a / guess), guess, steps + 1

    # previous = start + 1 makes the first test fail to converge, so at least one step runs.
    root, _, steps = lax.while_loop(keep_going, improve, (start, start + 1.0, 0))
    return root, steps
