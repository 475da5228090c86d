"""The page syntax, read by both the build hook and the Sybil set-up, so the two cannot disagree.

A page is Markdown. Runnable code is either a bare ```python fence or a snippet directive:

    <!-- snippet: NAME -->             runs snippets/<page_slug>/NAME.py at this point

A marker is an HTML comment alone on its line, ``<!-- name -->`` or ``<!-- name: args -->``.
Block markers go before the block they apply to (blank lines allowed in between); standalone
ones stand for themselves. ``MARKERS`` below is the one list of them: the parser validates
against it and the conventions page's table (``<!-- marker-table -->``) is generated from it.
Unknown marker names, markers that lead nowhere, fences with attributes (Sybil ignores them)
and missing snippet files are errors that name the file and line.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_TIMEOUT = 120.0
DEFAULT_MAX_OUTPUT_KB = 100  # a block's printed output, in KB (1024 bytes)
ROOT = Path(__file__).resolve().parents[2]  # engine/page/markers.py -> the project
SNIPPETS = ROOT / "snippets"

MARKER_LINE = re.compile(r"^\s*<!--\s*(?P<name>[a-z][a-z0-9-]*)\s*(?::\s*(?P<args>.*?))?\s*-->\s*$")
FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
PYTHON_WORDS = {"python", "py", "python3", "pycon"}
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(?P<text>.+?)\s*(?:\{[^}]*\})?\s*#*\s*$")


class MarkupError(ValueError):
    """A page that cannot be built as written; the message starts with ``file:line:``."""


@dataclass(frozen=True)
class Expectation:
    """What a ❌ block declares: ``raises``/``warns`` a named class, or ``asserts``."""

    mode: str
    name: str = ""

    def describe(self) -> str:
        return f"{self.mode} {self.name}".strip()

    def headline(self) -> str:
        """The ❌ box's title on the site and the version-notes row."""
        return "its asserts prove the problem" if self.mode == "asserts" else self.describe()

    def cell_note(self) -> str:
        """The line above the ❌ cell in a notebook."""
        if self.mode == "raises":
            return f"this cell must raise `{self.name}` (the error is the point)."
        if self.mode == "warns":
            return f"this cell must warn `{self.name}`."
        return "this cell runs, and its asserts prove what goes wrong."


@dataclass(frozen=True)
class Badge:
    label: str  # on the site
    emphasis: str  # Markdown emphasis in a notebook: "**" or "*"


BADGES = {"must-read": Badge("Must read", "**"), "extra": Badge("Optional extra", "*")}


def _flag(args: str) -> bool:
    if args:
        raise ValueError(f"takes no arguments, got '{args}'")
    return True


def _text(what: str):
    def parse(args: str) -> str:
        if not args:
            raise ValueError(f"needs {what}")
        return args

    return parse


def _seconds(args: str) -> float:
    try:
        return float(args)
    except ValueError:
        raise ValueError(f"takes seconds, got '{args}'") from None


def _kilobytes(args: str) -> int:
    if not re.fullmatch(r"[1-9]\d*", args):
        raise ValueError(f"takes a whole number of KB, got '{args}'")
    return int(args)


def _expectation(args: str) -> Expectation:
    match = re.fullmatch(r"(raises|warns)\s+([A-Za-z_][\w.]*)|(asserts)", args)
    if not match:
        raise ValueError(
            f"needs 'raises ErrorName', 'warns WarningName' or 'asserts', got '{args}'"
        )
    return Expectation("asserts") if match[3] else Expectation(match[1], match[2])


def _badge(args: str) -> str:
    if args not in BADGES:
        raise ValueError(f"must be one of {sorted(BADGES)}, got '{args}'")
    return args


def _install(args: str) -> str:
    if args not in ("pip", "uv", "versions"):
        raise ValueError(f"must be one of pip, uv, versions, got '{args}'")
    return args


@dataclass(frozen=True)
class MarkerSpec:
    """One marker: how it is written, what it applies to, what it means, how its argument parses.

    ``field`` is the ``Block`` attribute a block marker sets to ``parse(args)``.
    """

    name: str
    applies_to: str  # "the next block" or "itself" (standalone)
    uses: tuple[tuple[str, str], ...]  # (how it is written, what it means), one per table row
    parse: Callable[[str], object] = _flag
    field: str = ""

    @property
    def standalone(self) -> bool:
        return not self.field


