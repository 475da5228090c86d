"""Exercise "aot_signature": compile score ahead of time, then predict which calls run."""

import jax
import jax.numpy as jnp


def score(x, w):
    return jnp.tanh(x @ w)


def compile_score(batch):
    x_spec = jax.ShapeDtypeStruct((batch, 3), jnp.float32)  # a shape and a dtype, no data
    w_spec = jax.ShapeDtypeStruct((3,), jnp.float32)
    return jax.jit(score).trace(x_spec, w_spec).lower().compile()


predictions = {
    1: True,  # the exact signature it was compiled for
    2: False,  # 16 rows: a Compiled never compiles a new shape
    3: True,  # NumPy float64 arrays: with x64 off (the default) they arrive as float32
    4: False,  # int32 is another dtype, and a Compiled does not convert it
    5: False,  # compiled positionally: a keyword is another call structure
    6: False,  # a Compiled cannot be transformed, and vmap is a transformation
}
