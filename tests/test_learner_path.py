"""A reader with only the hosted site: from any exercise, lesson or notebook link to the set-up
page in one click, set-up steps generated from ``uv.lock``, a checker that works outside a
clone, and nothing downloadable that points at a preview address.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import timing_marks
from test_lessons import LESSONS
from test_notebooks import PAGES, imported_modules, install_line, reaches_outside, top_level_modules

from check_solution import exercise_ids
from engine.page.model import ROOT
from engine.run.environment import locked_versions
from engine.run.imports import project_files
from engine.site import render, setup_steps
from engine.site.notebooks import build_notebook, dumps
from engine.tools.solutions import references
from tests.helpers import site_page

SETUP = "about/run-it-yourself.md"
PREVIEW = "http://127.0.0.1:8000/"
SITE = "https://example.github.io/jit-docs/"


def page_text(path: str) -> str:
    return (ROOT / "docs" / path).read_text(encoding="utf-8")


def setup_pins(kind: str = "pip") -> list[str]:
    """The pinned packages the set-up page's install command names."""
    return re.findall(r'"([\w-]+==[^"]+)"', setup_steps.render(kind, SITE))


# ---------------------------------------------------------------- generated from the lock


@pytest.mark.unit
def test_setup_steps_name_the_locked_versions_and_match_the_notebooks():
    versions = locked_versions()
    pins = setup_pins("pip")
    assert pins == setup_pins("uv") == setup_steps.requirements()
    every_package = {"jax", "jaxlib", "numpy", "matplotlib", "flatbuffers", "filelock"}
    assert {pin.split("==")[0] for pin in pins} == every_package
    assert all(versions[name] == version for name, version in (p.split("==") for p in pins))
    assert f"| `jax` | {versions['jax']} |" in setup_steps.render("versions")
    for page_path in PAGES:
        assert set(install_line(build_notebook(site_page(page_path)))) <= set(pins), page_path


@pytest.mark.unit
def test_a_notebook_pins_an_optional_package_only_when_its_code_needs_it():
    """compile-once serializes with jax.export (flatbuffers) and draws nothing; static-vs-traced
    needs neither flatbuffers nor matplotlib; why-compile draws charts."""

    def names(path: str) -> set[str]:
        return {pin.split("==")[0] for pin in install_line(build_notebook(site_page(path)))}

    assert names("docs/course/compile-once.md") == {"jax", "jaxlib", "numpy", "flatbuffers"}
    assert names("docs/course/static-vs-traced.md") == {"jax", "jaxlib", "numpy"}
    assert "matplotlib" in names("docs/course/why-compile.md")


@pytest.mark.unit
def test_setup_page_renders_its_steps_from_markers():
    text = page_text(SETUP)
    for kind in ("versions", "pip", "uv"):
        assert f"<!-- install: {kind} -->" in text
    assert "jax==" not in text, "versions are generated from uv.lock, never typed"
    assert f"{SITE}{setup_steps.CHECKER_URI}" in setup_steps.render("pip", SITE)
    assert "127.0.0.1" not in setup_steps.render("pip", PREVIEW)


# ---------------------------------------------------------------- one click to the set-up page


@pytest.mark.unit
@pytest.mark.parametrize(
    "path",
    ["index.md", "practice/exercises.md", "track/index.md", *(f"track/{x.file}" for x in LESSONS)],
)
def test_exercises_lessons_and_home_link_the_setup_page(path: str):
    text = page_text(path)
    target = os.path.relpath(SETUP, os.path.dirname(path) or ".")
    assert re.search(rf"\]\({re.escape(target)}(#[\w-]+)?\)", text), f"{path}: no link to {SETUP}"
    assert "project folder" not in text and "project's virtual environment" not in text


@pytest.mark.unit
def test_every_notebook_download_link_is_followed_by_the_setup_link():
    parsed = site_page("docs/course/why-compile.md")
    site = render.Site(ROOT, pages={f"docs/{SETUP}": site_page(f"docs/{SETUP}")})
    site.notebooks[parsed.path] = {}
    link = render.render_download_link(site, parsed)
    assert "[How to run it](../about/run-it-yourself.md#notebooks)" in link


@pytest.mark.unit
@pytest.mark.parametrize("page_path", PAGES)
def test_notebooks_link_the_setup_page_and_never_a_preview_address(page_path: str):
    page = site_page(page_path)
    hosted = build_notebook(page, site_url=SITE)
    assert f"{SITE}about/run-it-yourself/" in hosted["cells"][0]["source"]
    local = dumps(build_notebook(page, site_url=PREVIEW))
    assert "127.0.0.1" not in local and "localhost" not in local
    assert "Run it yourself" in json_cell(local)


def json_cell(text: str) -> str:
    import json

    return json.loads(text)["cells"][0]["source"]


