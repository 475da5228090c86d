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

from engine.check_solution import check

# `python -m engine.check_solution` puts only the project root on sys.path; jitkit is in snippets/.
sys.path.append(str(Path(__file__).resolve().parent.parent))
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


def _prediction(module, number):
    found = getattr(module, "predictions", None)
    assert found is not None, "expected a variable named predictions at module scope, got none"
    if isinstance(found, list | tuple):  # a list of eight, in call order, is fine too
        found = dict(enumerate(found, start=1))
    assert isinstance(found, dict), (
        f"expected predictions to be a dict {{1: True, ...}}, got {type(found).__name__}"
    )
    value = found.get(number, found.get(str(number)))
    assert isinstance(value, bool), (
        f"expected True (compiles) or False (cache hit) for call {number}, got {value!r}"
    )
    return value


def _word(compiles: bool) -> str:
    return "True (it compiles)" if compiles else "False (a cache hit)"


@check("predictions has a True/False answer for each of the calls 1 to 8")
def has_eight_answers(module):
    missing = []
    for number in CALLS:
        try:
            _prediction(module, number)
        except AssertionError:
            missing.append(str(number))
    assert not missing, (
        f"expected True or False for calls 1-8, got no usable answer for call(s) "
        f"{', '.join(missing)}"
    )


def _call_check(number):
    code, _ = CALLS[number]

    @check(f"call {number} predicted right")
    def prediction_matches(module):
        predicted = _prediction(module, number)
        actual = measured()[number] > 0
        assert predicted == actual, (
            f"call {number}, {code}: expected {_word(actual)}, measured with count_compiles, "
            f"got your prediction {_word(predicted)}"
        )

    prediction_matches.__name__ = f"call_{number}_predicted_right"
    return prediction_matches


for _number in CALLS:
    globals()[f"call_{_number}_predicted_right"] = _call_check(_number)
del _number
