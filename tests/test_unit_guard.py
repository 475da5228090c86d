"""`nox -s unit` (tests/unit_guard.py, tests/conftest.py): what a unit test may not do is refused,
loudly, and every engine module imports without starting JAX."""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import subprocess
import sys

import pytest

from engine.page.model import ROOT
from tests import unit_guard

pytestmark = pytest.mark.unit  # every test here (tests/conftest.py)

ENGINE_MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for path in (ROOT / "engine").rglob("*.py")
)


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_every_engine_module_imports_without_jax(module):
    """Under `nox -s unit` the guard is on, so an engine module that imports JAX (or playwright,
    or mkdocs' build commands) when it is imported fails here, naming itself."""
    importlib.import_module(module)
    if os.environ.get(unit_guard.UNIT_VARIABLE) == "1":
        assert not [name for name in sys.modules if unit_guard.is_refused(name)]


def test_the_module_list_has_every_layer():
    assert {"engine.page.parser", "engine.run.execute", "engine.site.hook"} <= set(ENGINE_MODULES)
    assert {"engine.tools.drift", "engine"} <= set(ENGINE_MODULES)


@pytest.fixture
def guard(monkeypatch, tmp_path):
    """A guard of the test's own, on (inside the session's under `nox -s unit`), refusing a
    module made for the test (JAX may be imported already, under `nox -s tests`); then off."""
    (tmp_path / "heavy_for_unit_guard.py").write_text("LOADED = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(unit_guard, "REFUSED_IMPORTS", ("heavy_for_unit_guard",))
    on = unit_guard.install()
    yield on
    on.uninstall()
    sys.modules.pop("heavy_for_unit_guard", None)


def test_a_refused_import_fails_but_asking_whether_it_is_installed_does_not(guard):
    assert importlib.util.find_spec("heavy_for_unit_guard") is not None  # as nbconvert asks
    with pytest.raises(unit_guard.NotAUnitTest, match="a unit test imports heavy_for_unit_guard"):
        import heavy_for_unit_guard  # noqa: F401
    assert "heavy_for_unit_guard" not in sys.modules


@pytest.mark.parametrize(
    "start",
    [
        lambda: subprocess.run([sys.executable, "-c", "pass"], check=True),
        lambda: subprocess.run("git --version", shell=True, check=True),
        lambda: os.system("true"),
        lambda: os.posix_spawn("/bin/true", ["true"], os.environ),
    ],
    ids=["python", "a-shell", "os.system", "os.posix_spawn"],
)
def test_a_process_is_refused(guard, start):
    with pytest.raises(unit_guard.NotAUnitTest, match=r"a unit test (runs|starts a process)"):
        start()


def test_git_and_uname_may_run(guard):
    assert subprocess.run(["git", "--version"], capture_output=True, check=True).stdout
    assert subprocess.run(["uname", "-p"], capture_output=True, check=True).returncode == 0


def test_except_exception_cannot_swallow_a_refusal(guard):
    """The code under test may catch Exception; the refusal is no Exception, and is listed."""
    with pytest.raises(unit_guard.NotAUnitTest), contextlib.suppress(Exception):
        subprocess.run([sys.executable, "-c", "pass"])  # in a try/except Exception
    assert len(guard.refused) == 1 and "a unit test runs [" in guard.refused[0]


def test_off_again_everything_is_as_before(guard, monkeypatch):
    execute_child, system = subprocess.Popen._execute_child, os.system
    second = unit_guard.install()  # nested, as here under `nox -s unit`
    assert subprocess.Popen._execute_child is not execute_child and os.system is not system
    second.uninstall()
    assert subprocess.Popen._execute_child is execute_child and os.system is system


def test_the_session_sets_the_variable_the_guard_reads():
    noxfile = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert f'UNIT_VARIABLE = "{unit_guard.UNIT_VARIABLE}"' in noxfile
