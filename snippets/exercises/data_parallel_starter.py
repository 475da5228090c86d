"""Exercise "data_parallel": copy this file, fill in the two functions, then run
python check.py data_parallel <your file>
(check.py is on the site's "Run it yourself" page; in a clone: nox -s check -- ...)

A linear model: params = {"w": shape (3,), "b": a scalar}, batch = {"x": shape (rows, 3),
"y": shape (rows,)}, loss = mean((x @ w + b - y) ** 2). Spread each step over every device of
a mesh with one axis, "data": each device takes its share of the rows and holds all of the
parameters.
"""

# The imports an answer needs (unused until you write it).
import jax  # noqa: F401
import jax.numpy as jnp  # noqa: F401
from jax.sharding import NamedSharding  # noqa: F401
from jax.sharding import PartitionSpec as P  # noqa: F401


def place(params, batch, mesh):
    """Return (params, batch) on the mesh: parameters copied, batch split by rows."""
    raise NotImplementedError("write place")


def train_step(params, batch):
    """Return params - 0.1 * gradient of the loss, jitted, donating params."""
    raise NotImplementedError("write train_step")
