"""Renames the Python loop instead of rewriting it: every step is still copied into the jaxpr.

Fails: spring's jaxpr has as many equations for 1,000 steps as for 10 (nested ones counted)
"""

DT, STIFFNESS, DAMPING = 0.05, 4.0, 0.5


def spring(position, velocity, steps):
    for _ in range(steps):
        velocity = velocity - DT * (STIFFNESS * position + DAMPING * velocity)
        position = position + DT * velocity
    return position, velocity
