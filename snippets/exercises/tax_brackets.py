"""Exercise "tax_brackets": a progressive income tax, twice.

tax_switch(income)      one income (a scalar); picks its bracket with lax.switch
tax_vectorized(income)  any array of incomes; element-wise with jnp.select
"""

import jax.numpy as jnp
from jax import jit, lax

LOWER_EDGES = (0.0, 12_000.0, 45_000.0, 110_000.0)  # where each bracket starts
RATES = (0.0, 0.15, 0.25, 0.35)

# Tax owed on everything below each bracket's lower edge: 0, 0, 4950, 21200.
BASE_TAX = [0.0]
for low, high, rate in zip(LOWER_EDGES, LOWER_EDGES[1:], RATES, strict=False):
    BASE_TAX.append(BASE_TAX[-1] + (high - low) * rate)


def _bracket_formula(k):
    """Tax for an income inside bracket k: the tax below it plus the rate on the rest."""
    return lambda income: BASE_TAX[k] + (income - LOWER_EDGES[k]) * RATES[k]


@jit
def tax_switch(income):
    # Count the edges above zero that the income has reached: 0, 1, 2 or 3.
    bracket = jnp.sum(income >= jnp.array(LOWER_EDGES[1:]))
    branches = [_bracket_formula(k) for k in range(len(RATES))]
    return lax.switch(bracket, branches, income)


@jit
def tax_vectorized(income):
    # jnp.select takes the FIRST condition that holds, so test from the top bracket down.
    top_first = range(len(RATES) - 1, 0, -1)
    conditions = [income >= LOWER_EDGES[k] for k in top_first]
    choices = [_bracket_formula(k)(income) for k in top_first]
    return jnp.select(conditions, choices, default=jnp.zeros_like(income))
