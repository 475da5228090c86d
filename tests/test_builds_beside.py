"""`nox -s tests` runs the Zensical build beside MkDocs' render (engine/tools/beside.py), from
when the MkDocs hook says every page ran (engine/site/hook.py, ``say_ran``)."""

from __future__ import annotations

import threading

import pytest

from engine.page.model import ROOT
from engine.site import hook, render
from engine.tools.beside import run_beside

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs

WAIT = 10  # seconds: far beyond any of these steps; reached only when the order is wrong


def test_the_second_runs_beside_the_first_once_it_makes_the_file(tmp_path):
    ready, second_ran, steps = tmp_path / "ran", threading.Event(), []

    def first() -> None:
        steps.append("first ran the pages")
        ready.write_text("ran\n")
        # the rest of the first (the render) goes on only once the second ran beside it
        steps.append("beside" if second_ran.wait(WAIT) else "after")

    run_beside(first, ready, lambda: steps.append("second") or second_ran.set())
    assert steps == ["first ran the pages", "second", "beside"]


def test_without_the_file_the_second_runs_after_the_first(tmp_path):
    steps = []
    run_beside(lambda: steps.append("first"), tmp_path / "ran", lambda: steps.append("second"))
    assert steps == ["first", "second"]


def test_a_file_left_by_an_earlier_build_starts_nothing(tmp_path):
    ready, steps = tmp_path / "ran", []
    ready.write_text("ran\n")

    def first() -> None:
        steps.append("first: the file is " + ("there" if ready.exists() else "gone"))

    run_beside(first, ready, lambda: steps.append("second"))
    assert steps == ["first: the file is gone", "second"]


def test_a_first_that_fails_before_the_file_runs_no_second(tmp_path):
    steps = []

    def first() -> None:
        raise RuntimeError("mkdocs build failed")

    with pytest.raises(RuntimeError, match="mkdocs build failed"):
        run_beside(first, tmp_path / "ran", lambda: steps.append("second"))
    assert steps == []


def test_a_first_that_fails_after_the_file_fails_once_both_ended(tmp_path):
    ready, second_ended, steps = tmp_path / "ran", threading.Event(), []

    def first() -> None:
        ready.write_text("ran\n")
        second_ended.wait(WAIT)
        steps.append("first failed")
        raise RuntimeError("the render failed")

    def second() -> None:
        steps.append("second")
        second_ended.set()

    with pytest.raises(RuntimeError, match="the render failed"):
        run_beside(first, ready, second)
    assert steps == ["second", "first failed"]


def test_a_second_that_fails_waits_for_the_first(tmp_path):
    ready, steps = tmp_path / "ran", []

    def first() -> None:
        ready.write_text("ran\n")
        threading.Event().wait(0.2)  # still rendering when the second fails
        steps.append("first ended")

    def second() -> None:
        raise RuntimeError("zensical build failed")

    with pytest.raises(RuntimeError, match="zensical build failed"):
        run_beside(first, ready, second)
    assert steps == ["first ended"]


@pytest.mark.parametrize(
    ("named", "failures", "made"),
    [(True, {}, True), (True, {"docs/a.md": "ZeroDivisionError"}, False), (False, {}, False)],
    ids=["every page ran", "a page failed", "no file named"],
)
def test_the_hook_says_every_page_ran_only_when_each_is_cached(
    tmp_path, monkeypatch, named, failures, made
):
    """A failed page is not in the run cache: the Zensical build would run it again, beside the
    render, so the hook says nothing and the Zensical build runs after."""
    ready = tmp_path / "ran"
    if named:
        monkeypatch.setenv(hook.RAN_VARIABLE, str(ready))
    else:
        monkeypatch.delenv(hook.RAN_VARIABLE, raising=False)
    hook.say_ran(render.Site(tmp_path, failures=failures))
    assert ready.exists() == made


def test_the_noxfile_names_the_variable_the_hook_reads():
    noxfile = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert f'RAN_VARIABLE = "{hook.RAN_VARIABLE}"' in noxfile
    assert "RAN_VARIABLE: str(ran)" in noxfile
