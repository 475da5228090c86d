"""Treats passing w by keyword as the same call as passing it by position.

Fails: call 5 predicted right
"""

predictions = {1: True, 2: False, 3: True, 4: False, 5: True, 6: False}
