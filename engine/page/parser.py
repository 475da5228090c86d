"""Read a page: its runnable blocks (fences and snippet directives) with their markers.

Errors name the file and line (``MarkupError``): unknown or dangling markers, fences with
attributes (Sybil ignores them), missing snippet files, a ❌ block without its ✅.
"""

from __future__ import annotations

import ast
import functools
import itertools
import re
from pathlib import Path

from mkdocs.utils import meta

from engine.page.claims import find_claims
from engine.page.markers import MARKERS, MarkerSpec
from engine.page.model import BADGE_KINDS, ROOT, Block, Directive, MarkupError, Page, page_slug
from engine.page.policy import policy
from engine.page.syntax import (
    FENCE_OPEN,
    HEADING,
    MARKER_LINE,
    PYTHON_WORDS,
    fence_language,
    find_close,
    level_one_headings,
    line_starts,
    strip_indent,
)


def parse_page(page: str, text: str, line_offset: int = 0, root: Path = ROOT) -> Page:
    """Find every runnable block and marker in ``text`` (the page ``page``, relative to ``root``).

    ``line_offset`` is added to line numbers when ``text`` is the page minus its front matter.
    """
    source = _Source(page, text, line_offset, root)
    result = Page(page, text=text)
    pending: list[tuple[int, MarkerSpec, object]] = []  # block markers waiting for their block
    section = ""  # the latest heading: the one the next block sits under
    sections: list[int] = []  # the H2 lines
    i = 0
    while i < len(source.lines):
        line = source.lines[i]
        fence = FENCE_OPEN.match(line.rstrip("\n"))
        marker = MARKER_LINE.match(line)
        heading = HEADING.match(line)
        block = None
        if fence:
            block, i = _fence(source, i, fence, pending)
        elif marker:
            block = _marker(source, i, marker, pending, result.directives)
        elif line.strip() and pending:
            raise _dangling(source, pending)
        elif heading:
            section = heading["text"]
            sections += [i] if len(heading[1]) == 2 else []
            if len(heading[1]) == 1 and not result.title:
                result.title = heading["text"]
                result.title_end = 0 if result.blocks else source.starts[i + 1]
        if block is not None:
            block.number = len(result.blocks) + 1
            result.blocks.append(_with_markers(source, block, pending, section))
            pending = []
        i += 1
    if pending:
        raise _dangling(source, pending)
    _check_one_title(source)
    _check_neighbours(result)
    if page.startswith(policy(root).badged_pages):
        _check_badges(source, sections)
    result.claims = find_claims(result)
    return result


