"""Wrap a page's text, a screenful or two at a time, in ``<section class="jd-section">``, which
the CSS gives ``content-visibility: auto``: a phone lays out only what is near the screen.

A skipped section shows as a placeholder of the height written here, an upper bound on a
360 px phone (never shorter than the section: its contents would overlap what follows). Where
the first section may start comes from a lower bound on what is above it (``least_heights``),
so nothing on screen at load is skipped.
"""

from __future__ import annotations

import html
import math
import re
from html.parser import HTMLParser

HEADINGS = {"h1", "h2", "h3"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
MAX_SECTION_PX = 1600  # a section ends after the element that takes it past this (or at a heading)
# What may be on screen at load is never skipped. Chromium paints the first frame with every
# section as its placeholder; a short section on screen then shrinks to its real height and pulls
# what follows it up into view, a layout shift. So the first screen is measured with a lower
# bound on the height (least_heights), on a phone and on a wider screen, for a window up to about
# this tall (Lighthouse: 823 on its phone, 940 on its desktop). Sections that start inside the
# wider screen's first screen are marked NEAR; the CSS renders them always on a wider screen.
FIRST_SCREEN_PX = 1000
NEAR = "jd-section--near"

# A 360 px phone: 16 px text at line height 1.6, 13.6 px code at 1.4, about 30 characters of
# text and 40 of code per line; a table cell can be as narrow as 10 characters, and each cell is
# counted as if it stood alone; every block adds its margins; a chart is at most 400 px tall.
TEXT_LINE_PX, TEXT_CHARS_PER_LINE, CELL_CHARS_PER_LINE = 26, 30, 10
CODE_LINE_PX, CODE_CHARS_PER_LINE = 20, 40
BLOCK_PX = 40
IMAGE_PX = 400
# The least a line takes on any screen, in the small type of an admonition or a table: code
# never wraps, 15 px a line plus 16 px of padding per block; text 20 px a line, with at most
# about 60 characters a line on a phone (up to 30em wide) and 180 in Material's widest column.
# A table row adds its cells' padding, 24 px; a top-level block is at least 12 px from the next.
# Headings' larger type and charts are not counted.
LEAST_CODE_LINE_PX, LEAST_CODE_PADDING_PX, LEAST_TEXT_LINE_PX = 15, 16, 20
LEAST_ROW_PADDING_PX, LEAST_GAP_PX = 24, 12
PHONE_CHARS_PER_LINE, WIDE_CHARS_PER_LINE = 60, 180
TEXT_BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "tr", "summary", "pre"}

BLOCK_TAG = re.compile(r"<(?:p|li|pre|tr|div|details|h[4-6]|table|blockquote)[\s>]")
PRE = re.compile(r"<pre[^>]*>(.*?)</pre>", re.S)
CELL = re.compile(r"<t[dh][\s>].*?</t[dh]>", re.S)
TAG = re.compile(r"<[^>]+>")


