"""Checks for the exercise "aot_signature": ``compile_score(batch)`` and ``predictions``.

``compile_score`` must return a ``Compiled`` for ``float32[batch, 3]`` and ``float32[3]``,
compiling one program and nothing else. Specs alone means no data at all:
NumPy placeholders compile nothing extra, so a memory check catches them. The predictions are
judged against what the six calls really do on a ``Compiled`` the checker builds itself; no
answer key is trusted.
"""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from check_solution import check

# Loaded by file path, a checks module cannot count on snippets/ (where jitkit is) being importable.
sys.path.append(str(Path(__file__).resolve().parent.parent))
from _checks._device import TRANSCENDENTAL_RTOL, full_precision
from _checks._predictions import Meaning, add_checks

from jitkit import count_compiles

CALLS = {
    1: ("compiled(jnp.ones((8, 3)), jnp.ones(3))", lambda c: c(jnp.ones((8, 3)), jnp.ones(3))),
    2: ("compiled(jnp.ones((16, 3)), jnp.ones(3))", lambda c: c(jnp.ones((16, 3)), jnp.ones(3))),
    3: ("compiled(np.ones((8, 3)), np.ones(3))", lambda c: c(np.ones((8, 3)), np.ones(3))),
    4: (
        "compiled(jnp.ones((8, 3), dtype=jnp.int32), jnp.ones(3))",
        lambda c: c(jnp.ones((8, 3), dtype=jnp.int32), jnp.ones(3)),
    ),
    5: ("compiled(jnp.ones((8, 3)), w=jnp.ones(3))", lambda c: c(jnp.ones((8, 3)), w=jnp.ones(3))),
    6: (
        "jax.vmap(compiled, in_axes=(0, None))(jnp.ones((2, 8, 3)), jnp.ones(3))",
        lambda c: jax.vmap(c, in_axes=(0, None))(jnp.ones((2, 8, 3)), jnp.ones(3)),
    ),
}
_measured: dict[int, bool] = {}


def measured() -> dict[int, bool]:
    """Whether each call runs, on the checker's own Compiled; measured once per loaded module."""
    if not _measured:

        def score(x, w):
            return jnp.tanh(x @ w)

        specs = (jax.ShapeDtypeStruct((8, 3), jnp.float32), jax.ShapeDtypeStruct((3,), jnp.float32))
        compiled = jax.jit(score).trace(*specs).lower().compile()
        for number, (_, call) in CALLS.items():
            try:
                call(compiled)
            except (TypeError, ValueError):
                _measured[number] = False
            else:
                _measured[number] = True
    return _measured


def _compile(module, batch):
    fn = getattr(module, "compile_score", None)
    assert callable(fn), "expected a function named compile_score at module scope, got none"
    return fn(batch)


def _signature(compiled) -> list[str]:
    return [str(aval) for aval in jax.tree.leaves(compiled.in_avals)]


@check("compile_score(batch) returns a jax.stages.Compiled")
def returns_compiled(module):
    result = _compile(module, 8)
    assert isinstance(result, jax.stages.Compiled), (
        f"expected a jax.stages.Compiled (end with .lower().compile()), got "
        f"{type(result).__module__}.{type(result).__qualname__}"
    )


@check("the Compiled takes float32[batch,3] and float32[3], for batch 8 and for batch 5")
def signature_follows_batch(module):
    for batch in (8, 5):
        result = _compile(module, batch)
        assert isinstance(result, jax.stages.Compiled), (
            f"expected a jax.stages.Compiled, got {type(result).__name__}"
        )
        wanted = [f"float32[{batch},3]", "float32[3]"]
        got = _signature(result)
        assert got == wanted, f"expected compile_score({batch}) to take {wanted}, got {got}"


@check("the Compiled computes tanh(x @ w)")
def computes_score(module):
    # Compiled here, with the product in full float32 (a TPU's default would move the third
    # digit), for a batch no other check compiles: a cached Compiled would keep its precision.
    with full_precision():
        result = _compile(module, 6)
    rng = np.random.default_rng(6)  # NumPy data: jax.random would compile 6 programs for it
    x, w = (rng.standard_normal(shape, dtype=np.float32) for shape in ((6, 3), (3,)))
    got = np.asarray(result(jax.device_put(x), jax.device_put(w)))
    expected = np.tanh(x.astype(np.float64) @ w.astype(np.float64))
    assert got.shape == expected.shape and np.allclose(
        got,
        expected,
        rtol=TRANSCENDENTAL_RTOL,
        atol=1e-6,  # and a TPU's tanh
    ), f"expected tanh(x @ w) = {np.round(expected, 4)}, got {np.round(got, 4)}"


@check("compile_score compiles exactly one program (no arrays made to get shapes)")
def compiles_once(module):
    jax.clear_caches()
    with count_compiles() as compiles:
        _compile(module, 7)
    assert len(compiles.names) == 1, (
        f"expected exactly one compilation (score's) from jax.ShapeDtypeStruct specs, got "
        f"{compiles.names or 'none'} (making jnp arrays to read their shapes compiles too)"
    )


# Rows for the memory check: x would be float32[2**22, 3], 48 MiB, if anyone made it.
BIG_BATCH = 2**22


@check("compile_score makes no arrays, not even NumPy ones (memory stays far below one x)")
def makes_no_arrays(module):
    array_bytes = BIG_BATCH * 3 * 4
    outer = tracemalloc.is_tracing()  # e.g. pytest -X tracemalloc: keep its tracing on
    if outer:
        tracemalloc.reset_peak()
    else:
        tracemalloc.start()
    try:
        _compile(module, BIG_BATCH)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        if not outer:
            tracemalloc.stop()
    assert peak < array_bytes // 2, (
        f"expected compile_score({BIG_BATCH}) to allocate far less than the "
        f"{array_bytes // 2**20} MiB of an x array (specs hold no data), got a peak of "
        f"{peak / 2**20:.0f} MiB: did it make placeholder arrays (np.zeros, np.ones...)?"
    )


add_checks(
    globals(),
    {number: code for number, (code, _) in CALLS.items()},
    lambda number: measured()[number],
    Meaning("runs", "raises", "it runs", "it raises an error"),
    "measured on a Compiled for float32[8,3] and float32[3]",
)
