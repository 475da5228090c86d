"""``engine.tools.checker_runs``: every checker's verdicts in one process, as data, and the
proof that the checkers judge a solution, not the device: under a TPU's rounding, emulated on
the CPU (tests/device_rounding.py), every reference still passes and every wrong solution still
fails the check it names.

Both runs take every checker (about 40 s each, alone: training_loop's checker times code), so
the default tier runs them when a checker, a solution or this machinery changed; meanwhile
tests/test_exercises.py and tests/test_lessons.py prove the CPU's verdicts checker by checker.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from check_solution import checks_for
from engine.page.model import ROOT
from engine.tools import checker_runs, solutions
from tests import tiers

# JAX (and the emulation, which imports it) is imported by the tests that run it: the unit tests
# here must not start it.

INPUTS = [  # what every verdict depends on
    "snippets/check_solution.py",
    "snippets/_checks/",
    "snippets/jitkit.py",
    *(path.relative_to(ROOT).as_posix() for path in solutions.references().values()),
    "tests/solutions/",
    "docs/track/index.md",
    "engine/tools/solutions.py",
    "engine/tools/checker_runs.py",
    "tests/device_rounding.py",
    "tests/test_checker_runs.py",
]


def wrong_verdicts(verdicts: dict) -> list[str]:
    return [
        checker_runs.summary(checker_id, verdict)
        for checker_id, verdict in verdicts.items()
        if not verdict["right"]
    ]


@pytest.mark.timing
@tiers.only_when_changed(*INPUTS)
def test_every_verdict_is_right_on_the_cpu():
    verdicts = checker_runs.run_all()
    assert not wrong_verdicts(verdicts), "\n".join(wrong_verdicts(verdicts))
    assert list(verdicts) == list(solutions.references())
    for checker_id, verdict in verdicts.items():
        assert verdict["reference"]["checks"] == len(checks_for(checker_id)), checker_id
        named = [w["named"] for w in verdict["wrong"]]
        assert len(named) == len(solutions.wrong_solutions(checker_id)) and all(named)
    assert json.loads(json.dumps(verdicts)) == verdicts  # plain data, for the recorder's file


@pytest.mark.timing
@tiers.only_when_changed(*INPUTS)
def test_every_verdict_is_right_under_a_tpus_rounding():
    """The checkers before issue #70's fix failed model_class, aot_signature, stable_logsumexp,
    jit_scan_sum and moving_average's references here, as the TPU did the first four."""
    from tests.device_rounding import tpu_rounding

    with tpu_rounding():
        verdicts = checker_runs.run_all()
    assert not wrong_verdicts(verdicts), "\n".join(wrong_verdicts(verdicts))


def relative_error(got, want) -> float:
    import numpy as np

    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return float(np.max(np.abs(got - want) / np.abs(want)))


def test_the_emulated_rounding_is_the_size_a_tpu_shows_and_ends_with_the_block():
    """Without it the proof above could pass with nothing emulated."""
    import jax
    import jax.numpy as jnp
    import numpy as np

    from tests.device_rounding import tpu_rounding

    rng = np.random.default_rng(0)
    x, w = rng.uniform(1.0, 2.0, (4, 8)).astype(np.float32), rng.uniform(1.0, 2.0, (8, 3))
    w = w.astype(np.float32)
    exact = x.astype(np.float64) @ w.astype(np.float64)
    tenths = np.full(10, 0.1)

    def measured():
        with jax.enable_x64(True):
            total = float(jax.lax.scan(lambda c, v: (c + v, None), 0.0, jnp.asarray(tenths))[0])
        with jax.default_matmul_precision("highest"):
            highest = relative_error(jnp.asarray(x) @ jnp.asarray(w), exact)
        return {
            "matmul": relative_error(jnp.asarray(x) @ jnp.asarray(w), exact),
            "highest": highest,
            "float64 sum": abs(total - sum(tenths)),  # a scan adds as Python does
            "exp": relative_error(jnp.exp(jnp.float32(1.0)), np.exp(1.0)),
        }

    with tpu_rounding():
        inside = measured()
    outside = measured()
    assert 5e-4 < inside["matmul"] < 1e-2 and inside["highest"] < 1e-6, inside
    assert 1e-14 < inside["float64 sum"] < 1e-11, inside
    assert 5e-6 < inside["exp"] < 2e-5, inside
    assert outside["matmul"] < 1e-6 and outside["float64 sum"] == 0, outside
    assert outside["exp"] < 1e-7, outside


