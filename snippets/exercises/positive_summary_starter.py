"""Exercise "positive_summary": copy this file, fill in the function, then run
python check.py positive_summary <your file>
(check.py is on the site's "Run it yourself" page; in a clone: nox -s check -- ...)

For a 1-D float array x and a Python int k, return (mean, first):
  mean   the mean of the entries of x that are > 0, or 0.0 when there are none;
  first  an integer array of shape (k,): the positions of the first k positive entries,
         in order, padded with -1 when there are fewer than k.
The function must be jitted, with k static, and compile once for every x of one shape.
"""

# The imports an answer needs (unused until you write it).
from functools import partial  # noqa: F401

import jax  # noqa: F401
import jax.numpy as jnp  # noqa: F401


def positive_summary(x, k):
    """Return (mean, first). Jit it with k static: @partial(jax.jit, static_argnames="k")."""
    raise NotImplementedError("write positive_summary")
