"""What a unit test must not do: start JAX, a browser, a site build, or any Python process.

`nox -s unit` runs the tests marked ``unit`` with this guard on (tests/conftest.py installs it
when ``JITDOCS_UNIT`` is set, before it imports a test module): a test marked ``unit`` that
imports JAX, playwright or mkdocs' build commands, or starts a process other than a quick
``git`` or ``uname``, fails, naming what it did, instead of silently slowing the inner loop.

The guard raises ``NotAUnitTest``, a ``BaseException``, so an ``except Exception`` in the code
under test cannot swallow it, and it lists what it refused (``Guard.refused``), so a refusal in
a thread (a page run by a worker thread) still fails the test that caused it.
"""

from __future__ import annotations

import importlib.abc
import os
import subprocess
import sys
import threading

UNIT_VARIABLE = "JITDOCS_UNIT"  # set by `nox -s unit`
# Importing these starts JAX, drives a browser, or builds the site (mkdocs' commands).
REFUSED_IMPORTS = ("jax", "jaxlib", "playwright", "mkdocs.commands")
# Programs a unit test may run: quick, and no Python, JAX, browser or build behind them
# (`git ls-files`; `uname -p`, which platform.processor() runs for a cache key).
ALLOWED_PROGRAMS = frozenset({"git", "uname"})
# Every other way to start a process: os.fork (multiprocessing), os.posix_spawn, os.system,
# and _posixsubprocess.fork_exec (multiprocessing's spawn and forkserver methods).
PROCESS_STARTERS = [
    (os, name) for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system")
]
if os.name == "posix":
    import _posixsubprocess

    PROCESS_STARTERS.append((_posixsubprocess, "fork_exec"))


class NotAUnitTest(BaseException):
    """A test marked ``unit`` did what only the full suite may do."""


def is_refused(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in REFUSED_IMPORTS)


class RefusingLoader(importlib.abc.Loader):
    def __init__(self, guard: Guard, name: str) -> None:
        self.guard, self.name = guard, name

    def create_module(self, spec):
        self.guard.refuse(f"imports {self.name}")

    def exec_module(self, module) -> None:  # never reached: create_module refused
        self.guard.refuse(f"imports {self.name}")


class RefuseImports(importlib.abc.MetaPathFinder):
    """First on ``sys.meta_path``: importing a refused module stops when it would be loaded.

    Asking whether it is installed (``importlib.util.find_spec``, as nbconvert does for
    playwright) still gets the true answer: only the loader refuses.
    """

    def __init__(self, guard: Guard) -> None:
        self.guard = guard

    def find_spec(self, fullname, path=None, target=None):
        if not is_refused(fullname):
            return None  # the next finder finds it
        for finder in sys.meta_path:  # the finders that find modules (a guard's do not)
            find = None if isinstance(finder, RefuseImports) else getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find else None
            if spec is not None:
                spec.loader = RefusingLoader(self.guard, fullname)
                return spec
        return None  # not installed: the import fails as it would anyway


def program(args, executable) -> str:
    """The file name of the program a Popen runs."""
    first = executable or (args if isinstance(args, str | bytes | os.PathLike) else args[0])
    return os.path.basename(os.fsdecode(first))


class Guard:
    """Installed by ``install()``; ``uninstall()`` puts everything back."""

    def __init__(self) -> None:
        self.refused: list[str] = []  # what it refused, in order
        self.finder = RefuseImports(self)
        self.allowed = threading.local()  # set while subprocess starts an allowed program
        self.originals: list[tuple[object, str, object]] = []

    def refuse(self, what: str) -> None:
        message = (
            f"a unit test {what}: only `nox -s tests` may (remove the test's `unit` mark; "
            "tests/unit_guard.py says what a unit test may do)"
        )
        self.refused.append(message)
        raise NotAUnitTest(message)

    def install(self) -> Guard:
        loaded = sorted(name for name in sys.modules if is_refused(name))
        if loaded:  # an imported module cannot be refused any more
            raise NotAUnitTest(f"imported before the unit-test guard: {', '.join(loaded)}")
        sys.meta_path.insert(0, self.finder)
        guard = self

        def execute_child(popen, *args):  # a function, so that Popen binds it as a method
            return guard.execute_child(popen, *args)

        self.replace(subprocess.Popen, "_execute_child", execute_child)
        for owner, name in PROCESS_STARTERS:
            if hasattr(owner, name):
                self.replace(owner, name, self.refused_call(owner, name))
        return self

    def uninstall(self) -> None:
        sys.meta_path.remove(self.finder)
        for owner, name, original in reversed(self.originals):
            setattr(owner, name, original)
        self.originals.clear()

    def replace(self, owner, name: str, replacement) -> None:
        self.originals.append((owner, name, getattr(owner, name)))
        setattr(owner, name, replacement)

    def original(self, owner, name: str):
        return next(o for own, n, o in self.originals if own is owner and n == name)

    def execute_child(self, popen, args, executable, *rest):
        """subprocess.Popen._execute_child(args, executable, ..., creationflags, shell, ...)."""
        shell = rest[7]
        if shell or program(args, executable) not in ALLOWED_PROGRAMS:
            self.refuse(f"runs {args!r}")
        self.allowed.starting = True  # subprocess may start it with os.posix_spawn
        try:
            return self.original(subprocess.Popen, "_execute_child")(popen, args, executable, *rest)
        finally:
            self.allowed.starting = False

    def refused_call(self, owner, name: str):
        def call(*args, **kwargs):
            if getattr(self.allowed, "starting", False):
                return self.original(owner, name)(*args, **kwargs)
            self.refuse(f"starts a process ({owner.__name__}.{name})")

        return call


def install() -> Guard:
    """Turn the guard on (fails when a refused module is already imported)."""
    return Guard().install()
