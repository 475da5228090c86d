"""Brings the new parameters back to the host after every step, to log them.

Fails: train_step returns the parameters copied to every device of the same mesh
"""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P


def place(params, batch, mesh):
    params = jax.device_put(params, NamedSharding(mesh, P()))
    return params, jax.device_put(batch, NamedSharding(mesh, P("data")))


def loss(params, batch):
    return jnp.mean((batch["x"] @ params["w"] + params["b"] - batch["y"]) ** 2)


@jax.jit(donate_argnums=0)
def device_step(params, batch):
    grads = jax.grad(loss)(params, batch)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def train_step(params, batch):
    return jax.device_get(device_step(params, batch))  # NumPy arrays, for the log
