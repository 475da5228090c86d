"""The exercise checkers have teeth: each passes its reference solution and fails, with a useful
message, every plausible wrong solution in ``tests/solutions/<exercise-id>/``.

A wrong solution's docstring names the check it must fail on a line ``Fails: <description>``.
Other checks may fail too; the named one must, with an "expected ... got ..." message of its
own rather than a crash. ``engine.tools.solutions`` finds the solutions and the named checks.
The command line is tested as ``nox -s check`` runs it: from the project root, with nothing
added to ``PYTHONPATH``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from timing_marks import checks_up_to_measure_time, exercises, timed_if

from check_solution import checks_for, load_module, run_checks
from engine.page.model import ROOT
from engine.tools.solutions import (
    EXERCISES,
    exercise_solution,
    exercise_starter,
    named_check,
    wrong_solutions,
)
from tests import tiers
from tests.helpers import results_by_description, run_cli

# Checks no wrong solution needs to trip, and why.
UNTESTED = {
    ("recompile_detective", "call 1 predicted right"): "nobody expects a first call to be cached",
    ("aot_signature", "call 1 predicted right"): "nobody expects the compiled signature to fail",
}


def every_wrong_solution() -> list[Path]:
    return [path for name in EXERCISES for path in wrong_solutions(name)]


def wrong_solutions_marked() -> list:
    """Marked `timing` when the checks it runs, up to the one it names, time code; the default
    tier runs one per checker (tests/tiers.py), and all of a checker whose files changed."""
    marked = [
        timed_if(path, checks_up_to_measure_time(path.parent.name, named_check(path)))
        for path in every_wrong_solution()
    ]
    return tiers.one_per(marked, lambda path: path.parent.name, solution_subjects)


def checker_subjects(exercise: str) -> list[str]:
    """What an exercise checker's verdicts depend on."""
    return [
        f"snippets/_checks/{exercise}.py",
        f"snippets/exercises/{exercise}.py",
        f"snippets/exercises/{exercise}_starter.py",
        "snippets/check_solution.py",
        "docs/practice/exercises.md",
    ]


def solution_subjects(path: Path) -> list[str]:
    return [*checker_subjects(path.parent.name), path.relative_to(ROOT).as_posix()]


def sampled_exercises() -> list:
    """Every exercise; the default tier runs those whose checker times nothing."""
    return tiers.one_per(exercises(EXERCISES), str, checker_subjects)


def load(path: Path):
    return load_module(path, f"solution_{path.parent.name}_{path.stem}")


@pytest.mark.parametrize("exercise", sampled_exercises())
def test_reference_solution_passes_every_check(exercise):
    results = run_checks(exercise, load(exercise_solution(exercise)))
    assert all(result.passed for result in results), "\n".join(map(str, results))


@pytest.mark.parametrize("exercise", sampled_exercises())
def test_starter_fails_with_a_message_for_every_check(exercise):
    """The skeleton a learner starts from runs, and no check passes it by accident."""
    results = run_checks(exercise, load(exercise_starter(exercise)))
    assert results and not any(result.passed for result in results)
    assert all(result.message for result in results)


def solution_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", wrong_solutions_marked(), ids=solution_id)
def test_wrong_solution_fails_the_named_check(path: Path):
    """The checks up to the named one run, in order (``until``): the named check's result is the
    full run's, and the later checks, which cannot change it, are not paid for."""
    name = named_check(path)
    failed = results_by_description(path.parent.name, load(path), until=name)[name]
    assert not failed.passed, f"{path.name} should fail '{name}', but it passed"
    message = failed.message
    assert not message.startswith("raised "), f"a crash, not a diagnosis: {message}"
    assert "expected" in message and ("got" in message or "measured" in message), message


@pytest.mark.parametrize("exercise", EXERCISES)
def test_every_check_is_tripped_by_some_wrong_solution(exercise):
    tripped = {named_check(path) for path in wrong_solutions(exercise)}
    for item in checks_for(exercise):
        if (exercise, item.description) in UNTESTED:
            continue
        assert item.description in tripped, f"no wrong solution fails '{item.description}'"


@pytest.mark.unit
def test_wrong_solutions_are_several_per_exercise():
    for exercise in EXERCISES:
        assert len(wrong_solutions(exercise)) >= 3, exercise


# ---------------------------------------------------------------- the command line


def test_cli_passes_a_reference_solution_with_exit_code_0():
    done = run_cli("recompile_detective", "snippets/exercises/recompile_detective.py")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "9 passed, 0 failed"
    assert all(line.startswith("PASS  ") for line in lines[:-1])


# The command line is tested in the default tier by test_check_messages.py (every bad command
# line, a failing solution's summary and exit 1) and by the reference pass above; these two run
# it again, from an exercise's side, when the CLI, a checker or this file changes.
CLI = [
    "snippets/check_solution.py",
    "snippets/_checks/",
    "snippets/exercises/",
    "tests/solutions/",
    "tests/test_exercises.py",
]


@tiers.only_when_changed(*CLI)
def test_cli_names_the_failed_check_and_exits_1():
    wrong = "tests/solutions/newton_sqrt/wrong_static_tol.py"
    done = run_cli("newton_sqrt", wrong)
    assert done.returncode == 1, done.stdout + done.stderr
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL  ")]
    assert len(failed) == 1 and failed[0].startswith(f"FAIL  {named_check(ROOT / wrong)}: ")
    assert "expected no new compilation" in failed[0]
    assert done.stdout.splitlines()[-1] == "5 passed, 1 failed"


@tiers.only_when_changed(*CLI)
def test_cli_usage_errors_exit_2_and_unknown_ids_are_named():
    assert run_cli().returncode == 2
    missing = run_cli("tax_brackets", "no/such/file.py")
    assert missing.returncode == 2 and "no such file" in missing.stderr
    unknown = run_cli("no_such_exercise", "snippets/exercises/tax_brackets.py")
    assert unknown.returncode != 0 and "unknown exercise" in unknown.stderr
    assert all(name in unknown.stderr for name in EXERCISES)


@pytest.mark.unit
def test_every_check_module_is_covered_by_these_tests():
    """A checks module that no test list names would have no proof that its checks have teeth."""
    from test_lessons import LESSONS

    from check_solution import exercise_ids

    assert set(exercise_ids()) == set(EXERCISES) | {lesson.id for lesson in LESSONS}


def test_library_errors_are_exceptions_that_main_maps_to_exit_2(tmp_path):
    """Library code must not end the caller's process: a page or a test calls checks_for too."""
    from check_solution import CheckError

    with pytest.raises(CheckError, match="unknown exercise 'no_such_exercise'"):
        checks_for("no_such_exercise")
    not_python = tmp_path / "notes.txt"
    not_python.write_text("x = 1\n")
    with pytest.raises(CheckError, match="not a Python file"):
        load_module(not_python, "_notes")
    unknown = run_cli("no_such_exercise", "snippets/exercises/tax_brackets.py")
    assert unknown.returncode == 2 and "error: unknown exercise" in unknown.stderr
