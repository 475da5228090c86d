"""Check a learner's solution to an exercise or lesson: one line per check, non-zero on failure.

    nox -s check -- <exercise-id> <path/to/solution.py>
    python snippets/check_solution.py <exercise-id> <path/to/solution.py>

The checks for exercise ``ID`` live in ``snippets/_checks/ID.py``: functions decorated with
``@check("what it verifies")`` that take the learner's module and raise AssertionError with a
message that says what was expected and what came back. A check whose precondition does not
hold (say, the function is not jitted, so there is no compiled program to count) raises
``NotChecked("because ...")``: it is reported as not checked, never as a pass.

A crash in the learner's code is reported at the learner's file and line (or notebook cell),
with a hint for the JAX errors learners meet most.
"""

from __future__ import annotations

import importlib.util
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

SNIPPETS = Path(__file__).resolve().parent
CHECKS_DIR = SNIPPETS / "_checks"
# Read at run time: part of the cache key of every page that imports this module, and bundled
# with its notebook (engine.run.pages.project_files).
READS_AT_RUN_TIME = ("snippets/_checks/*.py",)


class CheckError(Exception):
    """The checks cannot run (unknown exercise, no checks, not a Python file); ``main`` exits 2."""


class NotChecked(Exception):
    """Raised by a check whose precondition failed, with the reason: ``NotChecked("because
    newton_sqrt is not jitted")``. The check is reported as not checked, and counts against."""


@dataclass(frozen=True)
class Check:
    description: str
    run: Callable[[ModuleType], None]


@dataclass(frozen=True)
class Result:
    description: str
    passed: bool
    message: str = ""
    checked: bool = True  # False: a precondition failed, so the check could not say

    def __str__(self) -> str:
        if self.passed:
            return f"PASS  {self.description}"
        if not self.checked:
            return f"SKIP  {self.description}: {self.message}"
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


def run_checks(exercise_id: str, solution: ModuleType, until: str | None = None) -> list[Result]:
    """Run every check of ``exercise_id`` against an imported solution module; with ``until``,
    only the checks up to the one it describes, in order. A check's result depends on the checks
    before it (what they compiled, say), never on those after: theirs are the full run's."""
    checks = checks_for(exercise_id)
    if until is not None:
        descriptions = [item.description for item in checks]
        if until not in descriptions:
            raise CheckError(f"'{until}' is not a check of {exercise_id}: {descriptions}")
        checks = checks[: descriptions.index(until) + 1]
    results = []
    for item in checks:
        try:
            item.run(solution)
        except NotChecked as reason:
            message = f"not checked: {str(reason).strip() or 'because a precondition failed'}"
            results.append(Result(item.description, False, message, checked=False))
        except AssertionError as error:
            message = str(error) or "assertion failed"
            # a check that turned the learner's crash into advice: say where the crash was
            where = learner_line(error.__context__, solution) if error.__context__ else ""
            message += f" (at {where})" if where else ""
            results.append(Result(item.description, False, message))
        except Exception as error:  # a crash in the solution is a failed check
            results.append(Result(item.description, False, crash_message(error, solution)))
        else:
            results.append(Result(item.description, True))
    return results


CONCRETE = (
    "code needed a concrete Python value (a shape, a range() bound, an int()) from a traced "
    "one; use a lax loop or jnp.where, or mark that argument static (static_argnames)"
)
# Known JAX errors, recognised by class name or message, and what usually causes them.
HINTS = (
    (
        "TracerBoolConversionError",
        "a Python if, while, and/or or bool() tested a traced value; branch with lax.cond, "
        "lax.switch or jnp.where, loop with lax.while_loop, or make that argument static",
    ),
    ("ConcretizationTypeError", CONCRETE),
    ("TracerIntegerConversionError", CONCRETE),
    ("Shapes must be 1D sequences of concrete values", CONCRETE),
    (
        "Non-hashable static arguments",
        "a static argument must be hashable, a Python int, float, str or tuple, not an array; "
        "pass a plain Python value, or leave that argument traced",
    ),
)


