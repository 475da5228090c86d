"""Expects a Compiled to compile a new batch size the way a jitted function does.

Fails: call 2 predicted right
"""

predictions = {1: True, 2: True, 3: True, 4: False, 5: False, 6: False}
