"""Forgets the top bracket: lax.switch clamps index 3 to the last branch, so 25% is charged
above 110,000 instead of 35%, and nothing raises.

Fails: tax_switch matches a bracket-by-bracket NumPy reference at, below and above each edge
"""

import jax.numpy as jnp
from jax import lax


def tax_switch(income):
    bracket = jnp.sum(income >= jnp.array([12_000.0, 45_000.0, 110_000.0]))
    branches = [
        lambda v: v * 0.0,
        lambda v: (v - 12_000) * 0.15,
        lambda v: 4_950 + (v - 45_000) * 0.25,
    ]
    return lax.switch(bracket, branches, income)


def tax_vectorized(income):
    return jnp.select(
        [income >= 110_000, income >= 45_000, income >= 12_000],
        [
            21_200 + (income - 110_000) * 0.35,
            4_950 + (income - 45_000) * 0.25,
            (income - 12_000) * 0.15,
        ],
        default=0.0,
    )
