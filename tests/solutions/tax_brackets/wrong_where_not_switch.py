"""Right numbers, but tax_switch is the element-wise version: no lax.switch, so no cond.

Fails: tax_switch uses lax.switch: its jaxpr contains a cond
"""

import jax.numpy as jnp


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


tax_switch = tax_vectorized