NEXT, ITSELF = "the next block", "itself"
MARKERS = {
    spec.name: spec
    for spec in (
        MarkerSpec(
            "bad",
            NEXT,
            (
                ("bad: raises ErrorName", "❌ block that must raise exactly this exception class."),
                ("bad: warns WarningName", "❌ block that must emit this warning category."),
                (
                    "bad: asserts",
                    "❌ block that runs, and whose `assert`s prove the wrong behaviour.",
                ),
            ),
            _expectation,
            "bad",
        ),
        MarkerSpec(
            "good",
            NEXT,
            (("good", "✅ block; every ❌ block is directly followed by one. Must run clean."),),
            _flag,
            "good",
        ),
        MarkerSpec(
            "skip",
            NEXT,
            (
                (
                    "skip: reason",
                    "Shown but never run (the reason is printed instead of output).",
                ),
            ),
            _text("a reason: <!-- skip: why this block cannot run -->"),
            "skip",
        ),
        MarkerSpec(
            "timeout",
            NEXT,
            (
                (
                    "timeout: SECONDS",
                    f"Lets a slow block run longer than the default {DEFAULT_TIMEOUT:g} s.",
                ),
            ),
            _seconds,
            "timeout",
        ),
        MarkerSpec(
            "max-output",
            NEXT,
            (
                (
                    "max-output: KB",
                    "Lets a block print more than the default "
                    f"{DEFAULT_MAX_OUTPUT_KB} KB; past its limit the build fails.",
                ),
            ),
            _kilobytes,
            "max_output",
        ),
        MarkerSpec(
            "collapse-code",
            NEXT,
            (("collapse-code", "Folds the block's code; its output stays visible."),),
            _flag,
            "collapse_code",
        ),
        MarkerSpec(
            "fact",
            NEXT,
            (
                (
                    "fact: statement",
                    "The block's `assert`s prove this statement; listed in the version notes.",
                ),
            ),
            _text("the statement its asserts prove"),
            "fact",
        ),
        MarkerSpec(
            "snippet",
            ITSELF,
            (("snippet: NAME", "Runs and shows `snippets/<page_slug>/NAME.py` here."),),
            _text("a file stem like 'compile_chart'"),
        ),
        MarkerSpec(
            "badge",
            ITSELF,
            tuple(
                (f"badge: {kind}", f"A *{badge.label}* badge, on the line after a heading.")
                for kind, badge in BADGES.items()
            ),
            _badge,
        ),
        MarkerSpec(
            "version-notes",
            ITSELF,
            (("version-notes", "Replaced by the table of every contract and fact on the site."),),
        ),
        MarkerSpec(
            "install",
            ITSELF,
            (
                ("install: pip", "Replaced by set-up commands with pip, pinned from `uv.lock`."),
                ("install: uv", "Replaced by the same set-up commands with uv."),
                ("install: versions", "Replaced by a table of the package versions in `uv.lock`."),
            ),
            _install,
        ),
        MarkerSpec(
            "marker-table",
            ITSELF,
            (("marker-table", "Replaced by this table, generated from the engine's marker list."),),
        ),
        MarkerSpec(
            "course-table",
            ITSELF,
            (
                (
                    "course-table",
                    "Replaced by a table of the nav's Course pages, each with its front "
                    "matter's `learn:` line (the home page's *What you will learn*).",
                ),
            ),
        ),
    )
}


def marker_table() -> str:
    """The Markdown table of every marker, for ``<!-- marker-table -->``."""
    rows = ["| Marker | Applies to | Effect |", "| --- | --- | --- |"]
    for spec in MARKERS.values():
        for written, meaning in spec.uses:
            rows.append(f"| `<!-- {written} -->` | {spec.applies_to} | {meaning} |")
    return "\n".join(rows) + "\n"