def planted(tmp_path: Path, source: Path, fails: str) -> Path:
    """A copy of ``source`` whose docstring names the check ``fails``."""
    text = source.read_text(encoding="utf-8")
    path = tmp_path / source.parent.name / f"wrong_{source.stem}.py"
    path.parent.mkdir(exist_ok=True)
    path.write_text(f'"""Planted.\n\nFails: {fails}\n"""\n\n{text}', encoding="utf-8")
    return path


def test_a_reference_that_fails_and_a_wrong_solution_that_passes_are_wrong_verdicts(tmp_path):
    """The reference given as a wrong solution passes the check it names; a wrong solution given
    as the reference fails; a file whose Fails: line names no check did not run."""
    first = checks_for("safe_sqrt")[0].description
    reference = solutions.references()["safe_sqrt"]
    wrong = solutions.wrong_solutions("safe_sqrt")[0]
    passes = checker_runs.wrong_verdict("safe_sqrt", planted(tmp_path, reference, first))
    assert passes["named"] == first and not passes["failed_named"] and not passes["failed"]
    fails = checker_runs.reference_verdict("safe_sqrt", wrong)
    assert not fails["passed"] and fails["failed"] and all(f["message"] for f in fails["failed"])
    unknown = checker_runs.wrong_verdict("safe_sqrt", planted(tmp_path, wrong, "no such check"))
    assert not unknown["failed_named"] and "no such check" in unknown["error"]


@pytest.mark.unit
def test_a_missing_or_doubled_fails_line_is_an_error_naming_the_file(tmp_path):
    for docstring in ("No line.", "Fails: one\nFails: two"):
        path = tmp_path / "wrong_x.py"
        path.write_text(f'"""{docstring}\n"""\n', encoding="utf-8")
        with pytest.raises(ValueError, match=r"wrong_x\.py: the docstring needs one 'Fails:"):
            solutions.named_check(path)


@pytest.mark.unit
def test_the_command_writes_the_verdicts_prints_a_line_each_and_fails_on_a_wrong_one(
    tmp_path, monkeypatch, capsys
):
    def verdict(passed: bool, caught: bool) -> dict:
        failed = [] if passed else [{"check": "c1", "message": "expected 1, got 2"}]
        wrong = {"file": "tests/solutions/x/wrong_a.py", "named": "c2", "error": ""}
        reference = {"checks": 2, "passed": passed, "failed": failed, "error": ""}
        wrong["failed_named"] = caught
        return {"reference": reference, "wrong": [wrong], "right": passed and caught}

    verdicts = {"good": verdict(True, True), "bad": verdict(False, False)}
    monkeypatch.setattr(checker_runs, "run_all", lambda ids=None: verdicts)
    out = tmp_path / "verdicts.json"
    assert checker_runs.main(["--out", str(out)]) == 1
    assert json.loads(out.read_text(encoding="utf-8")) == verdicts
    assert capsys.readouterr().out.splitlines() == [
        "ok    good: reference passes 2 checks; 1 of 1 wrong solutions fail the check they name",
        "WRONG bad: reference FAILS 'c1': expected 1, got 2; 0 of 1 wrong solutions fail the "
        "check they name (wrong_a.py passed 'c2')",
    ]
    verdicts.pop("bad")
    assert checker_runs.main([]) == 0


@pytest.mark.unit
def test_every_checker_has_its_reference_and_wrong_solutions_where_the_runner_looks():
    found = solutions.references()
    checkers = sorted(p.stem for p in (ROOT / "snippets/_checks").glob("[!_]*.py"))
    assert sorted(found) == checkers
    assert all(path.is_file() and solutions.wrong_solutions(c) for c, path in found.items())


@pytest.mark.unit
def test_unknown_ids_are_refused_with_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown checker ids \['nope'\] \(known: tax_brackets"):
        checker_runs.run_all(["nope"])
