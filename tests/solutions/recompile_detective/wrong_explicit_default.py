"""Expects mode="sin" passed explicitly to hit the entry made when the default was left out.

Fails: call 8 predicted right
"""

predictions = [True, False, True, True, True, True, True, False]
