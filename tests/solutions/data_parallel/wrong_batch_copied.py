"""Copies the whole batch to every device: each computes the full gradient, no device is spared.

Fails: place splits every leaf of the batch by rows along the mesh's "data" axis
"""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P


def place(params, batch, mesh):
    everywhere = NamedSharding(mesh, P())
    return jax.device_put(params, everywhere), jax.device_put(batch, everywhere)


def loss(params, batch):
    return jnp.mean((batch["x"] @ params["w"] + params["b"] - batch["y"]) ** 2)


@jax.jit(donate_argnums=0)
def train_step(params, batch):
    grads = jax.grad(loss)(params, batch)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
