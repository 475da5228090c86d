"""Marks n static: every new count traces and compiles the function again.

Fails: decorated with jax.jit: calls with n = 3, 7, 11 compile jit(logistic_steps) once
"""

from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames="n")
def logistic_steps(x0, r, n):
    return lax.fori_loop(0, n, lambda k, x: r * x * (1 - x), x0)
