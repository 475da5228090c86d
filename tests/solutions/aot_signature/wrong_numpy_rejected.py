"""Expects NumPy's float64 arrays to be refused, forgetting that x64 is off by default.

Fails: call 3 predicted right
"""

predictions = {1: True, 2: False, 3: False, 4: False, 5: False, 6: False}
