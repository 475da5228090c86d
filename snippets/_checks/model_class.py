"""Checks for the exercise "model_class": a class ``Affine(weight, bias, activation)`` whose
``predict(x)`` returns ``activation(x @ weight + bias)`` from one jitted program.

Expected values are computed in float64 NumPy from the formula, and ``predict`` runs with its
matrix product in full float32 on every device (``_device.full_precision``). Every counting
check starts from ``jax.clear_caches()`` and uses input shapes no other check uses, so the checks
do not depend on their order or on what ran before them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import jax
import numpy as np

from check_solution import check

# Loaded by file path, a checks module cannot count on snippets/ (where jitkit is) being importable.
sys.path.append(str(Path(__file__).resolve().parent.parent))
from _checks._device import TRANSCENDENTAL_RTOL, full_precision

from jitkit import count_compiles

NUMPY_ACTIVATIONS = {
    "relu": lambda h: np.maximum(h, 0.0),
    "tanh": np.tanh,
    "identity": lambda h: h,
}


def _arrays(seed, batch, n_in, n_out):
    """x (batch, n_in), weight (n_in, n_out), bias (n_out,): float32 JAX arrays from one seed.

    Drawn with NumPy and placed on the device: jax.random would compile its sampling programs
    again after every check's ``jax.clear_caches()``, most of a check's time.
    """
    rng = np.random.default_rng(seed)
    shapes = ((batch, n_in), (n_in, n_out), (n_out,))
    return tuple(jax.device_put(rng.standard_normal(shape, dtype=np.float32)) for shape in shapes)


def _expected(x, weight, bias, activation):
    h = np.asarray(x, np.float64) @ np.asarray(weight, np.float64) + np.asarray(bias, np.float64)
    return NUMPY_ACTIVATIONS[activation](h)


def _layer(module, weight, bias, activation):
    cls = getattr(module, "Affine", None)
    assert callable(cls), "expected a class named Affine at module scope, got none"
    return cls(weight, bias, activation)


def _predict(layer, x):
    with full_precision():  # a TPU's default bfloat16 pass would move the third digit
        return np.asarray(jax.block_until_ready(layer.predict(x)))


def _close(got, want):
    """Equal up to float32 rounding, and a TPU's tanh (TRANSCENDENTAL_RTOL)."""
    return got.shape == want.shape and np.allclose(got, want, rtol=TRANSCENDENTAL_RTOL, atol=1e-5)


def _compilations(layer, x, warm_up=None):
    """The programs compiled by ``layer.predict(x)`` from empty caches, after ``warm_up``'s call."""
    jax.clear_caches()
    if warm_up is not None:
        _predict(warm_up, x)
    with count_compiles() as compiles:
        _predict(layer, x)
    return compiles


@check("predict gives activation(x @ weight + bias) for relu, tanh and identity")
def predict_is_right(module):
    for seed, activation in enumerate(NUMPY_ACTIVATIONS):
        x, weight, bias = _arrays(seed, 4, 5, 3)
        got = _predict(_layer(module, weight, bias, activation), x)
        want = _expected(x, weight, bias, activation)
        assert _close(got, want), (
            f"with activation={activation!r}: expected {np.round(want[0], 4)} in the first row, "
            f"got {np.round(got[0], 4) if got.ndim == 2 else got}"
        )


@check("the first call with new shapes compiles exactly one program (predict runs under jit)")
def predict_is_one_program(module):
    x, weight, bias = _arrays(10, 3, 6, 4)
    compiles = _compilations(_layer(module, weight, bias, "tanh"), x)
    assert compiles.total == 1, (
        f"expected 1 compilation (the whole predict as one jitted program), got "
        f"{compiles.total}: {compiles.names}; several small ones mean predict runs eagerly"
    )


@check("a second Affine with new weights compiles nothing and gives its own result")
def new_object_reuses_the_program(module):
    x, weight, bias = _arrays(20, 2, 7, 3)
    _, other_weight, other_bias = _arrays(21, 2, 7, 3)
    first = _layer(module, weight, bias, "relu")
    second = _layer(module, other_weight, other_bias, "relu")
    compiles = _compilations(second, x, warm_up=first)
    assert compiles.total == 0, (
        f"expected no compilation for a second object of the same shapes and activation, got "
        f"{compiles.total}: {compiles.names}; is the cache keyed on the object itself, or is "
        "predict wrapped in a new jax.jit on every call?"
    )
    got, want = _predict(second, x), _expected(x, other_weight, other_bias, "relu")
    # Only the first object's own result is evidence of its weights in the program.
    baked = _close(got, _expected(x, weight, bias, "relu"))
    assert _close(got, want), (
        f"expected the second object's own result, {np.round(want[0], 4)} in the first row, got "
        f"{np.round(got[0], 4)}"
        + (
            ": the first object's result; it shares a program that baked in the first object's "
            "weights"
            if baked
            else ""
        )
    )


@check("a reassigned weight, bias or activation is used by the next predict (no stale result)")
def reassigned_attributes_are_used(module):
    x, weight, bias = _arrays(30, 3, 5, 2)
    _, new_weight, new_bias = _arrays(31, 3, 5, 2)
    layer = _layer(module, weight, bias, "identity")
    for name, value in (("weight", new_weight), ("bias", new_bias), ("activation", "relu")):
        old = _predict(layer, x)
        setattr(layer, name, value)
        got = _predict(layer, x)
        want = _expected(x, layer.weight, layer.bias, layer.activation)
        stale = " (the result before the change: a stale program)" if np.allclose(got, old) else ""
        shown = repr(value) if isinstance(value, str) else "a new array"
        assert _close(got, want), (
            f"after layer.{name} = {shown}: expected {np.round(want[0], 4)} in the first "
            f"row, got {np.round(got[0], 4)}{stale}"
        )


@check("predict leaks no tracer: none is kept once it returns (jax.checking_leaks)")
def no_tracer_leaks(module):
    x, weight, bias = _arrays(40, 2, 9, 5)  # shapes no other check uses: predict is traced
    layer = _layer(module, weight, bias, "tanh")
    try:
        with jax.checking_leaks():
            _predict(layer, x)
    except Exception as error:
        if "Leaked" not in str(error):
            raise
        first = str(error).strip().splitlines()[0]
        raise AssertionError(
            f"expected predict to keep no tracer once it returns, got '{first}': do not store "
            "values computed inside a jitted function on self or in a global"
        ) from None
    kept = [name for name, value in vars(layer).items() if isinstance(value, jax.core.Tracer)]
    assert not kept, f"expected no tracer among the object's attributes, got one in {kept}"
