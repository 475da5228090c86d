"""Wraps the Python loop in jax.jit with a static step count: the top-level jaxpr is one call,
but the program inside it still holds one copy of the step per iteration.

Fails: spring's jaxpr has as many equations for 1,000 steps as for 10 (nested ones counted)
"""

from functools import partial

import jax

DT, STIFFNESS, DAMPING = 0.05, 4.0, 0.5


@partial(jax.jit, static_argnames="steps")
def spring(position, velocity, steps):
    for _ in range(steps):
        velocity = velocity - DT * (STIFFNESS * position + DAMPING * velocity)
        position = position + DT * velocity
    return position, velocity
