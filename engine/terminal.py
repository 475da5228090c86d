"""What a block's code may leave behind: its printed output and the processes it started.

- ``CappedOutput``: the block's stdout/stderr, kept up to a limit and only counted past it, so a
  block that prints 50 MB costs the build a counter, not 50 MB of memory.
- ``clean``: terminal output as a terminal would show it. Colour codes (SGR) are kept, for the
  page (``to_html``, with nbconvert's converter, as the notebook view uses) and for Jupyter; a
  carriage return overwrites its line; every other control character becomes its visible Unicode
  "control picture" (NUL -> ␀), so none reaches the HTML or the notebooks raw.
- ``descendants`` / ``stop``: the processes a block started, found in Linux's /proc (elsewhere
  there is nothing to list, and the build's kill of the page's process group is what remains).
"""

from __future__ import annotations

import codecs
import io
import os
import re
import signal
from pathlib import Path

# CSI sequences as nbconvert's ansi filter matches them; only SGR ("m": colour, bold) survive.
CSI = re.compile(r"\x1b\[([0-?]*[ -/]*)([@-~])")
OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?")  # window titles, hyperlinks
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # everything but \t and \n (\r is handled)


def size_text(size: int) -> str:
    for unit, scale in (("MB", 1024**2), ("KB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


class CappedOutput(io.TextIOBase):
    """A text stream that keeps the first ``limit`` bytes (UTF-8) written and counts the rest."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.size = 0
        self._parts: list[str] = []
        self._kept = 0
        self._encoder = codecs.getincrementalencoder("utf-8")("surrogatepass")

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        size = len(self._encoder.encode(text))
        self.size += size
        if self._kept < self.limit:
            room = self.limit - self._kept  # characters: at least one byte each
            self._parts.append(text if size <= room else text[:room])
            self._kept += min(size, room)
        return len(text)

    @property
    def overflowed(self) -> bool:
        return self.size > self.limit

    def getvalue(self) -> str:
        """What was kept (all of it, unless ``overflowed``)."""
        return "".join(self._parts)


def clean(text: str) -> str:
    """``text`` as a terminal shows it, with colour codes kept and no raw control character."""
    if not CONTROL.search(text):
        return text
    text = OSC.sub("", text).replace("\r\n", "\n")
    if "\r" in text:  # a progress bar: a carriage return overwrites its line from the start
        text = "\n".join(_overwrite(line) for line in text.split("\n"))
    kept, start = [], 0
    for match in CSI.finditer(text):
        kept.append(CONTROL.sub(_picture, text[start : match.start()]))
        kept.append(match[0] if match[2] == "m" else "")  # cursor moves etc. mean nothing here
        start = match.end()
    kept.append(CONTROL.sub(_picture, text[start:]))
    return "".join(kept)


def _overwrite(line: str) -> str:
    shown = ""
    for part in line.split("\r"):
        shown = part + shown[len(part) :]
    return shown


def _picture(match: re.Match) -> str:
    code = ord(match[0])
    return "\u2421" if code == 0x7F else chr(0x2400 + code)


def has_colour(text: str) -> bool:
    return "\x1b[" in text


def strip_colour(text: str) -> str:
    return CSI.sub("", text)


def to_html(text: str) -> str:
    """Escaped HTML of ``clean`` text, colour codes as nbconvert's ``ansi-*`` classes (the same
    converter and classes as the notebook view)."""
    from nbconvert.filters.ansi import ansi2html

    return str(ansi2html(text))


# ---------------------------------------------------------------- processes

PROC = Path("/proc")


def _table() -> dict[int, tuple[int, int, str]] | None:
    """pid -> (parent pid, session id, state) of every process, or None without /proc."""
    if not (PROC / "self" / "stat").is_file():
        return None
    table = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended meanwhile
        fields = stat[stat.rindex(")") + 2 :].split()
        table[int(entry.name)] = (int(fields[1]), int(fields[3]), fields[0])
    return table


def descendants(root: int | None = None) -> set[int]:
    """Live processes (not zombies) below ``root`` (default: this process) or in its session."""
    root = os.getpid() if root is None else root
    table = _table()
    if not table:
        return set()
    try:
        session = os.getsid(root)
    except OSError:
        session = None
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    if session == root:  # the page's runner leads its own session: all of it is the page's
        found |= {pid for pid, (_, sid, _) in table.items() if sid == session}
    found.discard(root)
    return {pid for pid in found if pid in table and table[pid][2] not in "ZX"}


def describe(pid: int) -> str:
    try:
        words = (PROC / str(pid) / "cmdline").read_bytes().split(b"\0")
        command = " ".join(" ".join(w.decode(errors="replace").split()) for w in words if w)
    except OSError:
        command = ""
    return f"{command[:60] or '?'} (pid {pid})"


def stop(pids: set[int]) -> None:
    """SIGKILL ``pids`` (their children are found and stopped by the caller's next look)."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass  # already gone


def set_subreaper() -> None:
    """Linux: orphans of this process's descendants become its children rather than init's, so a
    process that daemonizes (forks twice) is still found by ``descendants``. Elsewhere: nothing."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def in_session(session: int) -> set[int]:
    """Live processes in the session that ``session`` (a process id) started."""
    table = _table() or {}
    return {pid for pid, (_, sid, state) in table.items() if sid == session and state not in "ZX"}
