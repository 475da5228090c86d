"""Checks for the exercise "device_sgd": ``sgd_step(w, X, y, lr)`` and ``fit(w, X, y, lr,
steps)``, gradient descent on a mean squared error, written for an accelerator: every matrix
product at full float32 precision, ``w`` donated, and no hidden host-device copy in ``fit``.

Every check holds on a CPU and on an accelerator alike: precision is read from the lowered
program, not from the rounding a CPU would never show.
"""

from __future__ import annotations

import warnings

import jax
import jax.numpy as jnp
import numpy as np

from check_solution import NotChecked, check

RNG = np.random.default_rng(7)
X_HOST = RNG.normal(size=(32, 5)).astype(np.float32)
Y_HOST = RNG.normal(size=32).astype(np.float32)
W_HOST = RNG.normal(size=5).astype(np.float32)
LR = 0.05
STEPS = 40


def _function(module, name):
    fn = getattr(module, name, None)
    assert callable(fn), f"expected a function named {name} at module scope, got none"
    return fn


def _device_args():
    """Fresh device arrays for one call (a donated w cannot be used twice)."""
    return (
        jnp.asarray(W_HOST),
        jnp.asarray(X_HOST),
        jnp.asarray(Y_HOST),
        jnp.asarray(LR, jnp.float32),
    )


def _reference(w, steps):
    """``steps`` steps of gradient descent in float64 NumPy."""
    X, y, w = X_HOST.astype(np.float64), Y_HOST.astype(np.float64), w.astype(np.float64)
    for _ in range(steps):
        w = w - LR * 2 * X.T @ (X @ w - y) / len(y)
    return w


def _compare(got, want, what, module):
    got = np.asarray(got, dtype=np.float64)
    if got.shape == want.shape and np.allclose(got, want, rtol=1e-4, atol=1e-5):
        return
    # A device that rounds products at DEFAULT precision (a TPU's one bfloat16 pass) moves w by
    # about this much, so say so when the program asks for it; the formula may still be right.
    fn = _function(module, "sgd_step")
    lines = _products(fn) if hasattr(fn, "lower") else []
    default = any("HIGHEST" not in line for line in lines)
    raise AssertionError(
        f"expected {what} {np.round(want, 5).tolist()}, got {np.round(got, 5).tolist()}"
        + (
            "; sgd_step multiplies at DEFAULT precision, which a TPU rounds to about 3 digits: "
            "see the precision check"
            if default
            else ""
        )
    )


def _products(fn) -> list[str]:
    """The lines of sgd_step's lowered program that multiply matrices."""
    if not hasattr(fn, "lower"):
        raise NotChecked("because sgd_step is not jitted, so it has no program to read")
    text = fn.lower(*_device_args()).as_text()
    return [line for line in text.splitlines() if "dot_general" in line]


@check("sgd_step is one step on the mean squared error, to 1e-4 of a float64 reference")
def one_step(module):
    got = _function(module, "sgd_step")(*_device_args())
    _compare(got, _reference(W_HOST, 1), "w after one step", module)


@check("every matrix product in sgd_step's program asks for HIGHEST precision")
def highest_precision(module):
    lines = _products(_function(module, "sgd_step"))
    if not lines:
        raise NotChecked("because sgd_step's program has no matrix product (dot_general)")
    asked = sorted(
        {
            line.split("precision = ")[1].split("]")[0] + "]"
            for line in lines
            if "precision = " in line
        }
    )
    assert all("HIGHEST" in line for line in lines), (
        f"expected precision = [HIGHEST, HIGHEST] on all {len(lines)} products (forward and "
        f"gradient), got {asked}: DEFAULT lets a TPU multiply in one bfloat16 pass; pass "
        "precision='highest' to the product, or trace under "
        "jax.default_matmul_precision('highest')"
    )


@check("sgd_step donates w, and only w: w is deleted after the call, no other buffer is offered")
def donates_w(module):
    fn = _function(module, "sgd_step")
    w, X, y, lr = _device_args()
    jax.clear_caches()  # compile again: JAX warns about unusable donations while compiling
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(w, X, y, lr)
    assert w.is_deleted(), (
        "expected w to be deleted after sgd_step(w, X, y, lr), got it alive: jit sgd_step "
        "with donate_argnums=0, so the new w can use the old one's memory"
    )
    unusable = [
        str(warning.message).splitlines()[0]
        for warning in caught
        if "donated buffers were not usable" in str(warning.message)
    ]
    assert not unusable, (
        f"expected only w to be donated, got a warning: {unusable[0]} (X, y and lr cannot "
        "hold the result, and the caller uses them again: donate_argnums=0)"
    )


@check("fit runs under jax.transfer_guard('disallow'): no copy to the device it was not given")
def no_hidden_copy(module):
    fn = _function(module, "fit")
    args = _device_args()
    try:
        with jax.transfer_guard("disallow"):
            fn(*args, STEPS)
    except jax.errors.JaxRuntimeError as error:
        first = str(error).splitlines()[0]
        raise AssertionError(
            f"expected fit to run on the device arrays it was given, got: {first} (keep X, y "
            "and lr as the jax.Arrays passed in: no np.asarray, no Python numbers outside jit)"
        ) from None


@check(f"fit gives the reference's w after {STEPS} steps, as a jax.Array")
def fit_result(module):
    got = _function(module, "fit")(*_device_args(), STEPS)
    assert isinstance(got, jax.Array), (
        f"expected a jax.Array (kept on the device), got {type(got).__name__}"
    )
    _compare(got, _reference(W_HOST, STEPS), f"w after {STEPS} steps", module)
