"""Coloured outputs' HTML, kept between builds.

nbconvert draws a terminal-coloured output as HTML (``engine.run.terminal.to_html``), and
importing it cost every warm rebuild about 0.3 s. So a build keeps the HTML of each coloured
output it showed, under a key of the converter (``converter_key``): the next build converts only
an output it has not seen with that converter, and does not import nbconvert when there is none.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from engine.run import terminal
from engine.run.cache import installed_distributions, write_if_changed

STORE = "coloured-outputs.json"  # in the page cache's folder
CONVERTER = Path(terminal.__file__)  # to_html's module


def converter_key() -> str:
    """What the HTML depends on besides the text: terminal.py's code and the installed
    distributions (nbconvert's version), with Python's version."""
    code = CONVERTER.read_bytes()
    return hashlib.sha256(code + b"\0" + installed_distributions()).hexdigest()


class ColouredOutputs:
    """The HTML of coloured outputs: stored in ``path`` (none: not kept), and read from it unless
    ``fresh``. ``conversions`` counts the outputs converted by this build."""

    def __init__(self, path: Path | None = None, fresh: bool = False) -> None:
        self.path = path
        self.key = converter_key()
        stored = {}
        if path and path.is_file() and not fresh:
            stored = json.loads(path.read_text(encoding="utf-8"))
        self.known: dict[str, str] = stored.get("html", {}) if stored.get("key") == self.key else {}
        self.shown: dict[str, str] = {}  # what this build showed: the next one keeps only that
        self.conversions = 0

    def html(self, text: str) -> str:
        digest = hashlib.sha256(text.encode()).hexdigest()
        if digest not in self.known:
            self.known[digest] = terminal.to_html(text)
            self.conversions += 1
        self.shown[digest] = self.known[digest]
        return self.shown[digest]

    def save(self) -> None:
        if self.path:
            data = {"key": self.key, "html": self.shown}
            write_if_changed(self.path, json.dumps(data, sort_keys=True, ensure_ascii=False))
