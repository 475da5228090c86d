"""Exercise "shrink_the_trace": copy this file, write spring as asked, then run
python check.py shrink_the_trace <your file>
(check.py is on the site's "Run it yourself" page; in a clone: nox -s check -- ...)

spring_unrolled steps a damped spring with a Python loop. Under jax.jit (or jax.make_jaxpr) the
loop runs while tracing, so every step is copied into the program and the jaxpr grows with
steps. Write spring(position, velocity, steps): the same computation with lax.fori_loop or
lax.scan, whose jaxpr has as many equations for 1,000 steps as for 10.
"""

# The imports an answer needs (unused until you write it).
import jax.numpy as jnp  # noqa: F401
from jax import lax  # noqa: F401

DT, STIFFNESS, DAMPING = 0.05, 4.0, 0.5


def spring_unrolled(position, velocity, steps):
    """The slow-to-compile version: keep it to compare with."""
    for _ in range(steps):
        velocity = velocity - DT * (STIFFNESS * position + DAMPING * velocity)
        position = position + DT * velocity
    return position, velocity


def spring(position, velocity, steps):
    """Return (position, velocity) after `steps` steps, like spring_unrolled, with one lax loop."""
    raise NotImplementedError("write spring with lax.fori_loop or lax.scan")