def hint_for(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return next((hint for key, hint in HINTS if key in text), "")


def crash_message(error: BaseException, solution: ModuleType) -> str:
    """``raised X: first line (at your file's line) hint: ...`` for an error in learner code."""
    lines = str(error).strip().splitlines()
    message = f"raised {type(error).__name__}: {lines[0] if lines else ''}"
    where = learner_line(error, solution)
    message += f" (at {where})" if where else ""
    hint = hint_for(error)
    return f"{message}; hint: {hint}" if hint else message


def learner_files(solution: ModuleType) -> set[str]:
    """Files holding the learner's code: the solution file, or (a notebook's namespace) the
    cells that defined its functions."""
    own = getattr(solution, "__file__", None)
    if own:
        return {str(Path(own).resolve())}
    files = set()
    for value in vars(solution).values():
        function = getattr(value, "__wrapped__", value)  # a jax.jit wrapper
        code = getattr(function, "__code__", None)
        if code is not None and getattr(function, "__module__", None) == "__main__":
            files.add(code.co_filename)
    return files


def learner_line(error: BaseException, solution: ModuleType) -> str:
    """The innermost line of the learner's code in the error's traceback (its cause's too:
    JAX hides its own frames in the cause), as ``my_file.py:7`` or ``notebook cell In[4], line
    3``; "" when the learner's code is not on the stack."""
    files = learner_files(solution)
    found = ""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        for frame in traceback.extract_tb(error.__traceback__):
            name = frame.filename
            if name in files or (name and str(Path(name).resolve()) in files):
                found = _describe(name, frame.lineno)
        if found:
            return found
        error = error.__cause__ or error.__context__
    return ""


def _describe(filename: str, line: int | None) -> str:
    cell = _notebook_cell(filename)
    if cell is not None:
        return f"notebook cell In[{cell}], line {line}"
    return f"{Path(filename).name}:{line}"


def _notebook_cell(filename: str) -> int | None:
    """The execution count of the notebook cell compiled to ``filename`` (IPython), or None."""
    shell = sys.modules.get("IPython")
    get = getattr(shell, "get_ipython", None)
    ipython = get() if get else None
    names = getattr(getattr(ipython, "compile", None), "_filename_map", None) or {}
    return names.get(filename)


def usage(problem: str) -> int:
    """Say what is wrong with the command line, then how to call it; exit status 2."""
    print(f"error: {problem}\n", file=sys.stderr)
    print("usage: nox -s check -- <exercise-id> <path/to/solution.py>", file=sys.stderr)
    print(
        "   or: python snippets/check_solution.py <exercise-id> <path/to/solution.py>",
        file=sys.stderr,
    )
    print(
        "   or: python check.py <exercise-id> <path/to/solution.py>  (from the site)",
        file=sys.stderr,
    )
    print(f"\nexercise and lesson ids: {', '.join(exercise_ids())}", file=sys.stderr)
    return 2


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        return usage(f"expected 2 arguments, an exercise id and a file, got {len(argv)}")
    exercise_id, solution_path = argv[0], Path(argv[1])
    if exercise_id.endswith(".py") and argv[1] in exercise_ids():
        return usage(f"the exercise id comes first: try {argv[1]} {argv[0]}")
    if exercise_id not in exercise_ids():
        known = ", ".join(exercise_ids()) or "none"
        return usage(f"unknown exercise '{exercise_id}' (known: {known})")
    if not solution_path.is_file():
        return usage(f"{solution_path}: no such file")
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
    failed = sum(r.checked and not r.passed for r in results)
    unchecked = sum(not r.checked for r in results)
    summary = f"{len(results) - failed - unchecked} passed, {failed} failed"
    print(summary + (f", {unchecked} not checked" if unchecked else ""))
    return 1 if failed or unchecked else 0


if __name__ == "__main__":
    # Run as check_solution, the module the checks import: one NotChecked class.
    from check_solution import main as _main

    sys.exit(_main(sys.argv[1:]))
