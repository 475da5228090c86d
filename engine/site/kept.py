"""What a build's slow pure conversions made, kept for the next build.

Two conversions of a page's text are pure functions of it and of their own code: a coloured
output's HTML (``engine.run.terminal.to_html``: nbconvert draws it, and importing nbconvert cost
every warm rebuild about 0.3 s) and a page's sections (``engine.site.sections.wrap_sections``,
about 0.3 s a build). A ``Kept`` conversion stores what it made this build, by a digest of its
input and under a key of the converter (``converter_key``: the module's code, Python and the
installed distributions); the next build converts only an input it has not seen with that key.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from engine.run import terminal
from engine.run.cache import installed_distributions, write_if_changed
from engine.site import sections

COLOURS = "coloured-outputs.json"  # in the page cache's folder
SECTIONS = "sections.json"


def converter_key(module: Path) -> str:
    """What a conversion depends on besides its input: its module's code, Python's version and
    the installed distributions (for to_html, nbconvert's version)."""
    return hashlib.sha256(module.read_bytes() + b"\0" + installed_distributions()).hexdigest()


class Kept:
    """``convert``'s results, stored in ``path`` (none: not kept) and read from it unless
    ``fresh``. ``conversions`` counts the inputs this build converted."""

    def __init__(self, convert: Callable[[str], str], key: str, path=None, fresh=False) -> None:
        self.convert, self.key, self.path = convert, key, path
        stored = {}
        if path and path.is_file() and not fresh:
            stored = json.loads(path.read_text(encoding="utf-8"))
        self.known: dict[str, str] = stored.get("made", {}) if stored.get("key") == key else {}
        self.used: dict[str, str] = {}  # what this build used: the next one keeps only that
        self.conversions = 0

    def __call__(self, text: str) -> str:
        digest = hashlib.sha256(text.encode()).hexdigest()
        if digest not in self.known:
            self.known[digest] = self.convert(text)
            self.conversions += 1
        self.used[digest] = self.known[digest]
        return self.used[digest]

    def save(self) -> None:
        if self.path:
            data = {"key": self.key, "made": self.used}
            write_if_changed(self.path, json.dumps(data, sort_keys=True, ensure_ascii=False))


def coloured_outputs(cache_dir: Path | None = None, fresh: bool = False) -> Kept:
    """A coloured output's HTML (``to_html``), kept in ``cache_dir``."""
    path = cache_dir / COLOURS if cache_dir else None
    return Kept(terminal.to_html, converter_key(Path(terminal.__file__)), path, fresh)


def wrapped_sections(cache_dir: Path | None = None, fresh: bool = False) -> Kept:
    """A page's HTML wrapped in sections (``wrap_sections``), kept in ``cache_dir``."""
    path = cache_dir / SECTIONS if cache_dir else None
    return Kept(sections.wrap_sections, converter_key(Path(sections.__file__)), path, fresh)
