import jax.numpy as jnp


def safe_sqrt(x):
    positive = x > 0
    # Feed sqrt only positive numbers: where x <= 0 it sees a harmless 1 instead,
    # so neither its value nor its derivative can be NaN or inf there.
    inside = jnp.where(positive, x, jnp.ones_like(x))
    return jnp.where(positive, jnp.sqrt(inside), jnp.zeros_like(x))
