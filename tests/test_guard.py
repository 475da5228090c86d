"""Page code cannot change the project (engine/run/guard.py), and the temporary root the sessions
use stays short wherever the project is (engine/tools/temp_root.py). Issue #38.

Every project here is a folder made for the test: nothing in these tests can touch this
checkout, even on an engine without the guard. tests/browser/test_checkout_path.py builds a
copy of the real project instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from engine.run.guard import Tree, refusing_writes
from engine.run.pages import ProjectChanged, execute_pages
from engine.run.results import PageFailure
from engine.tools import temp_root
from tests.helpers import fence, page

README = b"# A project\n"


@pytest.fixture
def project(tmp_path) -> Path:
    folder = tmp_path / "project"
    (folder / "docs").mkdir(parents=True)
    (folder / "README.md").write_bytes(README)
    (folder / "docs" / "page.md").write_text("# Page\n")
    return folder


WRITES = {
    "open for append": lambda p: open(p / "README.md", "a").close(),
    "pathlib write_text": lambda p: (p / "docs" / "new.md").write_text("x"),
    "os.open with O_CREAT": lambda p: os.close(os.open(p / "made", os.O_CREAT | os.O_WRONLY)),
    "rename": lambda p: os.rename(p / "README.md", p / "OLD.md"),
    "replace from outside": lambda p: os.replace(tempfile.mkstemp()[1], p / "README.md"),
    "remove": lambda p: os.remove(p / "README.md"),
    "mkdir": lambda p: (p / "docs" / "more").mkdir(),
    "rmtree": lambda p: shutil.rmtree(p / "docs"),
    "copy into": lambda p: shutil.copy(__file__, p / "docs"),
    "chmod": lambda p: os.chmod(p / "README.md", 0o600),
    "relative to the working folder": lambda p: (os.chdir(p), Path("README.md").write_text("x")),
    "through a link outside": lambda p: link_to(p / "README.md").write_text("x"),
}


def link_to(target: Path) -> Path:
    link = Path(tempfile.mkdtemp()) / "link"
    link.symlink_to(target)
    return link


def snapshot(folder: Path) -> dict[str, bytes | None]:
    return {
        str(path.relative_to(folder)): path.read_bytes() if path.is_file() else None
        for path in sorted(folder.rglob("*"))
    }


@pytest.mark.unit
@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_every_kind_of_python_write_into_the_project_is_refused_and_changes_nothing(
    project, write, monkeypatch
):
    monkeypatch.chdir(project.parent)
    before = snapshot(project)
    with (
        refusing_writes(project),
        pytest.raises(PermissionError, match="may not change the project"),
    ):
        write(project)
    assert snapshot(project) == before


@pytest.mark.unit
def test_reads_scratch_files_bytecode_and_other_folders_stay_allowed(project, tmp_path):
    outside = tmp_path / "elsewhere.txt"
    with refusing_writes(project):
        assert (project / "README.md").read_bytes() == README
        with tempfile.NamedTemporaryFile("w") as scratch:
            scratch.write("fine")
        (project / "__pycache__").mkdir()
        (project / "__pycache__" / "mod.cpython-312.pyc").write_bytes(b"bytecode")
        outside.write_text("fine")
    assert outside.read_text() == "fine"


@pytest.mark.unit
def test_scratch_inside_the_project_is_allowed_there_only(project, monkeypatch):
    scratch = project / ".nox" / "tmp"
    scratch.mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    with refusing_writes(project):
        (scratch / "note.txt").write_text("fine")
        with pytest.raises(PermissionError):
            (project / "README.md").write_text("no")


@pytest.mark.unit
def test_the_guard_acts_only_inside_its_with(project):
    with refusing_writes(project):
        pass
    (project / "README.md").write_bytes(b"changed by the test itself\n")


# ---------------------------------------------------------------- in the build


def test_a_block_that_appends_to_the_readme_fails_at_its_line_and_the_file_is_unchanged(
    project, tmp_path
):
    code = f"with open({str(project / 'README.md')!r}, 'a') as readme:\n    readme.write('x')"
    demo = page("# Demo\n\n" + fence("print('fine')") + "\n" + fence(code))
    with pytest.raises(PageFailure) as caught:
        execute_pages([demo], cache_dir=tmp_path / "cache", report=print, project=project)
    message = str(caught.value)
    assert message.startswith("docs/demo/test-page.md:7: ")  # the second block's first line
    assert "PermissionError" in message and "may not change the project" in message
    assert (project / "README.md").read_bytes() == README


def test_a_change_made_by_another_process_fails_naming_the_page_and_how_to_undo_it(
    project, tmp_path
):
    code = (
        "import subprocess\n"
        f"subprocess.run(['sh', '-c', 'echo more >> README.md; echo new > docs/new.md'], "
        f"cwd={str(project)!r}, check=True)"
    )
    demo = page("# Demo\n\n" + fence(code))
    with pytest.raises(ProjectChanged) as caught:
        execute_pages([demo], cache_dir=tmp_path / "cache", report=print, project=project)
    message = str(caught.value)
    assert message.startswith("docs/demo/test-page.md: the project changed while the page ran")
    assert "README.md (changed)" in message and "docs/new.md (added)" in message
    undo = [line.strip() for line in message.splitlines() if line.startswith("    ")]
    assert len(undo) == 2, message
    for command in undo:
        subprocess.run(command, shell=True, cwd=project, check=True)
    assert (project / "README.md").read_bytes() == README
    assert not (project / "docs" / "new.md").exists()


def test_a_changed_project_is_not_cached_so_the_next_build_runs_the_page_again(project, tmp_path):
    code = (
        "import subprocess\n"
        f"subprocess.run('echo x >> README.md', shell=True, cwd={str(project)!r})"
    )
    demo = page("# Demo\n\n" + fence(code))
    for _ in range(2):  # a cached result would not run the page, and raise nothing
        with pytest.raises(ProjectChanged):
            execute_pages([demo], cache_dir=tmp_path / "cache", report=print, project=project)
        (project / "README.md").write_bytes(README)


@pytest.mark.unit
def test_without_git_the_tree_is_every_file_outside_the_folders_a_build_makes(project):
    (project / ".cache").mkdir()
    (project / ".cache" / "entry.json").write_text("{}")
    tree = Tree(project)
    assert sorted(tree.files) == ["README.md", "docs/page.md"]
    (project / ".cache" / "entry.json").write_text("{1}")  # a build folder: not the project
    assert tree.changes() == {}
    (project / "docs" / "page.md").unlink()
    assert tree.changes() == {"docs/page.md": "removed"}


@pytest.mark.unit
def test_with_git_the_tree_is_what_git_tracks_and_new_files_it_does_not_ignore(project):
    (project / ".gitignore").write_text("/built/\n")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "README.md", ".gitignore", "docs"], cwd=project, check=True)
    (project / "built").mkdir()
    (project / "built" / "out.html").write_text("x")
    tree = Tree(project)
    assert sorted(tree.files) == [".gitignore", "README.md", "docs/page.md"]
    (project / "built" / "out.html").write_text("y")  # ignored: a build folder
    (project / "notes.txt").write_text("new")  # made while the page ran: the page's doing
    (project / "README.md").write_text("changed")
    assert tree.changes() == {"README.md": "changed", "notes.txt": "added"}


@pytest.mark.unit
def test_untracked_files_that_were_there_before_the_build_are_the_users_and_not_watched(project):
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "README.md"], cwd=project, check=True)
    (project / "build.log").write_text("")  # `nox -s docs > build.log` makes it first
    tree = Tree(project)
    assert sorted(tree.files) == ["README.md"]  # docs/page.md and build.log: untracked already
    (project / "build.log").write_text("jitdocs: running 33 pages\n")
    (project / "docs" / "page.md").write_text("# Saved in an editor during the build\n")
    assert tree.changes() == {}
    (project / "README.md").write_text("changed")
    assert tree.changes() == {"README.md": "changed"}


# ---------------------------------------------------------------- the short temporary root


@pytest.fixture
def temp_roots():
    """temp_root, with the roots it makes (often in /tmp itself) removed after the test."""
    made = []

    def make(checkout: Path, purpose: str) -> Path:
        made.append(temp_root.temp_root(checkout, purpose))
        return made[-1]

    yield make
    for folder in made:
        shutil.rmtree(folder.parent, ignore_errors=True)


@pytest.mark.unit
def test_the_temporary_root_is_short_and_one_per_checkout(tmp_path, temp_roots):
    deep = tmp_path / ("a long folder ünïcode " * 10).strip()
    first, again = temp_roots(deep, "tests"), temp_roots(deep, "tests")
    other = temp_roots(deep / "another clone", "tests")
    assert first == again != other
    assert first.is_dir() and len(os.fsencode(first / temp_root.SOCKET_TAIL)) <= 103


@pytest.mark.unit
def test_a_long_system_temp_falls_back_to_tmp_and_nothing_short_says_what_to_set(
    tmp_path, monkeypatch, temp_roots
):
    long_temp = tmp_path / ("x" * 80)
    long_temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(long_temp))
    assert str(temp_roots(tmp_path, "tests")).startswith("/tmp/jitdocs-")
    monkeypatch.setattr(temp_root, "MAX_BYTES", 5)
    with pytest.raises(temp_root.TempRootError, match="set TMPDIR to a short folder"):
        temp_root.temp_root(tmp_path, "tests")
