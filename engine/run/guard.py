"""Page code cannot change the project (docs/about/conventions.md, "Files", argues the choice):
an audit hook refuses Python's writes while a block runs (``refusing_writes``); what it cannot see
is found by comparing the project's files after each page (``Tree``; ``engine.run.watch`` says
who changed them)."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from engine.page.model import ROOT

WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
# Events that change a file or folder ("open" if it writes): event -> (path positions, dir_fd's).
CHANGES = {
    "open": ((0,), None),
    "os.rename": ((0, 1), 2),  # os.replace too
    "os.remove": ((0,), 1),  # os.unlink too
    "os.rmdir": ((0,), 1),
    "os.mkdir": ((0,), 2),
    "os.symlink": ((1,), 2),
    "os.link": ((1,), 3),
    "os.truncate": ((0,), None),
    "os.chmod": ((0,), 2),
    "os.chown": ((0,), 3),
    "os.utime": ((0,), 3),
    "os.setxattr": ((0,), None),
    "os.removexattr": ((0,), None),
    "shutil.rmtree": ((0,), 1),
}
ADVICE = "page code may not change the project; write scratch files under tempfile.gettempdir()"


# (project, its scratch folder if inside it), resolved with a trailing separator, while a
# block runs; the hook is for ever, and this says whether it acts.
_guarded: tuple[str, str | None] | None = None


def _folder(path: str | Path) -> str:
    return os.path.join(os.path.realpath(path), "")


@contextlib.contextmanager
def refusing_writes(project: Path = ROOT):
    """Refuse Python-level writes under ``project`` while the ``with`` body runs (this process)."""
    global _guarded
    _install()
    before = _guarded
    inside, scratch = _folder(project), _folder(tempfile.gettempdir())
    _guarded = (inside, scratch if scratch.startswith(inside) else None)
    try:
        yield
    finally:
        _guarded = before


@functools.cache  # once: a hook cannot be removed, and it does nothing while _guarded is None
def _install() -> None:
    sys.addaudithook(_audit)


def _audit(event: str, args: tuple) -> None:
    guarded = _guarded
    if guarded is None or event not in CHANGES or (event == "open" and not args[2] & WRITE_FLAGS):
        return
    positions, fd_at = CHANGES[event]
    dir_fd = args[fd_at] if fd_at is not None else None
    for path in (args[i] for i in positions):
        if not isinstance(path, int) and _inside(guarded, path, dir_fd):
            raise PermissionError(errno.EACCES, ADVICE, os.fsdecode(path))


def _inside(guarded: tuple[str, str | None], path, dir_fd) -> bool:
    """Does ``path`` name something in the project, outside its scratch and ``__pycache__``?
    Both the path and its folder are resolved: removing a link removes the link, not its target."""
    path = os.fsdecode(path)
    if dir_fd is not None and not os.path.isabs(path):
        path = os.path.join(_fd_folder(dir_fd), path)
    if "__pycache__" in Path(path).parts:
        return False
    resolved = {
        os.path.realpath(path) + os.sep,
        os.path.join(os.path.realpath(os.path.dirname(path) or "."), os.path.basename(path), ""),
    }
    project, scratch = guarded
    return any(
        name.startswith(project) and not (scratch and name.startswith(scratch)) for name in resolved
    )


def _fd_folder(dir_fd: int) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{dir_fd}")
    except OSError:
        return os.getcwd()  # no /proc: judged as if relative to the working folder


# ---------------------------------------------------------------- what slips past


def how(old: object, new: object) -> str:
    """How a file changed, from its state before and after (None: there was no file)."""
    return "added" if old is None else "removed" if new is None else "changed"


BUILT = {".git", ".nox", ".cache", ".venv", "site", "__pycache__", "node_modules"}


def _walk(project: Path):
    for folder, dirs, names in project.walk():
        dirs[:] = [name for name in dirs if name not in BUILT]
        yield from ((folder / name).relative_to(project).as_posix() for name in names)


class Tree:
    """The project's files and their bytes (about 2 MB), to compare with later."""

    def __init__(self, project: Path = ROOT) -> None:
        self.project = project
        # The user's own untracked files (a build log the build's output is redirected into, an
        # editor's swap file) may change during the build; only new ones are the pages' doing.
        self.theirs = set(self._git("--others", "--exclude-standard") or ())
        self.files = {name: self._read(name) for name in self._names()}

    def _git(self, *selection: str) -> list[str] | None:
        listed = subprocess.run(
            ["git", "ls-files", "-z", *selection], cwd=self.project, capture_output=True
        )
        if listed.returncode != 0:
            return None
        return [os.fsdecode(name) for name in listed.stdout.split(b"\0") if name]

    def _names(self) -> list[str]:
        """What git tracks and new files it does not ignore, but the user's own; without git,
        every file outside the folders a build makes."""
        listed = self._git("--cached", "--others", "--exclude-standard")
        if listed is None:
            return sorted(_walk(self.project))
        return sorted(set(listed) - self.theirs)

    def _read(self, name: str) -> bytes | None:
        try:
            return (self.project / name).read_bytes()
        except OSError:  # gone, or not a file (a folder git lists as a submodule)
            return None

    def changes(self) -> dict[str, str]:
        """File -> "changed", "removed" or "added" since the snapshot."""
        found = {}
        for name in sorted(set(self._names()) | set(self.files)):
            old, new = self.files.get(name), self._read(name)
            if old != new:
                found[name] = how(old, new)
        return found

    def rebase(self) -> None:
        """Take the files as they are now as the snapshot (the user's files stay theirs)."""
        self.files = {name: self._read(name) for name in self._names()}

    def stamps(self) -> dict[str, tuple[int, ...] | None]:
        """Each file's inode, size, and modification and change times: any write moves them,
        even one that leaves the bytes as they were."""
        found = {}
        for name in sorted(set(self._names()) | set(self.files)):
            try:
                info = (self.project / name).stat()
            except OSError:
                found[name] = None
                continue
            found[name] = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        return found

    def save_originals(self, changes: dict[str, str], backup: Path) -> dict[str, Path]:
        """Copy the snapshot's bytes of what changed (not added) under ``backup``: file -> copy.
        Only copies are written; the user decides what to do with them."""
        saved = {}
        for name, how in changes.items():
            if how != "added" and self.files.get(name) is not None:
                saved[name] = backup / name
                saved[name].parent.mkdir(parents=True, exist_ok=True)
                saved[name].write_bytes(self.files[name])
        return saved