@dataclass
class Block:
    """One runnable example, from a fence in the page or a snippet file."""

    page: str  # path of the page, relative to the project root
    line: int  # page line of the fence or directive (1-based)
    source: str  # the code, dedented
    filename: str  # where the code lives, for tracebacks
    first_line: int  # line of the code's first line inside ``filename``
    start: int  # character span in the page that the block and its markers cover
    end: int
    indent: str = ""
    snippet: str | None = None
    bad: Expectation | None = None
    good: bool = False
    skip: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    max_output: int = DEFAULT_MAX_OUTPUT_KB
    collapse_code: bool = False
    fact: str | None = None
    section: str = ""  # the heading the block sits under, for the version notes

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def is_doctest(self) -> bool:
        return self.source.lstrip().startswith(">>> ")

    def key_material(self) -> dict:
        """Everything about the block that can change its output; not its line on the page,
        which fenced code never sees (it runs as ``<example>``), so prose edits run nothing."""
        return {
            "source": self.source,
            "snippet": self.filename if self.snippet else None,
            "bad": self.bad.describe() if self.bad else None,
            "skip": self.skip,
            "timeout": self.timeout,
            "max_output": self.max_output,
        }


@dataclass
class Directive:
    """A standalone marker the hook replaces: ``badge`` (with its kind) or ``version-notes``."""

    name: str
    value: str
    line: int
    start: int
    end: int
    indent: str = ""


@dataclass
class Page:
    path: str
    title: str = ""
    blocks: list[Block] = field(default_factory=list)
    directives: list[Directive] = field(default_factory=list)
    text: str = ""  # what was parsed: the page without its front matter (spans index into it)
    description: str = ""  # the front matter's one-sentence description
    learn: str = ""  # the front matter's `learn:` line: what a reader can do after the page
    title_end: int = 0  # where the line after the H1 starts (0: no H1 before the first block)
    front_matter: str = ""  # the YAML between the front matter's fences


def page_slug(page_path: str | Path) -> str:
    """``docs/course/how-jit-works.md`` -> ``how_jit_works`` (its snippet folder's name)."""
    return Path(page_path).stem.replace("-", "_")


def parse_page(page: str, text: str, line_offset: int = 0, root: Path = ROOT) -> Page:
    """Find every runnable block and marker in ``text`` (the page ``page``, relative to ``root``).

    ``line_offset`` is added to line numbers when ``text`` is the page minus its front matter.
    """
    source = _Source(page, text, line_offset, root)
    result = Page(page, text=text)
    pending: list[tuple[int, MarkerSpec, object]] = []  # block markers waiting for their block
    section = ""  # the latest heading: the one the next block sits under
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
            if len(heading[1]) == 1 and not result.title:
                result.title = heading["text"]
                result.title_end = 0 if result.blocks else source.starts[i + 1]
        if block is not None:
            result.blocks.append(_with_markers(source, block, pending, section))
            pending = []
        i += 1
    if pending:
        raise _dangling(source, pending)
    _check_pairs(result)
    return result


def _has_assert(source: str) -> bool:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return True  # reported when the block runs, with the real traceback
    return any(isinstance(node, ast.Assert) for node in ast.walk(tree))


def _check_pairs(page: Page) -> None:
    """Every ❌ block is followed directly (nothing but blank lines between) by a ✅ block."""
    blocks = page.blocks
    for index, block in enumerate(blocks):
        if not block.bad:
            continue
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        between = page.text[block.end : following.start] if following else "x"
        if not following or not following.good or between.strip():
            raise MarkupError(
                f"{block.where}: a ❌ 'bad' block must be followed directly by "
                "a ✅ block marked <!-- good -->"
            )


def _find_close(lines: list[str], i: int, fence: str) -> int | None:
    """The line that closes the fence opened on line ``i``: the fence's character, at least as
    many times, and nothing else. The one rule for code blocks and prose alike."""
    for j in range(i + 1, len(lines)):
        stripped = lines[j].strip()
        if stripped.startswith(fence) and not stripped.strip(fence[0]):
            return j
    return None


def _fence_end(lines: list[str], i: int, fence: str) -> int:
    """The line after the fenced example opened on line ``i`` (an unclosed one runs to the end)."""
    close = _find_close(lines, i, fence)
    return len(lines) if close is None else close + 1


def _strip_indent(line: str, indent: str) -> str:
    return line[len(indent) :] if line.startswith(indent) else line.lstrip(" \t")


def _snippet_file(root: Path, page: str, name: str) -> tuple[str, str]:
    """``snippets/<page_slug>/NAME.py`` and its text; ValueError names what is wrong."""
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise ValueError(f"snippet name '{name}' must be a file stem like 'compile_chart'")
    rel = Path("snippets") / page_slug(page) / f"{name}.py"
    if not (root / rel).is_file():
        found = sorted(p.stem for p in (root / rel.parent).glob("*.py"))
        there = f"; {rel.parent} has: {', '.join(found)}" if found else f"; {rel.parent} is empty"
        raise ValueError(f"snippet file {rel} not found{there}")
    return str(rel), (root / rel).read_text(encoding="utf-8")


