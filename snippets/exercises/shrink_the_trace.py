"""Exercise "shrink_the_trace": a damped spring stepped by lax.fori_loop instead of a Python loop.

spring(position, velocity, steps) -> (position, velocity)
"""

from jax import lax

DT, STIFFNESS, DAMPING = 0.05, 4.0, 0.5


def spring_unrolled(position, velocity, steps):
    """The Python loop it replaces: one copy of the step per iteration in the jaxpr."""
    for _ in range(steps):
        velocity = velocity - DT * (STIFFNESS * position + DAMPING * velocity)
        position = position + DT * velocity
    return position, velocity


def spring(position, velocity, steps):
    def one_step(_, state):  # the body is traced once, whatever `steps` is
        position, velocity = state
        velocity = velocity - DT * (STIFFNESS * position + DAMPING * velocity)
        return position + DT * velocity, velocity

    return lax.fori_loop(0, steps, one_step, (position, velocity))
