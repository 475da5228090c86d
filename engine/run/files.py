"""Writing the build's files."""

from __future__ import annotations

import os
from pathlib import Path


def write_if_changed(path: Path, text: str) -> None:
    """Leave an unchanged file alone, and replace a changed one atomically: a killed build never
    leaves half a file behind, and overlapping builds never read one."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
