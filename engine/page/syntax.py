"""The Markdown the engine recognises: fences, marker comments, headings, boxes, links.

Every pattern that reads page syntax lives here, so the parser, the outline and the renderers
cannot disagree about what a fence or a marker is.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Iterator

MARKER_LINE = re.compile(r"^\s*<!--\s*(?P<name>[a-z][a-z0-9-]*)\s*(?::\s*(?P<args>.*?))?\s*-->\s*$")
FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
PYTHON_WORDS = {"python", "py", "python3", "pycon"}
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(?P<text>.+?)\s*(?:\{[^}]*\})?\s*#*\s*$")


def find_close(lines: list[str], i: int, fence: str) -> int | None:
    """The line that closes the fence opened on line ``i``: the fence's character, at least as
    many times, and nothing else. The one rule for code blocks and prose alike."""
    for j in range(i + 1, len(lines)):
        stripped = lines[j].strip()
        if stripped.startswith(fence) and not stripped.strip(fence[0]):
            return j
    return None


def fence_end(lines: list[str], i: int) -> int | None:
    """The line after the fenced example that line ``i`` opens (an unclosed one runs to the end),
    or None when line ``i`` opens none."""
    if not (opened := FENCE_OPEN.match(lines[i])):
        return None
    close = find_close(lines, i, opened["fence"])
    return len(lines) if close is None else close + 1


def outside_fences(lines: list[str]) -> Iterator[str]:
    """The lines that are not in a fenced code block (a `## ` line in code is no heading)."""
    i = 0
    while i < len(lines):
        if end := fence_end(lines, i):
            i = end
            continue
        yield lines[i]
        i += 1


def linked_pages(text: str, page: str) -> set[str]:
    """The Markdown pages ``text`` (from ``page``) links to, as paths like ``page``'s."""
    here = posixpath.dirname(page)
    targets = (m["target"].split("#", 1)[0] for m in LINK.finditer(text))
    return {posixpath.normpath(posixpath.join(here, t)) for t in targets if t.endswith(".md")}


def strip_indent(line: str, indent: str) -> str:
    return line[len(indent) :] if line.startswith(indent) else line.lstrip(" \t")


def fence_language(info: str) -> str:
    words = re.split(r"[\s{]+", info.lstrip("{.").strip(), maxsplit=1)
    return words[0].lower() if words else ""


def line_starts(text: str) -> list[int]:
    """Where each line of ``text`` starts, and where the text ends."""
    return [0, *itertools.accumulate(len(line) for line in text.splitlines(keepends=True))]


ADMONITION = re.compile(
    r'^(?P<kind>!!!|\?\?\?\+?)\s+(?P<type>[\w-]+)(?:\s+"(?P<title>[^"]*)")?\s*$'
)
TAB = re.compile(r'^(?P<kind>===)\+?\s+"(?P<title>[^"]*)"\s*$')
PLACEHOLDER = re.compile(r"^\s*\x00(?P<index>\d+)\x00\s*$")
HEADING_ATTRS = re.compile(r"^(#{1,6}\s.*?)\s*\{[^}]*\}\s*$")
LINK_ATTRS = re.compile(r"(?<=\))\{[^}\n]*\}")
LINK = re.compile(r"(?<=\]\()(?P<target>[^)\s]+)(?=\))")


def is_absolute_url(target: str) -> bool:
    return bool(re.match(r"^[a-z][a-z0-9+.-]*:", target))


def code_fence(language: str, text: str, attributes: str = "") -> str:
    """A fenced block that no backtick run inside ``text`` can close early."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    info = f"{language} {attributes}".strip()
    return f"{ticks}{info}\n{text.rstrip()}\n{ticks}"
