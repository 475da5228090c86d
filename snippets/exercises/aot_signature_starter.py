"""Exercise "aot_signature": copy this file, fill in both parts, then run
python check.py aot_signature <your file>
(check.py is on the site's "Run it yourself" page; in a clone: nox -s check -- ...)

Part 1: compile_score(batch) returns a Compiled of jax.jit(score) for x: float32[batch, 3] and
w: float32[3], built from jax.ShapeDtypeStruct specs (no arrays).

Part 2: with compiled = compile_score(8), predict for each call whether it runs (True) or
raises an error (False):

    compiled(jnp.ones((8, 3)), jnp.ones(3))                           # 1
    compiled(jnp.ones((16, 3)), jnp.ones(3))                          # 2
    compiled(np.ones((8, 3)), np.ones(3))                             # 3  NumPy float64
    compiled(jnp.ones((8, 3), dtype=jnp.int32), jnp.ones(3))          # 4
    compiled(jnp.ones((8, 3)), w=jnp.ones(3))                         # 5
    jax.vmap(compiled, in_axes=(0, None))(jnp.ones((2, 8, 3)), jnp.ones(3))  # 6
"""

import jax  # noqa: F401  (you will need it)
import jax.numpy as jnp


def score(x, w):
    return jnp.tanh(x @ w)


def compile_score(batch):
    raise NotImplementedError("write compile_score")


predictions = {1: None, 2: None, 3: None, 4: None, 5: None, 6: None}
