"""The engine's layers: import contracts (import-linter), module size, complexity rules.

The contracts live in pyproject.toml's ``[tool.importlinter]``: page <- run <- site <- tools,
the build never imports a tool, the learner runtime imports no engine module, page and run import
no renderer, the tools read no data from the renderer, and the renderer reads no cache entry.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from engine.page.model import ROOT

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
MAX_MODULE_LINES = 400


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """The contracts, checked on the engine in ``root`` (not on the one PYTHONPATH names)."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(ROOT / "pyproject.toml")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_contracts_hold():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "7 kept, 0 broken" in done.stdout


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The engine and the learner runtime, copied where a test may break them."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copytree(
        ROOT / "snippets", tmp_path / "snippets", ignore=shutil.ignore_patterns("*.pyc")
    )
    return tmp_path


def add_import(path: Path, line: str) -> int:
    """Append ``line`` to the module; the line number it lands on."""
    text = path.read_text(encoding="utf-8")
    path.write_text(f"{text}\n{line}  # noqa\n", encoding="utf-8")
    return len(path.read_text(encoding="utf-8").splitlines())


# Each contract, with the wrong imports that must break it: one lint-imports run per contract.
WRONG_IMPORTS = {
    "imports no maintainer tool": [("engine/site/hook.py", "from engine.tools import matrix")],
    "each layer imports only": [
        ("engine/run/pages.py", "from engine.site import hook"),
        ("engine/page/markers.py", "import engine.run.results"),
    ],
    "imports no engine module": [
        ("snippets/jitkit.py", "from engine.page import markers"),
        ("snippets/check_solution.py", "import engine.run.pages"),
    ],
    "no Markdown or HTML renderer": [
        ("engine/run/results.py", "import markdown"),
        ("engine/page/claims.py", "from nbconvert import filters"),
    ],
    "never from the site": [("engine/tools/matrix.py", "from engine.site import version_notes")],
    "never from its cache": [("engine/site/kept.py", "from engine.run.cache import load_cached")],
    "use no MkDocs API": [
        ("engine/site/render.py", "from engine.site import hook"),
        ("engine/site/labels.py", "import mkdocs.utils"),
    ],
}


def contract_report(stdout: str, phrase: str) -> str:
    """The part of lint-imports' report under the contract whose name holds ``phrase``: from its
    title (underlined with dashes) to the next title."""
    lines = stdout.splitlines()
    titles = [i for i in range(len(lines) - 1) if lines[i] and set(lines[i + 1]) == {"-"}] + [
        len(lines)
    ]
    (start,) = [i for i in titles[:-1] if phrase in lines[i]]
    end = titles[titles.index(start) + 1]
    return "\n".join(lines[start:end])


@pytest.mark.parametrize("broken", list(WRONG_IMPORTS))
def test_a_wrong_import_breaks_a_contract(copy, broken):
    """Each wrong import for one contract, added together: the contract breaks, and its report
    names each of them by importer and line (so each breaks it, not only one of them)."""
    added = [(module, add_import(copy / module, line)) for module, line in WRONG_IMPORTS[broken]]
    done = lint_imports(copy)
    assert done.returncode == 1, done.stdout + done.stderr
    assert any(broken in row and "BROKEN" in row for row in done.stdout.splitlines())
    report = contract_report(done.stdout, broken)
    for module, number in added:
        importer = module.removesuffix(".py").replace("/", ".")
        chain = [row for row in report.splitlines() if f"{importer} -> " in row]
        assert any(f"l.{number})" in row for row in chain), (module, number, report)


@pytest.mark.unit
def test_no_module_is_long():
    """Past ~400 lines a module holds two ideas; split it by what it does."""
    sizes = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for folder in ("engine", "snippets")
        for path in (ROOT / folder).rglob("*.py")
    }
    assert sizes, "no module found"
    long = {name: lines for name, lines in sizes.items() if lines > MAX_MODULE_LINES}
    assert not long, f"over {MAX_MODULE_LINES} lines: {long}"


@pytest.mark.unit
def test_ruff_checks_complexity():
    """Short units are held by ruff (run by `nox -s lint`), not by a budget of our own."""
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]
    assert {"C901", "PLR0912", "PLR0915"} <= set(lint["lint"]["select"])
    assert lint["lint"]["mccabe"]["max-complexity"] <= 10
