"""Fixtures shared by the tests: fresh venvs made from a reader's install line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


class FreshVenvs:
    """One venv per install line, made with uv (its cache makes this quick), each registered as
    a Jupyter kernel in a private JUPYTER_PATH."""

    def __init__(self, folder: Path):
        self.folder, self.kernels = folder, {}
        os.environ["JUPYTER_PATH"] = str(folder / "jupyter")

    def python(self, packages: list[str]) -> Path:
        return self.folder / self.kernel(packages) / "bin" / "python"

    def kernel(self, packages: list[str]) -> str:
        key = tuple(packages)
        if key not in self.kernels:
            name = f"fresh-{len(self.kernels)}"
            venv = self.folder / name
            uv = shutil.which("uv")
            assert uv, "uv is needed to make fresh venvs (python3 -m pip install 'nox[uv]')"
            subprocess.run([uv, "venv", "-q", "--python", sys.executable, venv], check=True)
            python = venv / "bin" / "python"
            install = [uv, "pip", "install", "-q", "--python", python, *packages, "ipykernel"]
            subprocess.run(install, check=True)
            spec = self.folder / "jupyter" / "kernels" / name
            spec.mkdir(parents=True)
            argv = [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
            kernel = {"argv": argv, "display_name": name, "language": "python"}
            (spec / "kernel.json").write_text(json.dumps(kernel), encoding="utf-8")
            self.kernels[key] = name
        return self.kernels[key]


@pytest.fixture(scope="session")
def fresh_venvs(tmp_path_factory) -> FreshVenvs:
    before = os.environ.get("JUPYTER_PATH")
    yield FreshVenvs(tmp_path_factory.mktemp("fresh-venvs"))
    if before is None:
        os.environ.pop("JUPYTER_PATH", None)
    else:
        os.environ["JUPYTER_PATH"] = before
