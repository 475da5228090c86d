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


# Python-Markdown's headings: a '#' that starts a line (inside a box, after the box's indent)
# starts an <h1> unless a second '#' follows; no space is needed, and the line may be in the middle
# of a paragraph. A line of '=' under a block's first line makes that line an <h1> too.
LEVEL_ONE = re.compile(r"(?:> ?)*#(?!#)")  # in a quote too
UNDERLINE = re.compile(r"=+ *")
BOX = re.compile(r"(!!!|\?\?\?\+?|===\+?)\s")  # admonition, details, tab: content 4 spaces in
LIST_ITEM = re.compile(r"([-*+]|\d+\.) +\S")
COMMENT_OPEN = re.compile(r"<!--(?!.*-->)")


def level_one_headings(lines: list[str]) -> Iterator[int]:
    """The index of each line that Python-Markdown renders as an <h1>.

    Not in fences or multi-line comments. In a box (``!!!``, ``???``, ``===``) or after a list
    item, content sits 4 spaces in: a line there is read without them, but a line indented under
    a list item in the item's own block continues its text. A raw HTML block (no ``markdown``
    attribute) is read as Markdown here. ``tests/test_page.py`` holds this to Python-Markdown's
    own render, for every page and for each of these cases.
    """
    boxes: list[int] = []  # where the content of each open box or list item starts
    block: list[str] = []  # the lines of the block so far (a blank line or a fence ends one)
    listed = -1  # the indent of a list item in this block (-1: none)
    i = 0
    while i < len(lines):
        if end := fence_end(lines, i):
            i, block, listed = end, [], -1
            continue
        line = lines[i].expandtabs(4).rstrip("\n")
        if COMMENT_OPEN.search(line):
            i = next((j for j in range(i + 1, len(lines)) if "-->" in lines[j]), len(lines))
        elif not line.strip():
            block, listed = [], -1
        else:
            text = line.lstrip(" ")
            indent = len(line) - len(text)
            while boxes and indent < boxes[-1]:
                boxes.pop()
            level = boxes[-1] if boxes else 0
            if indent == level and not (0 <= listed < indent):
                underline = len(block) == 1 and UNDERLINE.fullmatch(text)
                if LEVEL_ONE.match(text) or underline:
                    yield i - 1 if underline else i
            if BOX.match(text) or LIST_ITEM.match(text):
                boxes.append(indent + 4)
                listed = indent if LIST_ITEM.match(text) else listed
            block.append(line)
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
