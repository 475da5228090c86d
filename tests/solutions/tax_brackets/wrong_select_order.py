"""Lists the jnp.select conditions from the bottom bracket up: select takes the FIRST true
condition, so every income from 12,000 up is taxed as if it were in the 15% bracket.

Fails: tax_vectorized matches the reference on a whole vector of incomes, under jax.jit
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
    return jnp.select(
        [income >= 12_000, income >= 45_000, income >= 110_000],
        [
            (income - 12_000) * 0.15,
            4_950 + (income - 45_000) * 0.25,
            21_200 + (income - 110_000) * 0.35,
        ],
        default=0.0,
    )
