"""Answers only seven calls, and with strings instead of booleans for two of them.

Fails: predictions has a True/False answer for each of the calls 1 to 8
"""

predictions = {1: True, 2: False, 3: "yes", 4: True, 5: "yes", 6: True, 7: True}
