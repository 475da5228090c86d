"""A page as a tree of boxes (admonitions, tabs) around Markdown runs and block placeholders.

The notebook writer walks it to turn each box into cells; ``prose_lines`` rewrites the prose
for a reader other than mkdocs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from engine.page.model import Block, Page
from engine.page.syntax import (
    ADMONITION,
    HEADING_ATTRS,
    LINK,
    LINK_ATTRS,
    MARKER_LINE,
    PLACEHOLDER,
    TAB,
    fence_end,
)


@dataclass
class Node:
    """A piece of the page: Markdown lines, a block, or a box (admonition/tab) of pieces."""

    kind: Literal["text", "block", "box"]
    lines: list[str] = field(default_factory=list)
    index: int = -1
    box: str = ""  # "!!!", "???", "???+", "==="
    box_type: str = ""
    title: str = ""
    children: list[Node] = field(default_factory=list)

    @property
    def collapsible(self) -> bool:
        return self.box.startswith("???")

    def block_indexes(self) -> Iterator[int]:
        """The blocks in this piece, in page order."""
        if self.kind == "block":
            yield self.index
        for child in self.children:
            yield from child.block_indexes()

    def has_blocks(self) -> bool:
        return next(self.block_indexes(), None) is not None


def outline(page: Page, drop_title: bool = False) -> list[Node]:
    """The page as a tree: prose runs, its blocks (by index) and the admonition and tab boxes
    that hold them. ``drop_title`` leaves out the H1 line."""
    lines = _with_placeholders(page.text, page.blocks)
    title_line = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
    if drop_title and title_line is not None:
        del lines[title_line]
    return _outline(lines)


def folded(nodes: list[Node], inside: bool = False) -> set[int]:
    """Indexes of the blocks inside a collapsed box (``???``, not the open ``???+``)."""
    found = set()
    for node in nodes:
        closed = inside or (node.collapsible and node.box != "???+")
        if node.kind == "block" and closed:
            found.add(node.index)
        found |= folded(node.children, closed)
    return found


def visible_blocks(page: Page) -> list[Block]:
    """The blocks a reader sees as code on the page, in order: not a folded check, not a
    ``collapse-code`` snippet, not inside a collapsed box."""
    hidden = folded(outline(page))
    return [
        block
        for index, block in enumerate(page.blocks)
        if index not in hidden and not block.check and not block.collapse_code
    ]


def _with_placeholders(body: str, blocks: list[Block]) -> list[str]:
    """``body``'s lines, each block's span (markers included) replaced by one placeholder line."""
    pieces, position = [], 0
    for index, block in enumerate(blocks):
        pieces.append(body[position : block.start])
        pieces.append(f"{block.indent}\x00{index}\x00\n")
        position = block.end
    pieces.append(body[position:])
    return "".join(pieces).splitlines()


def _outline(lines: list[str]) -> list[Node]:
    """Split lines into Markdown runs, block placeholders and boxes (by indentation)."""
    nodes: list[Node] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        box = ADMONITION.match(line) or TAB.match(line)
        if placeholder := PLACEHOLDER.match(line):
            nodes.append(Node("block", index=int(placeholder["index"])))
            i += 1
        elif box:
            body, i = _box_body(lines, i + 1)
            box_type, title = box.groupdict().get("type") or "", box["title"] or ""  # a tab: none
            children = _outline(body)
            nodes.append(
                Node("box", box=box["kind"], box_type=box_type, title=title, children=children)
            )
        else:  # prose; a fenced example joins the run whole, whatever its lines look like
            end = fence_end(lines, i) or i + 1
            if nodes and nodes[-1].kind == "text":
                nodes[-1].lines += lines[i:end]
            else:
                nodes.append(Node("text", lines=lines[i:end]))
            i = end
    return nodes


def _box_body(lines: list[str], i: int) -> tuple[list[str], int]:
    """The lines indented under a box header (dedented by four), and where the box ends."""
    end = i
    while end < len(lines) and (lines[end].startswith(("    ", "\t")) or not lines[end].strip()):
        end += 1
    while end > i and not lines[end - 1].strip():  # trailing blank lines belong to what follows
        end -= 1
    body = [line[4:] if line.startswith("    ") else line.lstrip("\t") for line in lines[i:end]]
    return body, end


def prose_lines(lines: list[str], on_marker, link) -> list[str]:
    """Prose for another Markdown reader: attribute lists dropped, link targets mapped with
    ``link``, standalone markers replaced by ``on_marker(name, args)``; fenced examples copied
    untouched."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if end := fence_end(lines, i):  # a fenced example: copied untouched
            out += lines[i:end]
            i = end
            continue
        i += 1
        if marker := MARKER_LINE.match(line):
            out.append(on_marker(marker["name"], (marker["args"] or "").strip()))
            continue
        if heading := HEADING_ATTRS.match(line):
            line = heading[1]
        line = LINK_ATTRS.sub("", line)
        out.append(LINK.sub(lambda m: link(m["target"]), line))
    return out
