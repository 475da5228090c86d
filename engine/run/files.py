"""Writing the build's files, and reading back the ones it keeps between builds."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("mkdocs.jitdocs")


def write_if_changed(path: Path, text: str) -> None:
    """Leave an unchanged file alone, and replace a changed one atomically: a killed build never
    leaves half a file behind, and overlapping builds never read one."""
    data = text.encode("utf-8")
    with contextlib.suppress(OSError):  # not there yet, or unreadable: written anew
        if path.read_bytes() == data:
            return
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_bytes(data)
    os.replace(partial, path)


def read_kept(path: Path, valid: Callable[[dict], bool]) -> dict:
    """The JSON object an earlier build kept in ``path``, or {} if there is none. A corrupt one
    (unreadable, not JSON, or not what ``valid`` accepts) is reported in one line and removed, and
    this build makes it again. INFO, not WARNING: --strict fails on any warning."""
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_bytes())
        if isinstance(data, dict) and valid(data):
            return data
        problem = "not what a build stores"
    except (OSError, ValueError) as error:  # UnicodeDecodeError and JSONDecodeError included
        problem = str(error).splitlines()[0] if str(error) else type(error).__name__
    discard(path, problem)
    return {}


def discard(path: Path, problem: str) -> None:
    """Remove a corrupt kept file, saying so in one line."""
    log.info("jitdocs: discarded the corrupt kept file %s (%s); it is made again", path, problem)
    path.unlink(missing_ok=True)
