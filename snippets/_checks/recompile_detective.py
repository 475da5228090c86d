"""Checks for the exercise "recompile_detective": a ``predictions`` mapping, call -> bool.

The checker does not trust any answer key: it defines ``pulse`` afresh, makes the eight calls
under ``jitkit.count_compiles`` and compares each prediction with what really compiled.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import jax
import jax.numpy as jnp

# Loaded by file path, a checks module cannot count on snippets/ (where jitkit is) being importable.
sys.path.append(str(Path(__file__).resolve().parent.parent))
from _checks._predictions import Meaning, add_checks

from jitkit import count_compiles

CALLS = {
    1: ("pulse(jnp.zeros(4))", lambda f: f(jnp.zeros(4))),
    2: ("pulse(jnp.linspace(0.0, 3.0, 4))", lambda f: f(jnp.linspace(0.0, 3.0, 4))),
    3: ("pulse(jnp.zeros(6))", lambda f: f(jnp.zeros(6))),
    4: ('pulse(jnp.zeros(4), mode="cos")', lambda f: f(jnp.zeros(4), mode="cos")),
    5: ("pulse(jnp.zeros(4, dtype=jnp.int32))", lambda f: f(jnp.zeros(4, dtype=jnp.int32))),
    6: ("pulse(2.0)", lambda f: f(2.0)),
    7: ("pulse(jnp.float32(2.0))", lambda f: f(jnp.float32(2.0))),
    8: ('pulse(jnp.zeros(4), mode="sin")', lambda f: f(jnp.zeros(4), mode="sin")),
}
_measured: dict[int, int] = {}


def measured() -> dict[int, int]:
    """Compilations of ``pulse`` caused by each call, measured once per loaded checks module."""
    if not _measured:

        @partial(jax.jit, static_argnames="mode")
        def pulse(x, mode="sin"):  # a new function object: its cache starts empty
            return jnp.sin(x) * 2 if mode == "sin" else jnp.cos(x) + 1

        with count_compiles() as compiles:
            for number, (_, call) in CALLS.items():
                before = compiles("pulse")
                call(pulse)
                _measured[number] = compiles("pulse") - before
    return _measured


add_checks(
    globals(),
    {number: code for number, (code, _) in CALLS.items()},
    lambda number: measured()[number] > 0,
    Meaning("compiles", "cache hit", "it compiles", "a cache hit"),
    "measured with count_compiles",
)
