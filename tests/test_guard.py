"""Page code cannot change the project (engine/run/guard.py), and the temporary root the sessions
use stays short wherever the project is (engine/tools/temp_root.py). Issue #38; who changed the
project, a page or its user (engine/run/watch.py): issue #71.

Every project here is a folder made for the test: nothing in these tests can touch this
checkout, even on an engine without the guard. tests/browser/test_checkout_path.py builds a
copy of the real project instead.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from engine.run import watch
from engine.run.guard import Tree, refusing_writes
from engine.run.pages import ProjectChanged, execute_pages
from engine.run.results import PageFailure
from engine.tools import temp_root
from tests.helpers import fence, page, recording

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


def offered_commands(message: str) -> list[str]:
    return [line.strip() for line in message.splitlines() if line.startswith("    ")]


def test_a_change_made_by_another_process_fails_naming_the_page_and_offers_only_a_diff(
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
    assert message.startswith("docs/demo/test-page.md: the page changes the project: ")
    assert "README.md (changed), docs/new.md (added)" in message  # during the build
    # Run again alone, it appended once more: a command that copied the old README back would
    # also throw away whatever the user had changed since; only a read-only diff is offered.
    assert (project / "README.md").read_bytes() == README + b"more\nmore\n"
    offered = offered_commands(message)
    assert offered and all(command.startswith("diff -u ") for command in offered), message
    shown = subprocess.run(offered[0], shell=True, cwd=project, capture_output=True, text=True)
    assert shown.returncode == 1 and "+more" in shown.stdout  # diff: 1 means the files differ
    assert (project / "README.md").read_bytes() == README + b"more\nmore\n"


def test_of_two_pages_side_by_side_the_one_that_writes_is_named(project, tmp_path):
    """Both ran when the README changed; the one that started first is innocent."""
    log = tmp_path / "log"
    log.mkdir()
    append = "import subprocess\nsubprocess.run('echo x >> README.md', shell=True, check=True)"
    quiet = page("# Quiet\n\n" + recording(log, "quiet", ("writer",)), "docs/a/quiet.md")
    writer = page("# Writer\n\n" + recording(log, "writer", ("quiet",), append), "docs/b/writer.md")
    with pytest.raises(ProjectChanged) as caught:
        execute_pages([quiet, writer], cache_dir=tmp_path / "cache", report=print, project=project)
    assert str(caught.value).startswith("docs/b/writer.md: the page changes the project: README.md")
    assert caught.value.failure.page == "docs/b/writer.md"


def test_a_users_edit_while_its_page_runs_is_named_as_theirs_kept_and_the_page_cached(
    project, tmp_path
):
    """The page waits while the test, standing for the user's editor, saves the page; the build
    runs the page again alone, which changes nothing, so the edit was the user's."""
    log = tmp_path / "log"
    log.mkdir()
    go = log / "go.started"  # the page waits for it, as for a page beside it
    demo = page("# Demo\n\n" + recording(log, "demo", ("go",)))
    edited = "# Page\n\nA sentence the user typed during the build.\n"

    def user() -> None:
        deadline = time.monotonic() + 60
        while not (log / "demo.started").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        (project / "docs" / "page.md").write_text(edited)
        go.write_text("")

    editor = threading.Thread(target=user)
    editor.start()
    reports: list[str] = []
    cache = tmp_path / "cache"
    execute_pages([demo], cache_dir=cache, report=reports.append, project=project)
    editor.join()
    said = "\n".join(reports)
    assert "changed docs/page.md (changed) during the build" in said, said
    assert "docs/demo/test-page.md, which ran then, changed nothing when run again alone" in said
    assert "Your change is kept" in said
    assert not re.search(r"(^|\s)(cp|mv|rm) ", said), said  # nothing offers to overwrite it
    assert (project / "docs" / "page.md").read_text() == edited
    again: list[str] = []
    execute_pages([demo], cache_dir=cache, report=again.append, project=project)
    assert "cached" in again[0], again  # the run was kept: its code is what it ran


@pytest.mark.unit
def test_a_change_while_no_page_ran_is_the_users_and_runs_nothing_again(project, monkeypatch):
    monkeypatch.setattr(watch, "SLACK_NS", 20_000_000)  # file times lag by a tick at most
    seen = watch.ProjectWatch(project, project / ".cache")
    first, second = page("# First\n", "docs/a/first.md"), page("# Second\n", "docs/b/second.md")
    seen.started(first)
    assert seen.ended(first) is None
    time.sleep(0.1)
    (project / "README.md").write_text("# Edited between two pages\n")
    time.sleep(0.1)
    seen.started(second)
    change = seen.ended(second)
    assert change.files == {"README.md": "changed"} and change.suspects == []
    assert seen.judge(lambda path: pytest.fail(f"ran {path} again")) is None
    assert "no page was running then" in seen.users_edit()


@pytest.mark.unit
def test_a_page_that_rewrites_a_file_with_the_same_bytes_is_still_caught(project):
    seen = watch.ProjectWatch(project, project / ".cache")
    demo = page("# Demo\n")
    seen.started(demo)
    (project / "README.md").write_text("# Changed\n")
    change = seen.ended(demo)
    assert change.suspects == [demo.path]

    def rerun(path: str) -> None:
        time.sleep(0.05)  # a page's run outlasts a tick of the clock that stamps files
        (project / "README.md").write_text("# Changed\n")

    failure = seen.judge(rerun)
    assert failure.page == demo.path and "README.md (changed)" in failure.summary
    saved = seen.saved["README.md"]
    assert saved.read_bytes() == README and saved.is_relative_to(project / ".cache")


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
