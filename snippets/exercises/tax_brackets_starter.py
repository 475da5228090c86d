"""Exercise "tax_brackets": copy this file, fill in both functions, then run
python check.py tax_brackets <your file>
(check.py is on the site's "Run it yourself" page; in a clone: nox -s check -- ...)

Brackets: 0% below 12,000; 15% from 12,000; 25% from 45,000; 35% from 110,000.
Each rate applies only to the part of the income inside its bracket.
"""

# The imports an answer needs (unused until you write it).
import jax.numpy as jnp  # noqa: F401
from jax import jit, lax  # noqa: F401


def tax_switch(income):
    """Tax on one income (a scalar), choosing the bracket's formula with lax.switch."""
    raise NotImplementedError("write tax_switch")


def tax_vectorized(income):
    """Tax on every income of an array, element-wise, with jnp.select or jnp.where."""
    raise NotImplementedError("write tax_vectorized")
