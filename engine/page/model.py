"""A parsed page (its runnable blocks, its standalone markers, what its front matter says), and
the project root (``ROOT``) and snippets folder that every layer reads pages and snippets from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

DEFAULT_TIMEOUT = 120.0
DEFAULT_MAX_OUTPUT_KB = 100  # a block's printed output, in KB (1024 bytes)

ROOT = Path(__file__).resolve().parents[2]  # engine/page/model.py -> the project
SNIPPETS = ROOT / "snippets"

Mode = Literal["raises", "warns", "asserts"]  # what a ❌ block declares


class MarkupError(ValueError):
    """A page that cannot be built as written; the message starts with ``file:line:``."""


@dataclass(frozen=True)
class Expectation:
    """What a ❌ block declares: ``raises``/``warns`` a named class, or ``asserts``."""

    mode: Mode
    name: str = ""

    def describe(self) -> str:
        return f"{self.mode} {self.name}".strip()


BADGE_KINDS = ("must-read", "extra")  # a section's badge: engine.site.labels words them


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
    device: bool = False  # its output is recorded on an accelerator too (engine.tools.accelerator)
    device_note: str | None = None  # why its claim fails on that accelerator
    file: str | None = None  # shown as this file, and saved as it in the page's temporary folder
    fact: str | None = None
    check: str | None = None  # a folded check of the block before it; its fact is this too
    index: tuple[str, str] | None = None  # a ❌ block's error index entry: (group, summary)
    cause: str | None = None  # and that entry's cause and fix, one sentence each
    fix: str | None = None
    section: str = ""  # the heading the block sits under, for the version notes
    number: int = 0  # its place among the page's blocks, from 1 (fenced code runs as
    # "<example N>": one name per block, so JAX never takes two blocks' lines for one call site)

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def is_doctest(self) -> bool:
        return self.source.lstrip().startswith(">>> ")

    def key_material(self) -> dict:
        """Everything about the block that can change its output; not its line on the page,
        which fenced code never sees (it runs as ``<example N>``), so prose edits run nothing."""
        return {
            "source": self.source,
            "snippet": self.filename if self.snippet else None,
            "bad": self.bad.describe() if self.bad else None,
            "skip": self.skip,
            "timeout": self.timeout,
            "max_output": self.max_output,
            "file": self.file,
        }


@dataclass
class Directive:
    """A standalone marker the renderer replaces, such as ``badge`` (with its kind)."""

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
    meta: dict = field(default_factory=dict)  # the front matter's fields, read once
    claims: list = field(default_factory=list)  # engine.page.claims.Claim, found once

    def pieces(self) -> list[str | Block | Directive]:
        """The page in order: the text between its nodes, each block and directive, and
        ``AFTER_TITLE`` where the line after the H1 starts; what a reader of the page walks."""
        spans = [(node.start, node.end, node) for node in (*self.blocks, *self.directives)]
        spans += [(self.title_end, self.title_end, AFTER_TITLE)] if self.title_end else []
        found, at = [], 0
        for start, end, node in sorted(spans, key=lambda span: span[:2]):
            found += [self.text[at:start], node]
            at = end
        return [*found, self.text[at:]]


AFTER_TITLE = "after-title"  # a piece of a page: where its download link and badge go


def page_slug(page_path: str | Path) -> str:
    """``docs/course/how-jit-works.md`` -> ``how_jit_works`` (its snippet folder's name)."""
    return Path(page_path).stem.replace("-", "_")


def page_stem(page_path: str) -> str:
    """``docs/course/loops.md`` -> ``course/loops``: where the page's outputs sit on the site."""
    return page_path.removeprefix("docs/").removesuffix(".md")
