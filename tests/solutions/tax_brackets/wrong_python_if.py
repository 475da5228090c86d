"""Picks the bracket with if/elif: fine in plain Python, but a traced income has no value.

Fails: tax_switch runs under jax.jit (no Python if on the traced income)
"""

import jax.numpy as jnp


def tax_switch(income):
    if income < 12_000:
        return jnp.float32(0.0)
    if income < 45_000:
        return (income - 12_000) * 0.15
    if income < 110_000:
        return 4_950 + (income - 45_000) * 0.25
    return 21_200 + (income - 110_000) * 0.35


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
