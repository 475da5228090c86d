"""Answers four calls, one of them with a string instead of a boolean.

Fails: predictions has a True/False answer for each of the calls 1 to 6
"""

predictions = {1: True, 2: "no", 3: True, 4: False}