@functools.lru_cache(maxsize=4096)
def _has_assert(source: str) -> bool:
    """Kept by its text (the same text parses the same): each read of a page parsed every
    claim's block again, a third of what reading the site took."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return True  # reported when the block runs, with the real traceback
    return any(isinstance(node, ast.Assert) for node in ast.walk(tree))


def _check_neighbours(page: Page) -> None:
    """Every ❌ block is followed directly (nothing but blank lines between) by a ✅ block, and
    every check follows directly the block it proves."""
    for before, after in itertools.pairwise([None, *page.blocks, None]):
        between = page.text[before.end : after.start].strip() if before and after else ""
        apart = not (before and after) or between
        if before and before.bad and (apart or not after.good):
            raise MarkupError(f"{before.where}: {_unpaired(after, between)}")
        if after and after.check and apart:
            raise MarkupError(
                f"{after.where}: a 'check' block must follow directly the block it checks"
            )


PAIR_RULE = (
    "a ❌ 'bad' block must be followed directly by its ✅ fix, a block marked <!-- good -->, "
    "with only blank lines between: the site shows the two in one box, which the ❌ block "
    "opens and the ✅ block closes"
)


def _unpaired(after: Block | None, between: str) -> str:
    """Why a ❌ block has no ✅ block right after it, and what to do."""
    if after is None:
        return f"{PAIR_RULE}. No block follows this one: add its fix below it."
    if between:
        text = " ".join(between.split())
        shown = text if len(text) <= 50 else text[:47] + "..."
        return (
            f"{PAIR_RULE}. '{shown}' stands between this block and the next (line "
            f"{after.line}): move it above the ❌ block, or below the ✅ block."
        )
    return (
        f"{PAIR_RULE}. The next block (line {after.line}) has no <!-- good --> marker: if it "
        "is the fix, put <!-- good --> on the line above it; if not, write the fix between them."
    )


def _check_one_title(source: _Source) -> None:
    """A page has one H1, its title; Markdown makes one of any line that starts with '#'."""
    titles = list(itertools.islice(level_one_headings(source.lines), 2))
    if len(titles) < 2:
        return
    if source.lines[titles[1]].lstrip(" \t").startswith("#"):
        why = (
            "Markdown makes one of any line that starts with '#', with or without a space, even "
            "in the middle of a paragraph. Reflow the paragraph so that no line starts with "
            "'#' (\"issue #2095\" mid-line), or write '##' for a section"
        )
    else:
        why = "the line of '=' under it makes it one. Remove that line, or write '##' for a section"
    first = titles[0] + 1 + source.offset
    raise source.error(titles[1], f"a second H1 (the page's title is line {first}): {why}")


def _check_badges(source: _Source, sections: list[int]) -> None:
    """Each H2 says on its next line whether it is a must-read or an optional extra."""
    for i in sections:
        after = next((line for line in source.lines[i + 1 :] if line.strip()), "")
        marker = MARKER_LINE.match(after)
        if not marker or marker["name"] != "badge":
            raise source.error(
                i,
                "a section of this page needs a badge on the line after its heading: "
                f"{' or '.join(f'<!-- badge: {kind} -->' for kind in BADGE_KINDS)}",
            )


class _Source:
    """The page being parsed, read-only: its lines, where each starts, how to name one."""

    def __init__(self, page: str, text: str, line_offset: int, root: Path) -> None:
        self.page, self.offset, self.root = page, line_offset, root
        self.lines = text.splitlines(keepends=True)
        self.starts = line_starts(text)

    def error(self, index: int, message: str) -> MarkupError:
        return MarkupError(f"{self.page}:{index + 1 + self.offset}: {message}")

    def indent(self, index: int) -> str:
        return re.match(r"[ \t]*", self.lines[index]).group(0)

    def block(self, i: int, last: int, code: str, filename: str, first_line: int, **more) -> Block:
        """The block whose fence or directive is line ``i`` and ends on line ``last``."""
        line, start, end = i + 1 + self.offset, self.starts[i], self.starts[last + 1]
        return Block(self.page, line, code, filename, first_line, start, end, **more)

    def snippet(self, i: int, name: str) -> Block:
        """The block of line ``i``'s directive: ``snippets/<page_slug>/NAME.py``."""
        if not re.fullmatch(r"[a-z0-9_]+", name):
            raise self.error(i, f"snippet name '{name}' must be a file stem like 'compile_chart'")
        rel = Path("snippets") / page_slug(self.page) / f"{name}.py"
        if not (self.root / rel).is_file():
            found = sorted(p.stem for p in (self.root / rel.parent).glob("*.py"))
            listing = f"{rel.parent} has: {', '.join(found)}" if found else f"{rel.parent} is empty"
            raise self.error(i, f"snippet file {rel} not found; {listing}")
        code = (self.root / rel).read_text(encoding="utf-8")
        return self.block(i, i, code, str(rel), 1, indent=self.indent(i), snippet=name)


def _dangling(source: _Source, pending: list) -> MarkupError:
    index, spec, _ = pending[0]
    return source.error(index, f"marker '{spec.name}' is not followed by a code block")


