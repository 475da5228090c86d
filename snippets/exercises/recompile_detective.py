"""Exercise "recompile_detective": which of the eight calls compile? (True = compiles.)

The calls, in order, on a fresh

    @partial(jax.jit, static_argnames="mode")
    def pulse(x, mode="sin"): ...
"""

predictions = {
    1: True,  # pulse(jnp.zeros(4)): the first call always compiles
    2: False,  # pulse(jnp.linspace(0.0, 3.0, 4)): same shape and dtype, other values
    3: True,  # pulse(jnp.zeros(6)): a new shape
    4: True,  # pulse(jnp.zeros(4), mode="cos"): a new value of the static argument
    5: True,  # pulse(jnp.zeros(4, dtype=jnp.int32)): a new dtype
    6: True,  # pulse(2.0): a Python float is a weakly typed float32 scalar, a new signature
    7: True,  # pulse(jnp.float32(2.0)): a strongly typed float32 scalar, not the weak one
    8: True,  # pulse(jnp.zeros(4), mode="sin"): passing the default is not leaving it out
}
