"""Believes int32 zeros and float32 zeros of the same shape share a program.

Fails: call 5 predicted right
"""

predictions = {1: True, 2: False, 3: True, 4: True, 5: False, 6: True, 7: True, 8: True}