def _fence_language(info: str) -> str:
    words = re.split(r"[\s{]+", info.lstrip("{.").strip(), maxsplit=1)
    return words[0].lower() if words else ""


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
        return Block(
            page=self.page,
            line=i + 1 + self.offset,
            source=code,
            filename=filename,
            first_line=first_line,
            start=self.starts[i],
            end=self.starts[last + 1],
            **more,
        )


def line_starts(text: str) -> list[int]:
    """Where each line of ``text`` starts, and where the text ends."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


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
    if not spec.standalone:
        pending.append((i, spec, value))
    elif name == "snippet":
        try:
            rel, code = _snippet_file(source.root, source.page, value)
        except ValueError as error:
            raise source.error(i, str(error)) from None
        return source.block(i, i, code, rel, 1, indent=source.indent(i), snippet=value)
    else:
        line = i + 1 + source.offset
        end = source.starts[i + 1]
        directives.append(Directive(name, args, line, source.starts[i], end, source.indent(i)))
    return None


def _fence(source: _Source, i: int, match: re.Match, pending: list) -> tuple[Block | None, int]:
    """The block of a python fence opened on line ``i`` (None for another language), and the
    index of its closing line."""
    indent, fence, info = match["indent"], match["fence"], match["info"].strip()
    close = _find_close(source.lines, i, fence)
    if close is None:
        raise source.error(i, "code fence is never closed")
    language = _fence_language(info)
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
    code = "".join(_strip_indent(line, indent) for line in source.lines[i + 1 : close])
    return source.block(i, close, code, source.page, i + 2 + source.offset, indent=indent), close


def _with_markers(source: _Source, block: Block, pending: list, section: str) -> Block:
    """``block`` with its markers applied (its span starts at the first) and its section."""
    if pending:
        block.start = source.starts[pending[0][0]]
    block.section = section
    for _, spec, value in pending:
        setattr(block, spec.field, value)
    claims = (block.bad and block.bad.mode == "asserts") or block.fact
    if claims and not _has_assert(block.source):
        raise MarkupError(
            f"{block.where}: a 'bad: asserts' or 'fact' block must contain assert statements "
            "that prove what it claims"
        )
    return block


# ---------------------------------------------------------------- the page as a tree of boxes

ADMONITION = re.compile(
    r'^(?P<kind>!!!|\?\?\?\+?)\s+(?P<type>[\w-]+)(?:\s+"(?P<title>[^"]*)")?\s*$'
)
TAB = re.compile(r'^===\+?\s+"(?P<title>[^"]*)"\s*$')
PLACEHOLDER = re.compile(r"^\s*\x00(?P<index>\d+)\x00\s*$")
HEADING_ATTRS = re.compile(r"^(#{1,6}\s.*?)\s*\{[^}]*\}\s*$")
LINK_ATTRS = re.compile(r"(?<=\))\{[^}\n]*\}")
LINK = re.compile(r"(?<=\]\()(?P<target>[^)\s]+)(?=\))")


@dataclass
class Node:
    """A piece of the page: Markdown lines, a block, or a box (admonition/tab) of pieces."""

    kind: str  # "text", "block", "box"
    lines: list[str] = field(default_factory=list)
    index: int = -1
    box: str = ""  # "!!!", "???", "???+", "==="
    box_type: str = ""
    title: str = ""
    children: list[Node] = field(default_factory=list)

    @property
    def collapsible(self) -> bool:
        return self.box.startswith("???")

    @property
    def is_tab(self) -> bool:
        return self.box == "==="

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
    lines = _with_placeholders(page.text, page.blocks)[1]
    title_line = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
    if drop_title and title_line is not None:
        del lines[title_line]
    return _outline(lines)


def _with_placeholders(body: str, blocks: list[Block]) -> tuple[str, list[str]]:
    """``body`` with each block's span (markers included) replaced by one placeholder line."""
    pieces, position = [], 0
    for index, block in enumerate(blocks):
        pieces.append(body[position : block.start])
        pieces.append(f"{block.indent}\x00{index}\x00\n")
        position = block.end
    pieces.append(body[position:])
    text = "".join(pieces)
    return text, text.splitlines()


