"""A test helper is defined in one place: tests/helpers.py, or a fixture in tests/conftest.py.

Copies drift apart (issue #42 found `page` and `fence` in four files, `run_cli` and
`named_check` in two, each a little different), so a name defined at the top level of two test
files fails here: move the helper into tests/helpers.py (or tests/conftest.py for a fixture) and
import it. Test functions may share a name (pytest keeps them apart by file), and so may pytest's
hooks (each conftest.py has its own) and a script's `main`. tests/solutions/ is left out: those
are learners' wrong answers, each a program of its own.
"""

from __future__ import annotations

import ast
from collections import defaultdict

import pytest

from engine.page.model import ROOT

pytestmark = pytest.mark.unit  # every test here (tests/conftest.py)

TESTS = ROOT / "tests"
LEARNER_SOLUTIONS = TESTS / "solutions"
MAY_REPEAT = {"main"}  # a script's entry point (bench_*.py), not a helper


def files_under_tests() -> dict[str, str]:
    """Each Python file under tests/ but the learners' solutions: its path and its text."""
    return {
        path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(TESTS.rglob("*.py"))
        if LEARNER_SOLUTIONS not in path.parents
    }


def helpers_defined(source: str) -> set[str]:
    """Top-level functions and classes but tests and pytest hooks: helpers and fixtures."""
    return {
        node.name
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and not node.name.startswith(("test_", "Test", "pytest_"))
        and node.name not in MAY_REPEAT
    }


def defined_twice(files: dict[str, str]) -> dict[str, list[str]]:
    where = defaultdict(list)
    for name, source in files.items():
        for helper in helpers_defined(source):
            where[helper].append(name)
    return {helper: names for helper, names in where.items() if len(names) > 1}


def test_no_helper_is_defined_in_two_test_files():
    files = files_under_tests()
    assert len(files) > 40 and "tests/helpers.py" in files
    twice = defined_twice(files)
    assert not twice, f"define each once, in tests/helpers.py or tests/conftest.py: {twice}"


def test_the_rule_sees_helpers_and_fixtures_and_lets_tests_hooks_and_main_repeat():
    fixture = "import pytest\n\n@pytest.fixture\ndef site():\n    pass\n"
    helper, other_helper = "def fence(code):\n    pass\n", "def fence(code, *markers):\n    pass\n"
    free = "".join(
        f"def {name}():\n    pass\n" for name in ("test_same_name", "main", "pytest_configure")
    )
    files = {
        "a.py": fixture + helper + free,
        "b.py": other_helper + free + "class Loader:\n    pass\n",
        "c.py": free + "async def site():\n    pass\n\nclass Loader:\n    pass\n",
    }
    assert defined_twice(files) == {
        "fence": ["a.py", "b.py"],
        "site": ["a.py", "c.py"],
        "Loader": ["b.py", "c.py"],
    }
