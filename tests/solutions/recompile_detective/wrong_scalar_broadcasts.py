"""Expects the Python scalar 2.0 to reuse an existing program, as if it were broadcast.

Fails: call 6 predicted right
"""

predictions = {1: True, 2: False, 3: True, 4: True, 5: True, 6: False, 7: True, 8: True}
