"""Shared by the exercises that ask for a ``predictions`` mapping, call number -> True/False.

Not an exercise itself (its name starts with ``_``): a checks module calls ``add_checks`` to get
one check that every call has an answer and one check per call, each comparing the learner's
answer with what the checker measured.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from check_solution import check


@dataclass(frozen=True)
class Meaning:
    """What True and False mean, in a message: ``yes``/``no`` short, the ``*_word``s long."""

    yes: str
    no: str
    yes_word: str
    no_word: str

    def word(self, value: bool) -> str:
        return f"True ({self.yes_word})" if value else f"False ({self.no_word})"


def prediction(module, number: int, count: int, meaning: Meaning) -> bool:
    found = getattr(module, "predictions", None)
    assert found is not None, "expected a variable named predictions at module scope, got none"
    if isinstance(found, list | tuple):  # a list in call order is fine too
        found = dict(enumerate(found, start=1))
    assert isinstance(found, dict), (
        f"expected predictions to be a dict {{1: True, ...}} or a list of {count}, "
        f"got {type(found).__name__}"
    )
    value = found.get(number, found.get(str(number)))
    assert isinstance(value, bool), (
        f"expected True ({meaning.yes}) or False ({meaning.no}) for call {number}, got {value!r}"
    )
    return value


def add_checks(
    namespace: dict,
    codes: dict[int, str],
    actual: Callable[[int], bool],
    meaning: Meaning,
    how: str,
) -> None:
    """Define the answers check and one check per call in ``namespace`` (a module's globals).

    ``codes`` maps call number -> the call's code; ``actual(number)`` is what really happened;
    ``how`` says in the message how it was measured.
    """
    count = len(codes)

    @check(f"predictions has a True/False answer for each of the calls 1 to {count}")
    def has_every_answer(module):
        missing = []
        for number in codes:
            try:
                prediction(module, number, count, meaning)
            except AssertionError:
                missing.append(str(number))
        assert not missing, (
            f"expected True or False for calls 1-{count}, got no usable answer for call(s) "
            f"{', '.join(missing)}"
        )

    namespace["has_every_answer"] = has_every_answer
    for number, code in codes.items():
        namespace[f"call_{number}_predicted_right"] = _call_check(
            number, code, count, actual, meaning, how
        )


def _call_check(number, code, count, actual, meaning, how):
    @check(f"call {number} predicted right")
    def prediction_matches(module):
        predicted = prediction(module, number, count, meaning)
        measured = actual(number)
        assert predicted == measured, (
            f"call {number}, {code}: expected {meaning.word(measured)}, {how}, "
            f"got your prediction {meaning.word(predicted)}"
        )

    prediction_matches.__name__ = f"call_{number}_predicted_right"
    return prediction_matches
