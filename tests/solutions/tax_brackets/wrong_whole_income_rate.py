"""Applies the bracket's rate to the whole income instead of only the slice inside it.

Fails: tax_switch matches a bracket-by-bracket NumPy reference at, below and above each edge
"""

import jax.numpy as jnp
from jax import lax

RATES = (0.0, 0.15, 0.25, 0.35)


def tax_switch(income):
    bracket = jnp.sum(income >= jnp.array([12_000.0, 45_000.0, 110_000.0]))
    return lax.switch(bracket, [lambda v, r=r: v * r for r in RATES], income)


def tax_vectorized(income):
    return jnp.select(
        [income >= 110_000, income >= 45_000, income >= 12_000],
        [income * 0.35, income * 0.25, income * 0.15],
        default=0.0,
    )
