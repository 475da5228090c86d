"""Forgets that a static argument's value is part of the cache key.

Fails: call 4 predicted right
"""

predictions = {1: True, 2: False, 3: True, 4: False, 5: True, 6: True, 7: True, 8: True}
