"""What a block's code leaves behind: its printed output and the processes it started (found
with Linux's /proc; elsewhere none are found, and the build kills the page's process group)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import time
from pathlib import Path

# CSI sequences as nbconvert's ansi filter matches them; only SGR ("m": colour, bold) survive.
CSI = re.compile(r"\x1b\[([0-?]*[ -/]*)([@-~])")
OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?")  # window titles, hyperlinks
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # everything but \t and \n (\r is handled)
SEQUENCE_OR_CONTROL = re.compile(f"(?P<csi>{CSI.pattern})|{CONTROL.pattern}")
# A default repr's memory address (``<function f at 0x7f55482acf40>``) and an object id, in angle
# brackets (JAX's leak report: ``<DynamicJaxprTracer 139970103092016>``) or after ``id=`` (its
# cache-miss explanations): new on every run.
ADDRESS = re.compile(
    r" at (?P<address>0x[0-9a-f]{6,})>|<[A-Za-z_][\w.]* (?P<id>\d{9,})>|\bid=(?P<named>\d{9,})\b"
)


def size_text(size: int) -> str:
    for unit, scale in (("MB", 1024**2), ("KB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


class CappedOutput(io.StringIO):
    """A text stream that keeps the first ``limit`` bytes (UTF-8) written and only counts the rest
    (a 50 MB print costs a counter, not 50 MB): ``getvalue()`` is all unless ``overflowed``."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.size = 0
        self._kept = 0

    def write(self, text: str) -> int:
        size = len(text.encode("utf-8", "surrogatepass"))
        self.size += size
        if self._kept < self.limit:
            room = self.limit - self._kept  # characters: at least one byte each
            super().write(text if size <= room else text[:room])
            self._kept += min(size, room)
        return len(text)

    @property
    def overflowed(self) -> bool:
        return self.size > self.limit


def steady(text: str) -> str:
    """``text`` with each memory address or object id numbered ``@1``, ``@2``... in order of first
    appearance, so that a rebuild shows the same output and one object keeps one number."""
    numbers: dict[int, str] = {}

    def number(match: re.Match) -> str:
        value = match["address"] or match["id"] or match["named"]
        key = int(value, 16 if value.startswith("0x") else 10)  # hex address = decimal id
        return match[0].replace(value, numbers.setdefault(key, f"@{len(numbers) + 1}"))

    return ADDRESS.sub(number, text)


def clean(text: str) -> str:
    """``text`` as a terminal shows it: colour codes (SGR) stay, a carriage return overwrites its
    line, any other control character becomes its Python escape (NUL -> ``\\x00``)."""
    if not CONTROL.search(text):
        return text
    text = OSC.sub("", text).replace("\r\n", "\n")
    if "\r" in text:  # a progress bar: a carriage return overwrites its line from the start
        text = "\n".join(_overwrite(line) for line in text.split("\n"))
    return SEQUENCE_OR_CONTROL.sub(_shown, text)


def strip_ansi(text: str) -> str:
    """``text`` without colour codes; nbconvert's own strip_ansi would cost a warm build its
    import (about 0.4 s of CPU), and nothing else in a warm build needs nbconvert."""
    return CSI.sub("", text)


def _overwrite(line: str) -> str:
    shown = ""
    for part in line.split("\r"):
        shown = part + shown[len(part) :]
    return shown


def _shown(match: re.Match) -> str:
    if match["csi"]:
        return match[0] if match[0].endswith("m") else ""  # cursor moves etc. mean nothing here
    return f"\\x{ord(match[0]):02x}"


# ---------------------------------------------------------------- processes

PROC = Path("/proc")


def _table() -> dict[int, tuple[int, int, str]]:
    """pid -> (parent pid, session id, state) of every process; empty without /proc."""
    table = {}
    names = os.listdir(PROC) if (PROC / "self" / "stat").is_file() else []
    for name in filter(str.isdigit, names):
        try:
            with open(f"{PROC}/{name}/stat", "rb") as stat:  # plain open: runs after every block
                text = stat.read()
        except OSError:
            continue  # it ended meanwhile
        fields = text[text.rindex(b")") + 2 :].split()
        table[int(name)] = (int(fields[1]), int(fields[3]), fields[0].decode())
    return table


def live(session: int | None = None, skip=frozenset()) -> set[int]:
    """Running processes (not zombies) in ``session``; by default, those below this process in
    the process tree, except under the children in ``skip``, and in its session if it leads one
    (a page's runner)."""
    root = os.getpid() if session is None else None
    if root and getattr(os, "getsid", lambda _: None)(0) == root:
        session = root
    table = _table()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, todo = set(), [pid for pid in children.get(root, []) if pid not in skip]
    while todo:
        found.add(pid := todo.pop())
        todo += [child for child in children.get(pid, []) if child not in found]
    found |= {pid for pid, (_, sid, _) in table.items() if sid == session and pid not in skip}
    found.discard(os.getpid())
    return {pid for pid in found if table[pid][2] not in "ZX"}


def children() -> set[int]:  # this process's children, zombies included
    return {pid for pid, (parent, _, _) in _table().items() if parent == os.getpid()}


def command_line(pid: int) -> str:
    """Empty for a process that is exiting: the kernel drops its command line first."""
    try:
        words = (PROC / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return ""
    return " ".join(" ".join(w.decode(errors="replace").split()) for w in words if w)


def stop_all(find, rounds: int = 5) -> list[str]:
    """SIGKILL what ``find()`` returns until it returns nothing (a process may start another);
    the stopped processes, described, but for one caught exiting (no command line left)."""
    stopped: dict[int, str] = {}
    for _ in range(rounds):
        left = find()
        if not left:
            break
        stopped.update({pid: command_line(pid) for pid in left if pid not in stopped})
        for pid in left:
            with contextlib.suppress(OSError):  # already gone
                os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 1.0
        while left & find() and time.monotonic() < deadline:
            time.sleep(0.005)  # a killed process takes a moment to end
    return [f"{stopped[pid][:60]} (pid {pid})" for pid in sorted(stopped) if stopped[pid]]


def kill_group(group: int) -> None:
    """SIGKILL a process group; nothing if it is gone (or the system has no process groups)."""
    with contextlib.suppress(OSError, AttributeError):
        os.killpg(group, signal.SIGKILL)


def set_subreaper() -> None:
    """Linux: orphans of this process's descendants become its children rather than init's, so a
    process that daemonizes (forks twice) is still found by ``live``. Elsewhere: nothing."""
    with contextlib.suppress(OSError, AttributeError, TypeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
