"""Fixtures shared by the tests (fresh venvs made from a reader's install line, a folder inside
the project), and the ``unit`` mark: what `nox -s unit` runs, under tests/unit_guard.py.

A test marked ``unit`` (``@pytest.mark.unit``, or ``pytestmark = pytest.mark.unit`` for all of a
module) starts no JAX, browser, site build or Python process. With ``JITDOCS_UNIT=1`` (set by
`nox -s unit`) only the modules that mark some test ``unit`` are imported, only those tests run,
and the guard is on from before the first import: a marked test that breaks the rule fails.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.page.model import ROOT
from engine.run.timing import SHARED_CPU_VARIABLE
from tests import unit_guard
from tests.helpers import exclusive

# A throwaway site's mkdocs.yml names the engine's Markdown extension (engine.site.extension), which
# MkDocs imports before any hook runs: builds started from another folder find it here.
os.environ.setdefault("PYTHONPATH", str(ROOT))

# `nox -s tests` names one empty folder for both pytest runs and every worker: each install line's
# venv is then made once per run, and only the first kernel in it compiles jax's bytecode.
SHARED_VENVS_VARIABLE = "JITDOCS_FRESH_VENVS"
READY = "jitdocs-ready"  # written last: a venv without it was cut short, and is made again


class FreshVenvs:
    """One venv per install line, made with uv (its cache makes this quick), each registered as
    a Jupyter kernel in a private JUPYTER_PATH."""

    def __init__(self, folder: Path):
        self.folder = folder
        os.environ["JUPYTER_PATH"] = str(folder / "jupyter")

    def python(self, packages: list[str]) -> Path:
        return self.folder / self.kernel(packages) / "bin" / "python"

    def kernel(self, packages: list[str]) -> str:
        name = "fresh-" + hashlib.sha256(" ".join(packages).encode()).hexdigest()[:12]
        venv = self.folder / name
        with exclusive(self.folder / f"{name}.lock"):
            if not (venv / READY).exists():
                shutil.rmtree(venv, ignore_errors=True)
                self._make(venv, packages)
                (venv / READY).touch()
        return name

    def _make(self, venv: Path, packages: list[str]) -> None:
        uv = shutil.which("uv")
        assert uv, "uv is needed to make fresh venvs (python3 -m pip install 'nox[uv]')"
        subprocess.run([uv, "venv", "-q", "--python", sys.executable, venv], check=True)
        python = venv / "bin" / "python"
        install = [uv, "pip", "install", "-q", "--python", python, *packages, "ipykernel"]
        subprocess.run(install, check=True)
        spec = self.folder / "jupyter" / "kernels" / venv.name
        spec.mkdir(parents=True, exist_ok=True)
        argv = [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
        kernel = {"argv": argv, "display_name": venv.name, "language": "python"}
        (spec / "kernel.json").write_text(json.dumps(kernel), encoding="utf-8")


@pytest.fixture(scope="session")
def fresh_venvs(tmp_path_factory) -> FreshVenvs:
    before = os.environ.get("JUPYTER_PATH")
    shared = os.environ.get(SHARED_VENVS_VARIABLE)
    folder = Path(shared).resolve() if shared else tmp_path_factory.mktemp("fresh-venvs")
    folder.mkdir(parents=True, exist_ok=True)
    yield FreshVenvs(folder)
    if before is None:
        os.environ.pop("JUPYTER_PATH", None)
    else:
        os.environ["JUPYTER_PATH"] = before


@pytest.fixture
def no_shared_cpu(monkeypatch) -> None:
    """For a ``clockless`` test (tests/timing_marks.py): its claims carry given numbers, so the
    pages and checks it runs may claim them in a worker beside other tests."""
    monkeypatch.delenv(SHARED_CPU_VARIABLE, raising=False)


@pytest.fixture
def project_folder() -> Iterator[Path]:
    """A folder of its own inside the project (a page's path is taken from ROOT), removed after:
    one per test, as xdist may run two such tests at once."""
    folders = ROOT / ".cache"
    folders.mkdir(exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="test-folder-", dir=folders))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------- the unit tests

UNIT_RUN = os.environ.get(unit_guard.UNIT_VARIABLE) == "1"
UNIT_MARK = "unit"
ONLY_WHEN_NAMED = "only_when_named"
GUARD_KEY = pytest.StashKey[unit_guard.Guard]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{UNIT_MARK}: starts no JAX, browser, site build or Python process; `nox -s unit` runs "
        "these alone, and tests/unit_guard.py fails one that does",
    )
    config.addinivalue_line(
        "markers",
        f"{ONLY_WHEN_NAMED}: runs when its node id is named (`nox -s page` names its page's "
        "notebook); a full run proves it another way",
    )
    config.addinivalue_line(
        "markers",
        "page_rule: a rule every new page of some part must keep; engine/tools/checklist.py "
        "lists it and `nox -s new` prints it (tests/test_scaffold.py compares the two)",
    )
    if UNIT_RUN:
        config.stash[GUARD_KEY] = unit_guard.install()


def pytest_unconfigure(config: pytest.Config) -> None:
    guard = config.stash.get(GUARD_KEY, None)
    if guard:
        guard.uninstall()


def marks_unit(path: Path) -> bool:
    """Does this test module mark any test ``unit`` (read, not imported)?"""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Attribute)
        and node.attr == UNIT_MARK
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "mark"
        for node in ast.walk(tree)
    )


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """In a unit run, a test module with no unit test is not even imported (it may import JAX),
    and a folder without one is not entered (its conftest.py may build the site)."""
    if not UNIT_RUN:
        return None
    if collection_path.is_dir():
        modules = collection_path.rglob("test_*.py")
    elif collection_path.name.startswith("test_") and collection_path.suffix == ".py":
        modules = [collection_path]
    else:
        return None
    return None if any(marks_unit(module) for module in modules) else True


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    unnamed = [
        item
        for item in items
        if item.get_closest_marker(ONLY_WHEN_NAMED) and item.nodeid not in config.args
    ]
    if unnamed:  # proven another way in a full run (the test's docstring says how)
        items[:] = [item for item in items if item not in unnamed]
        config.hook.pytest_deselected(items=unnamed)
    if UNIT_RUN:
        config.stash[GUARD_KEY].refused.clear()  # a module refused at import failed collection
        other = [item for item in items if not item.get_closest_marker(UNIT_MARK)]
        items[:] = [item for item in items if item.get_closest_marker(UNIT_MARK)]
        config.hook.pytest_deselected(items=other)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A refusal the code under test swallowed (in a thread, say) still fails the test."""
    report = yield
    guard = item.config.stash.get(GUARD_KEY, None)
    if guard and guard.refused and report.passed:
        report.outcome = "failed"
        report.longrepr = f"the unit-test guard refused what this test did: {guard.refused[0]}"
    if guard:
        guard.refused.clear()  # each refusal fails one test, once
    return report