def _marker(source: _Source, i: int, match: re.Match, pending: list, directives: list):
    """A marker line: queued for the next block, a snippet's block, or a directive."""
    name, args = match["name"], (match["args"] or "").strip()
    spec = MARKERS.get(name)
    if spec is None:
        raise source.error(i, f"unknown marker '{name}' (known markers: {', '.join(MARKERS)})")
    try:
        value = spec.parse(args)
    except ValueError as error:
        raise source.error(i, f"marker '{spec.name}' {error}") from None
    if spec.block:
        pending.append((i, spec, value))
    elif name == "snippet":
        return source.snippet(i, value)
    else:
        line, start, end = i + 1 + source.offset, source.starts[i], source.starts[i + 1]
        directives.append(Directive(name, args, line, start, end, source.indent(i)))
    return None


def _fence(source: _Source, i: int, match: re.Match, pending: list) -> tuple[Block | None, int]:
    """The block of a python fence opened on line ``i`` (None for another language), and the
    index of its closing line."""
    indent, fence, info = match["indent"], match["fence"], match["info"].strip()
    close = find_close(source.lines, i, fence)
    if close is None:
        raise source.error(i, "code fence is never closed")
    language = fence_language(info)
    if language not in PYTHON_WORDS:
        if pending:
            raise source.error(
                pending[0][0],
                f"marker '{pending[0][1].name}' is before a "
                f"'{language or 'plain'}' fence; markers apply to python blocks only",
            )
        return None, close
    if info != "python":
        raise source.error(
            i,
            f"fence info '{info}' is not allowed: write a bare ```python fence "
            "(Sybil skips fences with attributes; use markers instead)",
        )
    code = "".join(strip_indent(line, indent) for line in source.lines[i + 1 : close])
    return source.block(i, close, code, source.page, i + 2 + source.offset, indent=indent), close


def _with_markers(source: _Source, block: Block, pending: list, section: str) -> Block:
    """``block`` with its markers applied (its span starts at the first) and its section."""
    if pending:
        block.start = source.starts[pending[0][0]]
    block.section = section
    for _, spec, value in pending:
        setattr(block, spec.name.replace("-", "_"), value)
    if block.check:
        if block.fact or block.bad or block.good:
            raise MarkupError(
                f"{block.where}: a 'check' block is its own fact; it takes no 'fact', 'bad' "
                "or 'good' marker"
            )
        block.fact = block.check
    if block.file and (block.fact or block.bad or block.good or block.collapse_code):
        raise MarkupError(
            f"{block.where}: a 'file' block only saves a file; it takes no 'fact', 'check', "
            "'bad', 'good' or 'collapse-code' marker"
        )
    claims = (block.bad and block.bad.mode == "asserts") or block.fact
    if claims and not _has_assert(block.source):
        raise MarkupError(
            f"{block.where}: a 'bad: asserts' or 'fact' block must contain assert statements "
            "that prove what it claims"
        )
    return block


def split_front_matter(text: str) -> tuple[str, int]:
    """The page body without its YAML front matter (mkdocs' own pattern) and its line offset."""
    match = meta.YAML_RE.match(text)
    if not match:
        return text, 0
    return text[match.end() :], text[: match.end()].count("\n")


def read_page(page: str, root: Path = ROOT) -> Page:
    """Parse the page at ``root / page`` with line numbers that match the file."""
    text = (root / page).read_text(encoding="utf-8")
    parsed = parse_page(page, *split_front_matter(text), root)
    _, parsed.meta = meta.get_data(text)  # mkdocs' own front-matter reader, the one read
    parsed.description, parsed.learn = (
        str(parsed.meta.get(name) or "").strip() for name in ("description", "learn")
    )
    return parsed


def page_paths(root: Path = ROOT, docs: str = "docs") -> list[str]:
    """Every page: the Markdown files under ``root / docs``, as sorted paths from ``root``."""
    return sorted(p.relative_to(root).as_posix() for p in (root / docs).rglob("*.md"))


def read_pages(paths: list[str], root: Path = ROOT) -> list[Page]:
    """The pages at ``paths`` (relative to the working directory), or every page in docs/."""
    found = [Path(p).resolve().relative_to(root).as_posix() for p in paths] or page_paths(root)
    return [read_page(path, root) for path in found]
