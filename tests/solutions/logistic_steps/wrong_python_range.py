"""A Python for loop over range(n): fine while n is a Python int, breaks once n is traced.

Fails: n may be traced: jax.jit(logistic_steps)(x0, r, n) works
"""


def logistic_steps(x0, r, n):
    x = x0
    for _ in range(n):
        x = r * x * (1 - x)
    return x
