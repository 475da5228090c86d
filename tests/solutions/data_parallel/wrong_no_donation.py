"""Jits the step without donating: each device holds the old and the new parameters at once.

Fails: train_step donates the parameters and keeps the batch
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


@jax.jit
def train_step(params, batch):
    grads = jax.grad(loss)(params, batch)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
