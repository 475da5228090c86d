"""Thinks a jitted function compiles once and then serves any input shape.

Fails: call 3 predicted right
"""

predictions = {1: True, 2: False, 3: False, 4: True, 5: True, 6: True, 7: True, 8: True}
