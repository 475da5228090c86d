"""Treats 2.0 and jnp.float32(2.0) as the same float32 scalar, forgetting weak types.

Fails: call 7 predicted right
"""

predictions = {1: True, 2: False, 3: True, 4: True, 5: True, 6: True, 7: False, 8: True}
