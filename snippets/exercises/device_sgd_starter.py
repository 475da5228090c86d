"""Exercise "device_sgd": copy this file, fill in the two functions, then run
python check.py device_sgd <your file>
(check.py is on the site's "Run it yourself" page; in a clone: nox -s check -- ...)

A linear model w (shape (d,)) predicts X @ w for the rows of X (shape (n, d)); its loss is the
mean of (X @ w - y) ** 2. Write one gradient-descent step, and a loop of them, that would run
as well on a TPU as on your CPU: full float32 matrix products, w's memory reused, and no copy
between host and device inside the loop.
"""

# The imports an answer needs (unused until you write it).
import jax  # noqa: F401
import jax.numpy as jnp  # noqa: F401


def sgd_step(w, X, y, lr):
    """Return w - lr * (gradient of the mean squared error at w), jitted, donating w."""
    raise NotImplementedError("write sgd_step")


def fit(w, X, y, lr, steps):
    """Return w after `steps` calls of sgd_step, keeping every array on the device."""
    raise NotImplementedError("write fit")