class _Tags(HTMLParser):
    """(name, is an end tag, start, end) of each tag of ``text`` but the void ones, in order; an
    element that closes itself (``<x/>``) is a start and an end with its span."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text, self.found = text, []
        self.lines = [0] + [match.end() for match in re.finditer("\n", text)]
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs) -> None:
        if tag not in VOID:
            line, column = self.getpos()
            start = self.lines[line - 1] + column
            self.found.append((tag, False, start, start + len(self.get_starttag_text())))

    def handle_startendtag(self, tag, attrs) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.found.append((tag, True, *self.found[-1][2:]))

    def handle_endtag(self, tag) -> None:
        if tag not in VOID:
            line, column = self.getpos()
            start = self.lines[line - 1] + column
            self.found.append((tag, True, start, self.text.index(">", start) + 1))


def tags(text: str) -> list[tuple[str, bool, int, int]]:
    return _Tags(text).found


def top_level_elements(found: list[tuple[str, bool, int, int]]) -> list[tuple[str, bool, int, int]]:
    """(tag, holds a heading, start, end) of each element that is not inside another one. One
    that holds an h1-h3 (a quiz question) is never inside a section: the table of contents reads
    where the headings are, which would render a skipped section.
    A top-level void element (<hr>) is not listed: it goes with the element after it."""
    elements, depth, holds_heading, opened = [], 0, False, 0
    for name, closes, start, end in found:
        if closes:
            depth -= 1
            if depth == 0:
                elements.append((name, holds_heading, opened, end))
            continue
        if depth == 0:
            opened = start
        holds_heading = depth > 0 and (holds_heading or name in HEADINGS)
        depth += 1
    return elements


def visible_length(fragment: str) -> int:
    return len(" ".join(html.unescape(TAG.sub(" ", fragment)).split()))


def estimated_height(fragment: str) -> int:
    """An upper bound, in CSS pixels, on the height of this HTML on a narrow phone."""
    code_lines = sum(
        max(1, math.ceil(visible_length(line) / CODE_CHARS_PER_LINE))
        for block in PRE.findall(fragment)
        for line in block.split("\n")
    )
    prose = PRE.sub(" ", fragment)
    cell_lines = sum(
        math.ceil(visible_length(cell) / CELL_CHARS_PER_LINE) for cell in CELL.findall(prose)
    )
    text_lines = cell_lines + math.ceil(visible_length(CELL.sub(" ", prose)) / TEXT_CHARS_PER_LINE)
    boxes = len(BLOCK_TAG.findall(fragment)) * BLOCK_PX + fragment.count("<img") * IMAGE_PX
    return code_lines * CODE_LINE_PX + text_lines * TEXT_LINE_PX + boxes


class _ShownText(HTMLParser):
    """The lines of text and code of a fragment that show without the reader opening anything:
    a closed <details>, every content tab (only one shows) and [hidden] count for nothing. Each
    text block (a paragraph, a list item, a heading) takes at least one line."""

    def __init__(self):
        super().__init__()
        self.stack, self.text, self.code, self.text_blocks = [], [], [], []
        self.code_lines = self.code_blocks = self.rows = self.top_level_boxes = 0

    def shown(self) -> bool:
        return not self.stack or self.stack[-1][1]

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attrs = dict(attrs)
        hides = (
            (tag == "details" and "open" not in attrs)
            or "tabbed-block" in (attrs.get("class") or "").split()
            or "hidden" in attrs
        )
        self.end_text_block(tag)
        self.top_level_boxes += not self.stack and not hides
        self.stack.append((tag, self.shown() and not hides))
        self.rows += tag == "tr" and self.shown()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        self.end_text_block(tag)
        while self.stack and self.stack.pop()[0] != tag:
            pass  # an element left open closes with its parent, as in a browser
        if tag == "pre" and self.code:
            self.code_lines += "".join(self.code).strip("\n").count("\n") + 1
            self.code_blocks, self.code = self.code_blocks + 1, []

    def end_text_block(self, tag):
        if tag in TEXT_BLOCKS:
            self.text_blocks.append(len(" ".join(" ".join(self.text).split())))
            self.text = []

    def handle_data(self, data):
        if not self.shown():
            return
        if any(tag == "pre" for tag, _ in self.stack):
            self.code.append(data)
        else:
            self.text.append(data)


def least_heights(fragment: str) -> tuple[int, int]:
    """Lower bounds, in CSS pixels, on the height of this HTML on a phone and on any screen."""
    shown = _ShownText()
    shown.feed(fragment)
    shown.close()
    shown.end_text_block("p")
    code = shown.code_lines * LEAST_CODE_LINE_PX + shown.code_blocks * LEAST_CODE_PADDING_PX
    boxes = code + shown.rows * LEAST_ROW_PADDING_PX + shown.top_level_boxes * LEAST_GAP_PX
    return tuple(
        boxes + LEAST_TEXT_LINE_PX * sum(math.ceil(n / per_line) for n in shown.text_blocks)
        for per_line in (PHONE_CHARS_PER_LINE, WIDE_CHARS_PER_LINE)
    )


def wrap_sections(content: str) -> str:
    """Runs of top-level elements between headings, each run a section of at most about
    MAX_SECTION_PX, with its placeholder height; headings stay outside, always rendered."""
    return _wrap(content, tags(content), [0, 0])


def _wrap(content: str, found: list[tuple[str, bool, int, int]], above: list[int]) -> str:
    """``wrap_sections`` of ``content``, whose tags are ``found``, below ``above``: the least
    heights above it on a phone and on a wider screen, which this adds to. A <div> that holds a
    heading (a quiz question, a notebook view's wrapper or cell) is wrapped inside, from the tags
    of the first scan: its text is laid out as it nears the screen, its headings always."""
    pieces, run, height, done, near = [], "", 0, 0, False
    for tag, holds_heading, start, end in top_level_elements(found):
        element, previous, done = content[done:end], done, end
        if holds_heading and tag == "div":
            inner_start, inner_end = content.index(">", start) + 1, content.rindex("</", start, end)
            inner = [
                (name, closes, at - inner_start, to - inner_start)
                for name, closes, at, to in found
                if inner_start <= at and to <= inner_end
            ]  # the tags inside, scanned once with the page
            wrapped = _wrap(content[inner_start:inner_end], inner, above)
            pieces.append(section(run, height, near) + content[previous:inner_start] + wrapped)
            pieces.append(content[inner_end:end])
            run, height = "", 0
            continue
        below_phone_screen = above[0] >= FIRST_SCREEN_PX
        on_wide_screen = above[1] < FIRST_SCREEN_PX
        if on_wide_screen:
            phone, wide = least_heights(element)
            above[0], above[1] = above[0] + phone, above[1] + wide
        if tag not in HEADINGS and not holds_heading and below_phone_screen:
            if not run:  # a section is near when its first element is
                near = on_wide_screen
            run, height = run + element, height + estimated_height(element)
        else:
            pieces.append(section(run, height, near) + element)
            run, height = "", 0
        if height > MAX_SECTION_PX:
            pieces.append(section(run, height, near))
            run, height = "", 0
    pieces.append(section(run, height, near) + content[done:])
    return "".join(pieces)


def section(fragment: str, height: int, near: bool = False) -> str:
    """The fragment in a section with its placeholder height ("" stays "")."""
    if not fragment:
        return ""
    classes = f"jd-section {NEAR}" if near else "jd-section"
    style = f"contain-intrinsic-size: auto {height}px"
    return f'<section class="{classes}" style="{style}">{fragment}</section>'
