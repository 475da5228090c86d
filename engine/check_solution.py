"""Check a learner's solution to an exercise or lesson: one line per check, non-zero on failure.

    nox -s check -- <exercise-id> <path/to/solution.py>
    python -m engine.check_solution <exercise-id> <path/to/solution.py>

The checks for exercise ``ID`` live in ``snippets/_checks/ID.py``: functions decorated with
``@check("what it verifies")`` that take the learner's module and raise AssertionError with a
message that says what was expected and what came back.
"""

from __future__ import annotations

import importlib.util
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

SNIPPETS = Path(__file__).resolve().parent.parent / "snippets"
CHECKS_DIR = SNIPPETS / "_checks"
# Read at run time: part of the cache key of every page that imports this module, and bundled
# with its notebook (engine.build.project_files).
READS_AT_RUN_TIME = ("snippets/_checks/*.py",)


class CheckError(Exception):
    """The checks cannot run (unknown exercise, no checks, not a Python file); ``main`` exits 2."""


@dataclass(frozen=True)
class Check:
    description: str
    run: Callable[[ModuleType], None]


@dataclass(frozen=True)
class Result:
    description: str
    passed: bool
    message: str = ""

    def __str__(self) -> str:
        if self.passed:
            return f"PASS  {self.description}"
        return f"FAIL  {self.description}: {self.message}"


def check(description: str):
    """Mark a function of a checks module as one check, described in plain words."""

    def mark(function: Callable[[ModuleType], None]) -> Callable[[ModuleType], None]:
        function.check_description = description
        return function

    return mark


def exercise_ids() -> list[str]:
    return sorted(p.stem for p in CHECKS_DIR.glob("*.py") if not p.name.startswith("_"))


def checks_for(exercise_id: str) -> list[Check]:
    if str(SNIPPETS) not in sys.path:
        sys.path.insert(0, str(SNIPPETS))  # checks may import jitkit, as pages do
    path = CHECKS_DIR / f"{exercise_id}.py"
    if not path.is_file():
        known = ", ".join(exercise_ids()) or "none"
        raise CheckError(f"unknown exercise '{exercise_id}' (known: {known})")
    module = load_module(path, f"_checks_{exercise_id}")
    found = [
        Check(value.check_description, value)
        for value in vars(module).values()
        if callable(value) and hasattr(value, "check_description")
    ]
    if not found:
        raise CheckError(f"{path}: no @check functions")
    return found


def load_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise CheckError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_checks(exercise_id: str, solution: ModuleType) -> list[Result]:
    """Run every check of ``exercise_id`` against an imported solution module."""
    results = []
    for item in checks_for(exercise_id):
        try:
            item.run(solution)
        except AssertionError as error:
            results.append(Result(item.description, False, str(error) or "assertion failed"))
        except Exception as error:  # a crash in the solution is a failed check
            last = traceback.extract_tb(error.__traceback__)[-1]
            where = f"(at {Path(last.filename).name}:{last.lineno})"
            message = f"raised {type(error).__name__}: {error} {where}"
            results.append(Result(item.description, False, message))
        else:
            results.append(Result(item.description, True))
    return results


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        print(f"\nexercises: {', '.join(exercise_ids())}", file=sys.stderr)
        return 2
    exercise_id, solution_path = argv[0], Path(argv[1])
    if not solution_path.is_file():
        print(f"error: {solution_path}: no such file", file=sys.stderr)
        return 2
    try:
        solution = load_module(solution_path.resolve(), "solution")
    except Exception as error:  # report any import-time crash clearly
        what = f"{type(error).__name__}: {error}"
        print(f"error: importing {solution_path} failed: {what}", file=sys.stderr)
        return 1
    try:
        results = run_checks(exercise_id, solution)
    except CheckError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for result in results:
        print(result)
    failed = sum(not r.passed for r in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
