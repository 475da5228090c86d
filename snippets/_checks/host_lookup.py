"""Checks for the exercise "host_lookup": ``calibrate(ids, readings)``.

``calibrate`` must be jitted and get each sensor's gain from the module's ``lookup_gains`` (a
lookup in a Python dict) through ``jax.pure_callback``, with the result declared as float32 in
the shape of ``ids``, and a ``vmap_method`` that hands ``lookup_gains`` a whole batch at once.
"""

from __future__ import annotations

import contextlib

import jax
import jax.numpy as jnp
import numpy as np

from check_solution import NotChecked, check

GAINS = {0: 1.0, 1: 0.5, 2: 2.0, 3: 1.25, 4: 0.8}  # the starter's table
IDS = np.array([3, 0, 4, 1, 2], dtype=np.int32)
READINGS = np.array([10.0, 20.0, 30.0, 40.0, 50.0], dtype=np.float32)
ROWS_IDS = np.array([[0, 1, 2], [2, 3, 4], [4, 4, 0], [1, 3, 2]], dtype=np.int32)
ROWS_READINGS = np.arange(1.0, 13.0, dtype=np.float32).reshape(4, 3)


def _expected(ids, readings):
    return readings * np.vectorize(GAINS.__getitem__)(ids).astype(np.float32)


def _function(module):
    fn = getattr(module, "calibrate", None)
    assert callable(fn), "expected a function named calibrate at module scope, got none"
    return fn


def _last_line(error):
    lines = str(error).strip().splitlines()
    return lines[-1] if lines else type(error).__name__


def _run(call, what):
    """``call()``, with a callback's run-time failure turned into advice."""
    try:
        return np.asarray(call())
    except jax.errors.JaxRuntimeError as error:
        raise AssertionError(
            f"expected {what} to run, got JaxRuntimeError ending in: {_last_line(error)} "
            "(declare the result as jax.ShapeDtypeStruct(ids.shape, jnp.float32), "
            "what lookup_gains returns)"
        ) from None


def _callbacks(jaxpr):
    """Every callback equation of ``jaxpr``, nested jaxprs (the jit inside) included."""
    found = []
    for eqn in jaxpr.eqns:
        if eqn.primitive.name.endswith("callback"):
            found.append(eqn)
        for value in eqn.params.values():
            inner = getattr(value, "jaxpr", value)
            if hasattr(inner, "eqns"):
                found += _callbacks(inner)
    return found


def _callback_equations(fn, ids, readings):
    return _callbacks(jax.make_jaxpr(fn)(jnp.asarray(ids), jnp.asarray(readings)).jaxpr)


@check("calibrate is wrapped in jax.jit")
def is_jitted(module):
    fn = _function(module)
    assert hasattr(fn, "lower") and hasattr(fn, "trace"), (
        f"expected a jitted function (one with .lower and .trace), got a plain "
        f"{type(fn).__name__}: decorate it with @jax.jit"
    )


@check("calibrate gets the gains through jax.pure_callback")
def uses_pure_callback(module):
    found = [eqn.primitive.name for eqn in _callback_equations(_function(module), IDS, READINGS)]
    assert "pure_callback" in found, (
        f"expected a pure_callback in calibrate's program, got {found or 'no callback'}: "
        "a lookup is a pure computation, so wrap lookup_gains in jax.pure_callback"
    )


@check("readings are multiplied by each sensor's gain, for 5 ids and 5 readings")
def values_match(module):
    fn = _function(module)
    got = _run(lambda: fn(jnp.asarray(IDS), jnp.asarray(READINGS)), "calibrate")
    want = _expected(IDS, READINGS)
    assert got.shape == want.shape and np.allclose(got, want), (
        f"expected {want.tolist()}, got {got.tolist()}"
    )


def _type(shape, dtype):
    return f"{np.dtype(dtype).name}[{','.join(map(str, shape))}]"


@check("the callback's result is declared as float32 in the shape of ids (a 2x3 and a scalar)")
def result_is_declared(module):
    fn = _function(module)
    for ids in (ROWS_IDS[:2], np.int32(3)):
        # A scalar reading broadcasts against any declared shape, so the program always traces.
        pure = [
            e for e in _callback_equations(fn, ids, np.float32(1.0)) if "pure" in e.primitive.name
        ]
        if not pure:
            raise NotChecked("because calibrate has no pure_callback to declare a result for")
        declared = pure[0].params["result_avals"]
        shown = ", ".join(_type(aval.shape, aval.dtype) for aval in declared)
        want = _type(np.shape(ids), np.float32)
        assert len(declared) == 1 and declared[0].shape == np.shape(ids), (
            f"expected the result declared as {want} for ids of shape {np.shape(ids)}, got "
            f"{shown}: build the ShapeDtypeStruct from ids.shape"
        )
        assert declared[0].dtype == jnp.float32, (
            f"expected the result declared as {want}, got {shown}: lookup_gains returns "
            "float32, whatever the dtype of ids"
        )


@contextlib.contextmanager
def _counted_lookups(module, fn, calls):
    """Count the calls of lookup_gains, where calibrate looks it up: the module for a file,
    the notebook's globals for a workbook answer."""
    original = module.lookup_gains

    def counted(ids):
        calls.append(np.shape(ids))
        return original(ids)

    namespaces = [vars(module)]
    own = getattr(getattr(fn, "__wrapped__", fn), "__globals__", None)
    if own is not None and own is not vars(module) and own.get("lookup_gains") is original:
        namespaces.append(own)
    for namespace in namespaces:
        namespace["lookup_gains"] = counted
    jax.clear_caches()  # trace again, so the callback picks up the counting lookup_gains
    try:
        yield
    finally:
        for namespace in namespaces:
            namespace["lookup_gains"] = original
        jax.clear_caches()


@check("under jax.vmap over 4 rows, lookup_gains runs once, with the whole (4, 3) batch")
def batched_once(module):
    fn = _function(module)
    if not callable(getattr(module, "lookup_gains", None)):
        raise NotChecked("because the module has no lookup_gains to count")
    calls = []
    with _counted_lookups(module, fn, calls):
        try:
            got = _run(lambda: jax.vmap(fn)(ROWS_IDS, ROWS_READINGS), "jax.vmap(calibrate)")
        except NotImplementedError as error:
            if "vmap_method" not in str(error):
                raise  # the learner's own NotImplementedError: reported as a crash
            raise AssertionError(
                "expected calibrate to work under jax.vmap, got NotImplementedError: "
                "pure_callback needs a vmap_method under vmap; pass vmap_method='expand_dims' "
                "to jax.pure_callback"
            ) from None
        jax.effects_barrier()
    if not calls:
        raise NotChecked("because calibrate never called the module's lookup_gains")
    assert np.allclose(got, _expected(ROWS_IDS, ROWS_READINGS)), (
        f"expected {_expected(ROWS_IDS, ROWS_READINGS).tolist()} under vmap, got {got.tolist()}"
    )
    assert calls == [ROWS_IDS.shape], (
        f"expected one call of lookup_gains with shape {ROWS_IDS.shape}, got {len(calls)} "
        f"call(s) with shapes {calls}: with vmap_method='sequential' (or an io_callback) the host "
        "runs once per row; lookup_gains handles any shape, so vmap_method='expand_dims' can "
        "give it the whole batch"
    )
