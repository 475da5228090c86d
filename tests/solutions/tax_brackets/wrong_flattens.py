"""Flattens the input before choosing, so a 3x4 grid of incomes comes back as 12 numbers.

Fails: tax_vectorized keeps the input's shape: 3x4 incomes in, 3x4 taxes out
"""

import jax.numpy as jnp
from jax import lax


def tax_switch(income):
    bracket = jnp.sum(income >= jnp.array([12_000.0, 45_000.0, 110_000.0]))
    branches = [
        lambda v: v * 0.0,
        lambda v: (v - 12_000) * 0.15,
        lambda v: 4_950 + (v - 45_000) * 0.25,
        lambda v: 21_200 + (v - 110_000) * 0.35,
    ]
    return lax.switch(bracket, branches, income)


def tax_vectorized(income):
    flat = jnp.ravel(income)
    return jnp.select(
        [flat >= 110_000, flat >= 45_000, flat >= 12_000],
        [21_200 + (flat - 110_000) * 0.35, 4_950 + (flat - 45_000) * 0.25, (flat - 12_000) * 0.15],
        default=0.0,
    )
