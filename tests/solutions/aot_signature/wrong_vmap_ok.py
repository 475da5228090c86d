"""Expects jax.vmap to batch a Compiled like any other function.

Fails: call 6 predicted right
"""

predictions = {1: True, 2: False, 3: True, 4: False, 5: False, 6: True}