def _outline(lines: list[str]) -> list[Node]:
    """Split lines into Markdown runs, block placeholders and boxes (by indentation)."""
    nodes: list[Node] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        opened = FENCE_OPEN.match(line)
        box = ADMONITION.match(line) or TAB.match(line)
        placeholder = PLACEHOLDER.match(line)
        if placeholder:
            nodes.append(Node("block", index=int(placeholder["index"])))
            i += 1
        elif box:
            body, i = _box_body(lines, i + 1)
            kind = box.groupdict().get("kind") or "==="
            nodes.append(
                Node(
                    "box",
                    box=kind,
                    box_type=box.groupdict().get("type") or "",
                    title=box["title"] or "",
                    children=_outline(body),
                )
            )
        else:  # prose; a fenced example joins the run whole, whatever its lines look like
            end = _fence_end(lines, i, opened["fence"]) if opened else i + 1
            if nodes and nodes[-1].kind == "text":
                nodes[-1].lines += lines[i:end]
            else:
                nodes.append(Node("text", lines=lines[i:end]))
            i = end
    return nodes


def _box_body(lines: list[str], i: int) -> tuple[list[str], int]:
    """The lines indented under a box header (dedented by four), and where the box ends."""
    body: list[str] = []
    while i < len(lines):
        line = lines[i]
        if line.strip() and not line.startswith("    ") and not line.startswith("\t"):
            break
        body.append(line[4:] if line.startswith("    ") else line.lstrip("\t"))
        i += 1
    while body and not body[-1].strip():  # trailing blank lines belong to what follows
        body.pop()
        i -= 1
    return body, i


def prose_lines(lines: list[str], on_marker, link) -> list[str]:
    """Prose for another Markdown reader: attribute lists dropped, link targets mapped with
    ``link``, standalone markers replaced by ``on_marker(name, args)``; fenced examples copied
    untouched."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        opened = FENCE_OPEN.match(line)
        if opened:  # a fenced example: copied untouched
            end = _fence_end(lines, i, opened["fence"])
            out += lines[i:end]
            i = end
            continue
        i += 1
        marker = MARKER_LINE.match(line)
        if marker:
            out.append(on_marker(marker["name"], (marker["args"] or "").strip()))
            continue
        heading = HEADING_ATTRS.match(line)
        if heading:
            line = heading[1]
        line = LINK_ATTRS.sub("", line)
        out.append(LINK.sub(lambda m: link(m["target"]), line))
    return out


def is_absolute_url(target: str) -> bool:
    return bool(re.match(r"^[a-z][a-z0-9+.-]*:", target))


def code_fence(language: str, text: str, attributes: str = "") -> str:
    """A fenced block that no backtick run inside ``text`` can close early."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    info = f"{language} {attributes}".strip()
    return f"{ticks}{info}\n{text.rstrip()}\n{ticks}"


FRONT_MATTER = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)


def split_front_matter(text: str) -> tuple[str, int]:
    """The page body without its YAML front matter (as mkdocs strips it) and its line offset."""
    match = FRONT_MATTER.match(text)
    if not match:
        return text, 0
    return text[match.end() :], text[: match.end()].count("\n")


def read_page(page: str, root: Path = ROOT) -> Page:
    """Parse the page at ``root / page`` with line numbers that match the file."""
    text = (root / page).read_text(encoding="utf-8")
    body, offset = split_front_matter(text)
    parsed = parse_page(page, body, offset, root)
    front = FRONT_MATTER.match(text)
    parsed.front_matter = front[1] if front else ""
    parsed.description, parsed.learn = (
        _front_field(parsed.front_matter, name) for name in ("description", "learn")
    )
    return parsed


def read_pages(paths: list[str], root: Path = ROOT) -> list[Page]:
    """The pages at ``paths`` (relative to the working directory), or every page in docs/."""
    if paths:
        found = [Path(p).resolve().relative_to(root).as_posix() for p in paths]
    else:
        found = sorted(p.relative_to(root).as_posix() for p in (root / "docs").rglob("*.md"))
    return [read_page(path, root) for path in found]


def _front_field(front_matter: str, name: str) -> str:
    found = re.search(rf"^{name}:\s*(.+)$", front_matter, re.MULTILINE)
    return found[1].strip() if found else ""
