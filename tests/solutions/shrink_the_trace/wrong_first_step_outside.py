"""Peels the first step off before the loop and runs the rest from 1: right for steps >= 1,
but steps=0 still moves the spring once.

Fails: spring with steps=0 returns the starting position and velocity unchanged
"""

from jax import lax

DT, STIFFNESS, DAMPING = 0.05, 4.0, 0.5


def one_step(_, state):
    position, velocity = state
    velocity = velocity - DT * (STIFFNESS * position + DAMPING * velocity)
    return position + DT * velocity, velocity


def spring(position, velocity, steps):
    state = one_step(0, (position, velocity))
    return lax.fori_loop(1, steps, one_step, state)
