"""Expects int32 inputs to be converted to float32, as jnp arithmetic would promote them.

Fails: call 4 predicted right
"""

predictions = [True, False, True, True, False, False]