@pytest.mark.unit
def test_the_bundled_checker_has_no_preview_address():
    script = setup_steps.checker_script()
    assert "127.0.0.1" not in script and "localhost" not in script


# ---------------------------------------------------------------- the repository link


@pytest.mark.unit
def test_the_repository_link_is_filled_by_the_deploy_workflow_and_makes_no_request():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "repo_url: !ENV [REPO_URL, null]" in config
    workflow = (ROOT / ".github/workflows/deploy.yml").read_text(encoding="utf-8")
    assert "REPO_URL: ${{ github.server_url }}/${{ github.repository }}" in workflow
    # The theme's script asks GitHub's API for stars and forks of any element with this
    # attribute; the override keeps the link and drops the attribute.
    partial = (ROOT / "engine/site/overrides/partials/source.html").read_text(encoding="utf-8")
    assert 'href="{{ config.repo_url }}"' in partial
    assert "data-md-component" not in partial.split("-#}", 1)[1]


# ---------------------------------------------------------------- checking outside a clone


@pytest.mark.unit
def test_every_exercise_and_lesson_has_a_reference_solution():
    assert set(references()) == set(exercise_ids())
    assert all(path.is_file() for path in references().values())


@pytest.fixture
def site_checker(fresh_venvs, tmp_path):
    """check.py as the site serves it, in a venv with the set-up page's packages and nothing
    else: check(exercise, answer file) -> the finished `python check.py ...`."""
    python = fresh_venvs.python(setup_pins("pip"))
    (tmp_path / "check.py").write_text(setup_steps.checker_script(), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JUPYTER_PATH")}

    def check(*args: str | Path) -> subprocess.CompletedProcess:
        command = [python, "check.py"]
        if args:
            exercise, answer = args
            mine = tmp_path / f"my_{exercise}.py"
            mine.write_text(answer.read_text(encoding="utf-8"), encoding="utf-8")
            command += [exercise, mine.name]
        return subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
        )

    return check


CHECKS = ROOT / "snippets" / "_checks"


def check_py_runs() -> list[str]:
    """The checkers check.py runs for real: one per kind of reach outside the namespace that the
    checks modules make (none; their own folder on sys.path; threads and ctypes), the cheapest
    of each (no timing claim, then by name). The rest are proven by
    test_check_py_bundles_every_checker_with_what_it_imports and by the reference solution's
    in-process run (test_exercises.py, test_lessons.py): the same checker text, the same JAX."""
    kinds: dict[frozenset, str] = {}
    ordered = sorted(references(), key=lambda i: (timing_marks.checker_measures_time(i), i))
    for exercise in ordered:
        kind = frozenset(reaches_outside((CHECKS / f"{exercise}.py").read_text(encoding="utf-8")))
        kinds.setdefault(kind, exercise)
    return sorted(kinds.values())


@pytest.mark.unit
def test_check_py_bundles_every_checker_with_what_it_imports():
    """check.py holds the text of every checks module and what it imports, and every import in
    them and in each reference solution is bundled, standard, or among the set-up page's
    packages: so a checker that passes a solution in-process passes it from check.py."""
    script = setup_steps.checker_script()
    bundled = project_files(["from check_solution import checks_for"])
    assert all(f"{name!r}: {text!r}," in script for name, text in bundled.items())
    for exercise in references():
        assert f"snippets/_checks/{exercise}.py" in bundled, exercise
    modules = {Path(name.removeprefix("snippets/")).parts[0] for name in bundled}
    installed = set().union(*(top_level_modules(pin.split("==")[0]) for pin in setup_pins()))
    known = set(sys.stdlib_module_names) | installed | {m.removesuffix(".py") for m in modules}
    sources = [*bundled.values(), *(p.read_text() for p in references().values())]
    needed = set().union(*map(imported_modules, sources))
    assert needed <= known, f"imports neither installed, bundled nor standard: {needed - known}"
    assert len(check_py_runs()) < len(references()) / 2


@pytest.mark.parametrize("exercise", timing_marks.exercises(check_py_runs()))
def test_check_py_passes_each_reference_solution_in_a_fresh_venv(site_checker, exercise):
    """The set-up page's packages, check.py from the site, an answer file: nothing else. One
    checker per kind (check_py_runs); the bundle test proves the others."""
    done = site_checker(exercise, references()[exercise])
    assert done.returncode == 0, f"{exercise}:\n{done.stdout}{done.stderr}"
    assert re.fullmatch(r"\d+ passed, 0 failed", done.stdout.splitlines()[-1])


def test_check_py_in_a_fresh_venv_names_a_failed_check_and_its_usage(site_checker):
    wrong = site_checker(
        "logistic_steps", ROOT / "tests/solutions/logistic_steps/wrong_static_count.py"
    )
    assert wrong.returncode == 1 and "FAIL  " in wrong.stdout
    usage = site_checker()
    assert usage.returncode == 2 and "python check.py <exercise-id>" in usage.stderr
