"""Fixtures shared by the tests: fresh venvs made from a reader's install line, a folder of
its own inside the project."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.page.model import ROOT

# A throwaway site's mkdocs.yml names the engine's Markdown extension (engine.site.extension), which
# MkDocs imports before any hook runs: builds started from another folder find it here.
os.environ.setdefault("PYTHONPATH", str(ROOT))

# `nox -s tests` names one empty folder for both pytest runs and every worker: each install line's
# venv is then made once per run, and only the first kernel in it compiles jax's bytecode.
SHARED_VENVS_VARIABLE = "JITDOCS_FRESH_VENVS"
READY = "jitdocs-ready"  # written last: a venv without it was cut short, and is made again


@contextmanager
def exclusive(lock_file: Path) -> Iterator[None]:
    """Hold a lock on ``lock_file`` against every other process that asks for it."""
    with lock_file.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


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
def project_folder() -> Iterator[Path]:
    """A folder of its own inside the project (a page's path is taken from ROOT), removed after:
    one per test, as xdist may run two such tests at once."""
    folders = ROOT / ".cache"
    folders.mkdir(exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="test-folder-", dir=folders))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
