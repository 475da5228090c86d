"""Marks for tests that run timing code indirectly: a page's notebook, an exercise's checker.

conftest.py marks a test `timing` when its own source names a timing helper; these tests name
none, yet run code that does, so they are marked where they are parametrized, from that code.
"""

from __future__ import annotations

import ast
import functools
import os
import re

import pytest

from engine.page.model import ROOT
from engine.page.parser import read_page, read_pages
from engine.run.cache import cache_key, load_cached
from engine.run.environment import environment_fingerprint
from engine.run.timing import measures_time, names_timing_helper, uses_timing_helpers
from tests.unit_guard import UNIT_VARIABLE

CHECKS = ROOT / "snippets" / "_checks"


def timed_if(value, measures: bool):
    return pytest.param(value, marks=pytest.mark.timing) if measures else value


def pages(paths: list[str]) -> list:
    """Page paths, each marked `timing` when the page's code claims a speed."""
    return [timed_if(path, measures_time(read_page(path))) for path in paths]


@functools.cache
def checker_measures_time(exercise: str) -> bool:
    """The rule the build uses, on the checker's code and the modules it imports."""
    return uses_timing_helpers([(CHECKS / f"{exercise}.py").read_text(encoding="utf-8")])


@functools.cache
def checks_timing(exercise: str) -> list[tuple[re.Pattern, bool]]:
    """Each check of the checker in the order it runs (as written): a pattern its description
    matches (read from the ``@check`` line, not imported, so no JAX here) and whether it times
    code, itself or through a function of the module it calls."""
    tree = ast.parse((CHECKS / f"{exercise}.py").read_text(encoding="utf-8"))
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}

    @functools.cache
    def times(name: str) -> bool:
        calls = {n.id for n in ast.walk(functions[name]) if isinstance(n, ast.Name)}
        own = names_timing_helper(ast.unparse(functions[name]))
        return own or any(times(c) for c in calls if c in functions and c != name)

    return [
        (described(decorator.args[0]), times(node.name))
        for node in functions.values()
        for decorator in node.decorator_list
        if isinstance(decorator, ast.Call) and getattr(decorator.func, "id", "") == "check"
    ]


def described(argument: ast.expr) -> re.Pattern:
    """``"text"`` or ``f"{N:g}x faster"`` as a pattern: an f-string's fields match anything."""
    parts = argument.values if isinstance(argument, ast.JoinedStr) else [argument]
    return re.compile(
        "".join(re.escape(p.value) if isinstance(p, ast.Constant) else ".*" for p in parts)
    )


def checks_up_to_measure_time(exercise: str, named: str) -> bool:
    """Do the checks a wrong solution runs (up to the one it names) time anything? When the
    name matches no single check, the whole checker decides."""
    checks = checks_timing(exercise)
    matching = [i for i, (pattern, _) in enumerate(checks) if pattern.fullmatch(named)]
    if len(matching) != 1:
        return checker_measures_time(exercise)
    return any(timed for _, timed in checks[: matching[0] + 1])


def exercises(ids: list[str]) -> list:
    """Exercise ids, each marked `timing` when its checker times the solution."""
    return [timed_if(exercise, checker_measures_time(exercise)) for exercise in ids]


@functools.cache
def timing_pages_cached() -> bool:
    """Does the run cache hold every timing page's result (the session's build put them there)?"""
    fingerprint = environment_fingerprint()
    return all(
        load_cached(page, cache_key(page, fingerprint)) is not None
        for page in read_pages([])
        if measures_time(page)
    )


def runs_every_page(function):
    """For a test that asks ``execute_pages`` for every page: from a cold cache it runs the timing
    pages, so it runs alone (``timing``); when the cache holds them, it runs no page that times
    anything and goes with the rest. (`nox -s unit` never runs such a test: nothing is read.)"""
    if os.environ.get(UNIT_VARIABLE) == "1" or not timing_pages_cached():
        return pytest.mark.timing(function)
    return function


def clockless(function):
    """For a test that names a timing helper but gives it its numbers (``claim_ratio('x', 8.0,
    ...)``), so nothing it claims was measured: conftest.py's rule would mark it ``timing``; this
    mark says it needs no clock, and the test runs with SHARED_CPU_VARIABLE unset
    (tests/conftest.py's ``no_shared_cpu``), so jitkit lets its given numbers through."""
    return pytest.mark.clockless(pytest.mark.usefixtures("no_shared_cpu")(function))
