"""Uses the first element as the initial carry and still scans every element: x[0] counts twice.

Fails: sums a short float32 vector: [0.5, 1.25, -2, 3, 0.75] gives 3.5
"""

import jax
from jax import lax


@jax.jit
def jit_scan_sum(x):
    total, _ = lax.scan(lambda c, v: (c + v, None), x[0], x)
    return total
