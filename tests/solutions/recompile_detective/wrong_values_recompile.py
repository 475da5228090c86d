"""Believes new values recompile: the cache key holds shapes and dtypes, never values.

Fails: call 2 predicted right
"""

predictions = {1: True, 2: True, 3: True, 4: True, 5: True, 6: True, 7: True, 8: True}
