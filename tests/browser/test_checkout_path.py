"""The project works wherever it is cloned, and its pages cannot change it (issue #38).

A copy of the project in a folder whose path is over 200 characters long, with a space and
non-ASCII letters in it: a page builds there, a browser test passes there, and a strict build of
a page that writes into the copy fails, naming the page, with the copy as it was or the commands
that put it back. The copy is what a clone of this change holds (the files git tracks and the
new ones it does not ignore), committed in a repository of its own; it runs on this venv.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from served_site import ROOT

from engine.run.guard import Tree
from tests import tiers
from tests.helpers import CONFIG_FOR

# A copy of the whole project, a page run, a pytest and three builds in it: what they prove
# depends on the engine and the test set-up, not on the site's pages (but the one it builds), so
# the default tier runs them when one of these changed; the full tier always.
pytestmark = tiers.only_when_changed(
    "engine/",
    "conftest.py",
    "tests/conftest.py",
    "tests/helpers.py",
    "tests/browser/",
    "noxfile.py",
    "docs/track/fori-loop-traced-count.md",
    "snippets/fori_loop_traced_count/",
)

MIN_PATH = 200
NAME = "a clone with spaces and ünïcödé"
BUILD_TIMEOUT = 300
README_LINE = "appended by a page\n"


def git(folder: Path, *args: str) -> None:
    who = ["-c", "user.name=test", "-c", "user.email=test@localhost", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", *who, *args], cwd=folder, check=True, capture_output=True)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("checkout")
    padding = "p" * max(0, MIN_PATH - len(str(base / NAME)) - 1)
    folder = base / f"{NAME} {padding}"
    for name, data in Tree(ROOT).files.items():  # what a clone of this change would hold
        if data is not None:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
            shutil.copymode(ROOT / name, folder / name)  # scripts stay executable
    git(folder, "init", "-q")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "the project")
    assert len(str(folder)) >= MIN_PATH and " " in str(folder) and not str(folder).isascii()
    return folder


def run(command: list[str], folder: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env}
    for name in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "JITDOCS_RUN_RECORD"):
        environment.pop(name, None)  # the copy's own engine and tests, not this checkout's
    return subprocess.run(
        command,
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=BUILD_TIMEOUT,
    )


def test_a_page_builds_from_a_long_path_with_a_space_and_non_ascii(checkout):
    page = "docs/track/fori-loop-traced-count.md"
    done = run([sys.executable, "-m", "engine.tools.page_outputs", page], checkout)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"jitdocs: {page}" in done.stdout and "executed" in done.stdout
    assert (checkout / ".cache" / "jitdocs").is_dir()  # the copy's own cache


def test_a_browser_test_passes_from_there_even_with_tmpdir_inside_it(checkout, site_dir):
    """TMPDIR as nox's own session.create_tmp() gave it (inside the checkout): the browser
    still gets a socket path short enough."""
    long_temp = checkout / ".nox" / "tests" / "tmp"
    long_temp.mkdir(parents=True, exist_ok=True)
    test = "tests/browser/test_pages.py::test_a_missing_page_gets_the_404_page"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", test]
    done = run(command, checkout, TMPDIR=str(long_temp), JITDOCS_SITE_DIR=str(site_dir))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


# A project of one page beside the copy's own, built by the copy's engine.
CONFIG = "docs_dir: guard-test-docs\nsite_dir: .cache/guard-test-site\n" + CONFIG_FOR.format(
    hook="engine/site/hook.py"
)

WRITERS = {
    "appends to README.md": (
        f"with open('README.md', 'a') as readme:\n    readme.write({README_LINE!r})",
        "PermissionError",
    ),
    "writes under docs/": (
        "from pathlib import Path\nPath('docs/notes.md').write_text('a note')",
        "PermissionError",
    ),
    "appends to README.md from a shell": (
        "import subprocess\nsubprocess.run('echo appended >> README.md', shell=True, check=True)",
        "the page changes the project: README.md (changed)",
    ),
}


@pytest.mark.parametrize(("code", "expected"), WRITERS.values(), ids=WRITERS.keys())
def test_a_page_that_writes_into_the_project_fails_the_strict_build(checkout, code, expected):
    (checkout / "guard-test.yml").write_text(CONFIG, encoding="utf-8")
    (checkout / "guard-test-docs").mkdir(exist_ok=True)
    page = f"# Writes\n\n```python\nprint('first')\n```\n\n```python\n{code}\n```\n"
    (checkout / "guard-test-docs" / "index.md").write_text(page, encoding="utf-8")
    readme = (checkout / "README.md").read_bytes()
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", "guard-test.yml"]
    done = run(command, checkout, JITDOCS_CACHE_DIR=str(checkout / ".cache" / "guard-test"))
    assert done.returncode != 0, "the build passed, and the page wrote into the project"
    assert "guard-test-docs/index.md" in done.stderr and expected in done.stderr, done.stderr
    if expected == "PermissionError":  # refused where it was written: the page's line
        assert "guard-test-docs/index.md:7: " in done.stderr, done.stderr
    else:  # run twice (the second time alone, to tell its change from a user's), and only shown
        shown = [line.strip() for line in done.stderr.splitlines() if line.startswith("    ")]
        assert shown and all(line.startswith("diff -u ") for line in shown), done.stderr
        diff = subprocess.run(shown[0], shell=True, cwd=checkout, capture_output=True, text=True)
        assert diff.stdout.count("+appended") == 2, diff.stdout
        (checkout / "README.md").write_bytes(readme)  # the test puts back what its page changed
    assert (checkout / "README.md").read_bytes() == readme
    assert not (checkout / "docs" / "notes.md").exists()
