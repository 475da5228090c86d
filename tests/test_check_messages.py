"""What the checker tells a learner: where their code broke, what a known JAX error usually
means, "not checked" instead of a vacuous PASS, and usage on a bad command line.

Each learner file here is written to a temporary folder, as a learner's own file would be.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from check_solution import (
    NotChecked,
    check,
    crash_message,
    learner_line,
    load_module,
    run_checks,
)
from engine.page.model import ROOT
from tests.helpers import results_by_description, run_cli

STATIC_N = """\
from functools import partial

import jax
from jax import lax


@partial(jax.jit, static_argnames="n")
def logistic_steps(x0, r, n):
    def step(_, x):
        return r * x * (1.0 - x)

    return lax.fori_loop(0, n, step, x0)
"""

PYTHON_IF = """\
from jax import lax


def logistic_steps(x0, r, n):
    def body(i, x):
        return r * x * (1 - x)

    if n > 3:
        return x0
    return lax.fori_loop(0, n, body, x0)
"""

ARANGE = """\
import jax.numpy as jnp


def logistic_steps(x0, r, n):
    steps = jnp.arange(n)
    x = x0
    for _ in steps:
        x = r * x * (1 - x)
    return x
"""


def learner_file(tmp_path: Path, text: str, name: str = "my_solution.py"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_module(path, f"learner_{tmp_path.name}_{path.stem}")


TRACED = "n may be traced: jax.jit(logistic_steps)(x0, r, n) works"


def test_a_crash_is_reported_at_the_learners_file_and_line_not_the_checkers(tmp_path):
    result = results_by_description("logistic_steps", learner_file(tmp_path, PYTHON_IF))[TRACED]
    assert not result.passed
    assert "(at my_solution.py:8)" in result.message, result.message  # the `if n > 3:` line
    assert "_checks" not in result.message and "logistic_steps.py" not in result.message
    assert "site-packages" not in result.message


def test_advice_from_a_check_names_the_learners_line_too(tmp_path):
    """newton_sqrt's checks turn a tracer error into advice; the line still comes along."""
    source = (ROOT / "tests/solutions/newton_sqrt/wrong_python_while.py").read_text()
    module = learner_file(tmp_path, source, "my_newton.py")
    failed = [r for r in run_checks("newton_sqrt", module) if r.checked and not r.passed]
    assert failed and all("(at my_newton.py:" in r.message for r in failed), failed


@pytest.mark.parametrize(
    ("source", "error", "hint"),
    [
        (PYTHON_IF, "TracerBoolConversionError", "lax.cond"),
        (ARANGE, "ConcretizationTypeError", "static_argnames"),
        (STATIC_N, "ValueError: Non-hashable static arguments", "must be hashable"),
    ],
    ids=["tracer-bool", "concretization", "non-hashable-static"],
)
def test_the_three_common_jax_errors_get_a_hint(tmp_path, source, error, hint):
    result = results_by_description("logistic_steps", learner_file(tmp_path, source))[TRACED]
    assert not result.passed and f"raised {error}" in result.message, result.message
    assert "; hint: " in result.message and hint in result.message.split("; hint: ")[1]


@pytest.mark.unit
def test_a_hint_is_only_given_for_an_error_it_explains():
    try:
        {}["missing"]
    except KeyError as error:
        message = crash_message(error, types.ModuleType("answer"))
    assert message == "raised KeyError: 'missing'"  # no hint, and no line outside learner code


@pytest.mark.unit
def test_notebook_cells_are_named_by_their_execution_count(monkeypatch):
    """In a notebook, IPython maps each cell's code file to its In[n] number."""
    source = "def broken():\n    return 1 / 0\n"
    code = compile(source, "/tmp/ipykernel_1/123.py", "exec")
    namespace: dict = {"__name__": "__main__"}
    exec(code, namespace)
    shell = types.SimpleNamespace(
        compile=types.SimpleNamespace(_filename_map={"/tmp/ipykernel_1/123.py": 4})
    )
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    answer = types.ModuleType("answer")
    answer.broken = namespace["broken"]
    try:
        answer.broken()
    except ZeroDivisionError as error:
        assert learner_line(error, answer) == "notebook cell In[4], line 2"


