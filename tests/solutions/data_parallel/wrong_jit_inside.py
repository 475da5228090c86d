"""Wraps a new function in jax.jit on every call: every step compiles again.

Fails: the next two steps compile nothing: each takes the parameters as the last returned them
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


def train_step(params, batch):
    def update(params, batch):
        grads = jax.grad(loss)(params, batch)
        return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)

    return jax.jit(update, donate_argnums=0)(params, batch)
