"""Exercise "recompile_detective": copy this file, answer True (compiles) or False (served
from the cache) for each call, then run
python check.py recompile_detective <your file>
(check.py is on the site's "Run it yourself" page; in a clone: nox -s check -- ...)

    from functools import partial

    @partial(jax.jit, static_argnames="mode")
    def pulse(x, mode="sin"):
        return jnp.sin(x) * 2 if mode == "sin" else jnp.cos(x) + 1

    pulse(jnp.zeros(4))                      # 1
    pulse(jnp.linspace(0.0, 3.0, 4))         # 2
    pulse(jnp.zeros(6))                      # 3
    pulse(jnp.zeros(4), mode="cos")          # 4
    pulse(jnp.zeros(4, dtype=jnp.int32))     # 5
    pulse(2.0)                               # 6
    pulse(jnp.float32(2.0))                  # 7
    pulse(jnp.zeros(4), mode="sin")          # 8
"""

predictions = {1: None, 2: None, 3: None, 4: None, 5: None, 6: None, 7: None, 8: None}
