"""Sums the squared errors instead of averaging them: a step as many times too large as rows.

Fails: train_step is one gradient step (rate 0.1) on the mean squared error of x @ w + b
"""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P


def place(params, batch, mesh):
    params = jax.device_put(params, NamedSharding(mesh, P()))
    return params, jax.device_put(batch, NamedSharding(mesh, P("data")))


def loss(params, batch):
    return jnp.sum((batch["x"] @ params["w"] + params["b"] - batch["y"]) ** 2)


@jax.jit(donate_argnums=0)
def train_step(params, batch):
    grads = jax.grad(loss)(params, batch)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