def test_no_vacuous_pass_when_the_function_does_not_trace_or_is_not_jitted():
    wrong = ROOT / "tests" / "solutions" / "newton_sqrt"
    untraceable = results_by_description(
        "newton_sqrt", load_module(wrong / "wrong_python_while.py", "w1")
    )
    capped = untraceable[
        "stops after a capped number of steps when the tolerance can never be met (tol=-1)"
    ]
    assert not capped.passed and not capped.checked
    assert capped.message.startswith("not checked: because newton_sqrt does not trace")
    assert str(capped).startswith("SKIP  stops after")

    plain = results_by_description("newton_sqrt", load_module(wrong / "wrong_not_jitted.py", "w2"))
    reuse = plain["new values of a and tol reuse the compiled program (tol is traced, not static)"]
    assert not reuse.passed and not reuse.checked
    assert (
        reuse.message == "not checked: because newton_sqrt is not jitted, so there is no "
        "compiled program"
    )


@pytest.mark.unit
def test_not_checked_is_part_of_the_check_api(monkeypatch):
    """A checks module raises NotChecked; run_checks reports it, never as a pass."""
    module = types.ModuleType("_checks_demo")

    @check("needs a jitted function")
    def needs_jit(solution):
        raise NotChecked("because it is not jitted")

    module.needs_jit = needs_jit
    monkeypatch.setattr(
        "check_solution.checks_for",
        lambda _id: [types.SimpleNamespace(description="needs a jitted function", run=needs_jit)],
    )
    (result,) = run_checks("demo", types.ModuleType("answer"))
    assert (result.passed, result.checked) == (False, False)
    assert str(result) == "SKIP  needs a jitted function: not checked: because it is not jitted"


def test_the_shape_check_compares_shapes_only(tmp_path):
    """Right shape, wrong values: the shape check passes and the values check fails."""
    source = (ROOT / "snippets/exercises/tax_brackets.py").read_text()
    source += "\n\ndef tax_vectorized(income):\n    return income * 0.5\n"
    results = results_by_description("tax_brackets", learner_file(tmp_path, source))
    assert results["tax_vectorized keeps the input's shape: 3x4 incomes in, 3x4 taxes out"].passed
    values = "tax_vectorized matches the reference on a whole vector of incomes, under jax.jit"
    assert not results[values].passed


def test_a_bug_is_named_only_when_the_result_points_to_it():
    """model_class blames weights baked into a shared program only when the second object got
    the first one's result; another wrong result (no bias added) gets expected and got alone."""
    second = "a second Affine with new weights compiles nothing and gives its own result"
    wrong = ROOT / "tests" / "solutions" / "model_class"
    said = {
        name: results_by_description(
            "model_class", load_module(wrong / f"{name}.py", f"named_{name}"), until=second
        )[second]
        for name in ("wrong_hash_by_activation", "wrong_no_bias")
    }
    assert not any(result.passed for result in said.values())
    baked = "baked in the first object's weights"
    assert baked in said["wrong_hash_by_activation"].message
    assert baked not in said["wrong_no_bias"].message, said["wrong_no_bias"].message


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        ((), "expected 2 arguments"),
        (("tax_brackets",), "expected 2 arguments"),
        (("a", "b", "c"), "expected 2 arguments"),
        (("snippets/exercises/tax_brackets.py", "tax_brackets"), "the exercise id comes first"),
        (("tax_brackets", "no/such/file.py"), "no/such/file.py: no such file"),
        (("no_such_exercise", "snippets/exercises/tax_brackets.py"), "unknown exercise"),
    ],
    ids=["none", "one", "three", "swapped", "missing-file", "unknown-id"],
)
def test_every_bad_command_line_prints_the_problem_and_the_usage(args, problem):
    done = run_cli(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"error: {problem}"), done.stderr
    assert "usage: nox -s check -- <exercise-id> <path/to/solution.py>" in done.stderr
    assert "tax_brackets, training_loop" in done.stderr  # the known ids


def test_the_cli_counts_not_checked_and_exits_1():
    done = run_cli("newton_sqrt", "tests/solutions/newton_sqrt/wrong_not_jitted.py")
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == "4 passed, 1 failed, 1 not checked"


def test_a_starter_prints_nothing_when_the_checker_imports_it(tmp_path, capsys):
    """Lesson starters print an example only when run as a script, not into the report."""
    from test_lessons import LESSONS, starter_code

    for lesson in LESSONS:
        path = tmp_path / f"starter_{lesson.id}.py"
        path.write_text(starter_code(lesson), encoding="utf-8")
        load_module(path, f"quiet_starter_{lesson.id}")
        assert capsys.readouterr().out == "", lesson.id
