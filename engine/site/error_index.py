"""The error index: every error JAX raised in a ❌ ``raises`` block of the teaching pages, read
from this build's results. One entry per JAX exception class, per status code for
``JaxRuntimeError`` (``RESOURCE_EXHAUSTED``, ``INVALID_ARGUMENT``: it carries every failure XLA
reports), and per distinct message for Python's generic classes (variable parts shown as ``…``);
one ❌ block of each entry teaches it with its ``index``, ``cause`` and ``fix`` markers.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import functools
import hashlib
import html
import posixpath
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.page.claims import by_block
from engine.page.markers import ERROR_GROUPS
from engine.page.model import Block, MarkupError, Page
from engine.page.policy import policy
from engine.page.syntax import code_fence
from engine.run.execute import PRELUDE
from engine.run.results import Outcome, PageResult, first_line
from engine.run.terminal import strip_ansi
from engine.site import version_notes
from engine.site.labels import indent

INDEX_PAGE = "docs/reference/error-index.md"
GAP = "…"  # what a variable part of a message shows as
IN = "\N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}"  # "page, then section"
TEACHING = ("index", "cause", "fix")  # the markers that teach an entry, on one of its ❌ blocks
# JAX's class for every failure XLA reports, its message opening with XLA's status code: one
# entry per code, as an out-of-memory error and a misspelt compiler option share nothing else.
BY_STATUS = ("JaxRuntimeError",)
_STATUS = re.compile(r"([A-Z][A-Z_]+): ")

# Variable parts of a message, in the order they are replaced (re.sub templates); each becomes
# GAP (keeping the words around it that say what it is).
_VARIABLE = [
    (re.compile(r"<example \d+>(?::\d+)?"), f"<example {GAP}>"),  # a place on a page
    (re.compile(r"\b(function) [A-Za-z_][\w.]*(?= at )"), rf"\1 {GAP}"),  # the reader's name
    (re.compile(r"<(function|bound method|class|module) [^<>]*>"), rf"<\1 {GAP}>"),
    (re.compile(r"(?<![\w.])'(?:\([^)]*\)|\[[^\]]*\])'"), f"'{GAP}'"),  # a quoted tuple
    (re.compile(r"\b((?:u?int|float|bfloat|complex)\d+|bool)\[[^\]]+\]"), rf"\1[{GAP}]"),
    (re.compile(r"(?<![\w\]])\[[^\[\]]*\]"), f"[{GAP}]"),  # an array or list value
    (re.compile(r"\((?:\s*-?\d+\s*,)+\s*-?\d*\s*\)"), f"({GAP})"),  # a shape tuple
    (re.compile(r"@\d+|\b0x[0-9a-fA-F]+\b"), f"@{GAP}"),  # an object id or address
    (re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])"), GAP),  # a number
]
_TOKEN = re.compile(r"\w+|\s+|.")


class Case(NamedTuple):
    """One ❌ block that raises, with what this build captured."""

    page: str  # docs/... path
    page_title: str
    block: Block
    good: Block  # the ✅ after it
    outcome: Outcome
    anchor: str  # the pair's id on its page: contract-N
    claim_id: str  # its id in the compatibility data

    @property
    def first_line(self) -> str:
        return first_line(strip_ansi(self.outcome.error_message))

    @property
    def teaches(self) -> bool:
        return any(getattr(self.block, name) for name in TEACHING)


class Entry(NamedTuple):
    error_type: str
    line: str  # the first line of the message, variable parts as GAP
    anchor: str
    cases: list[Case]

    @property
    def teacher(self) -> Case:
        """The ❌ block whose markers say what the entry is (``check`` makes sure of one)."""
        return next(case for case in self.cases if case.teaches)

    @property
    def group(self) -> str:
        return self.teacher.block.index[0]

    @property
    def smallest(self) -> Case:
        """The example to show: one that runs on its own (defines every name it uses), then the
        fewest lines, then the first in page order."""
        return min(self.cases, key=lambda c: (not _standalone(c.block), _length(c.block)))


def indexed(path: str) -> bool:
    """Pages whose ❌ blocks the index lists: the ones that teach (not the site's own docs)."""
    rules = policy()
    teaching = (*rules.noted_pages, *rules.lesson_pages, *rules.exercise_pages, *rules.quiz_pages)
    return path.startswith(teaching)


def cases(pages: dict[str, Page], results: dict[str, PageResult]) -> list[Case]:
    """Every ❌ ``raises`` block of the indexed pages that JAX's error stopped, in page order."""
    found = []
    for path in sorted(pages):
        if not indexed(path) or path not in results:
            continue
        page, outcomes = pages[path], results[path].outcomes
        ids = by_block(page)
        for index, block in enumerate(page.blocks):
            # raised by JAX's code: ``engine.run.raiser`` records which module raised
            by_jax = outcomes[index].raised_in.split(".")[0] in ("jax", "jaxlib")
            if not (block.bad and block.bad.mode == "raises" and by_jax):
                continue
            claim, good = ids[(index, "contract")], page.blocks[index + 1]
            found.append(
                Case(path, page.title, block, good, outcomes[index], claim.anchor, claim.id)
            )
    return found


def normalise(line: str) -> str:
    """A message's first line with its variable parts (see ``_VARIABLE``) shown as GAP."""
    for pattern, replace in _VARIABLE:
        line = pattern.sub(replace, line)
    return line


def generic(error_type: str) -> bool:
    """A Python built-in class, which many unrelated errors share: entries by message."""
    return isinstance(getattr(builtins, error_type, None), type)


def group_key(case: Case) -> tuple[str, str]:
    """What one entry covers: the class; for a class in ``BY_STATUS``, its message's status
    code in words; for a generic class, its message's first sentence with every bracketed,
    quoted or variable part left out."""
    if case.outcome.error_type in BY_STATUS:
        status = _STATUS.match(case.first_line)
        return case.outcome.error_type, status[1].lower().replace("_", " ") if status else ""
    if not generic(case.outcome.error_type):
        return case.outcome.error_type, ""
    sentence = re.split(r"(?<=[.:])\s", normalise(case.first_line), maxsplit=1)[0]
    for pattern in (r"<[^<>]*>", r"\([^()]*\)", r"\[[^\[\]]*\]", r"'[^']*'", GAP):
        for _ in range(3):  # nested brackets, innermost first
            sentence = re.sub(pattern, " ", sentence)
    return case.outcome.error_type, " ".join(re.findall(r"\w+", sentence.lower()))


def merged(lines: list[str]) -> str:
    """One line for all of an entry's cases: the parts where they differ become GAP."""
    tokens = _TOKEN.findall(lines[0])
    for other in lines[1:]:
        theirs = _TOKEN.findall(other)
        matcher = difflib.SequenceMatcher(None, tokens, theirs, autojunk=False)
        kept = []
        for op, i1, i2, _, _ in matcher.get_opcodes():
            kept += tokens[i1:i2] if op == "equal" else [GAP]
        tokens = kept
    return re.sub(rf"{GAP}(?:\s*{GAP})+", GAP, "".join(tokens))


def entries(found: list[Case]) -> list[Entry]:
    """The index: JAX's own classes first, then the generic ones, each sorted by name (the
    groups are ordered when the page is rendered)."""
    groups: dict[tuple[str, str], list[Case]] = {}
    for case in found:
        groups.setdefault(group_key(case), []).append(case)
    made, used = [], set()
    for (error_type, key), members in groups.items():
        line = merged([normalise(case.first_line) for case in members])
        made.append(Entry(error_type, line, _anchor(error_type, key, used), members))
    return sorted(made, key=lambda e: (generic(e.error_type), e.error_type.lower(), e.line.lower()))


def check(pages: dict[str, Page], index: list[Entry]) -> None:
    """Each entry is taught by exactly one of its ❌ blocks, with all three markers; no other
    block carries them. Raises MarkupError listing every problem with its file and line."""
    problems = []
    listed = {(c.page, c.block.line) for entry in index for c in entry.cases}
    for block in (b for page in pages.values() for b in page.blocks):
        given = [name for name in TEACHING if getattr(block, name)]
        if given and len(given) < len(TEACHING):
            missing = ", ".join(f"<!-- {name}: ... -->" for name in TEACHING if name not in given)
            problems.append(f"{block.where}: an error index entry also needs {missing}")
        elif given and (block.page, block.line) not in listed:
            problems.append(
                f"{block.where}: markers {', '.join(TEACHING)} are for a ❌ block of a teaching "
                "page whose error JAX raised (this one's is not in the error index)"
            )
    for entry in index:
        teachers = [c.block.where for c in entry.cases if c.teaches]
        if len(teachers) != 1:
            places = ", ".join(c.block.where for c in entry.cases)
            problems.append(
                f"{entry.cases[0].block.where}: the error index entry {entry.error_type}: "
                f"{entry.line!r} needs its group, summary, cause and fix given once, on one of "
                f"its ❌ blocks ({places}) with <!-- index: GROUP | summary -->, <!-- cause: "
                f"... --> and <!-- fix: ... -->; {len(teachers)} blocks give them"
            )
    if problems:
        raise MarkupError("\n".join(problems))


def _anchor(error_type: str, key: str, used: set[str]) -> str:
    """``error-<class>``, then the words of its key: a generic class's first words of its
    message, a status code (``error-jaxruntimeerror-resource-exhausted``)."""
    slug = "-".join(["error", error_type.lower(), *key.split()[:6]])
    if slug in used:
        slug += "-" + hashlib.sha256(key.encode()).hexdigest()[:6]
    used.add(slug)
    return slug


def by_block_of(index: list[Entry]) -> dict[tuple[str, int], str]:
    """Each indexed ❌ block's entry anchor, by (page, the block's line)."""
    return {(case.page, case.block.line): entry.anchor for entry in index for case in entry.cases}


@dataclass
class Index:
    """A build's error index, for the renderer: entries, and links where the site has the pages."""

    entries: list[Entry] = field(default_factory=list)
    links: dict[tuple[str, int], str] = field(default_factory=dict)  # ❌ block -> its entry
    notes_page: str = ""

    @classmethod
    def of(cls, pages: dict[str, Page], results: dict[str, PageResult]) -> Index:
        found = entries(cases(pages, results))
        check({path: page for path, page in pages.items() if path in results}, found)
        links = by_block_of(found) if INDEX_PAGE in pages else {}
        notes = version_notes.NOTES_PAGE if version_notes.NOTES_PAGE in pages else ""
        return cls(found, links, notes)

    def link(self, block: Block) -> list[str]:
        """The line under a ❌ block's error, a link to its entry (none if it has none)."""
        anchor = self.links.get((block.page, block.line))
        if not anchor:
            return []
        target = posixpath.relpath(INDEX_PAGE, posixpath.dirname(block.page))
        text = "Other ways to get this error, in the error index"
        return [f"[{text}]({target}#{anchor}){{ .jd-error-link }}"]

    def render(self, page_path: str, data: dict | None) -> str:
        """The page's entries, with each one's verdicts from the compatibility data."""
        status = functools.partial(version_notes.status, data)
        return render(self.entries, page_path, status, self.notes_page)


# ---------------------------------------------------------------- the page


def render(index: list[Entry], page_path: str, status, notes_page: str = "") -> str:
    """Every entry's Markdown, under the group of what the reader was doing. ``status(claim_ids)``
    says on which JAX releases the ❌ blocks hold (the version notes' words); ``notes_page`` is
    linked for the details, if given."""
    if not index:
        return "No ❌ example on the site raises an error of JAX's yet.\n"
    here = posixpath.dirname(page_path)
    notes = f"; [version notes]({posixpath.relpath(notes_page, here)})" if notes_page else ""
    count = f"{len(index)} errors, raised by {sum(len(e.cases) for e in index)} ❌ examples."
    parts = [count]
    for group in ERROR_GROUPS:
        members = [entry for entry in index if entry.group == group]
        if members:
            parts.append(f"## {group[0].upper()}{group[1:]}")
            parts += [_entry(entry, here, notes, status) for entry in members]
    return "\n\n".join(parts) + "\n"


def _entry(entry: Entry, here: str, notes: str, status) -> str:
    teacher, example = entry.teacher, entry.smallest
    summary = teacher.block.index[1]
    message = f"{entry.error_type}: {teacher.first_line}"
    said = f'<p class="jd-error-message"><code>{html.escape(message)}</code></p>'
    # The message opens the entry's text: the site's search weighs its first words as a heading's,
    # so a pasted message finds its entry (docs/assets/javascripts/workers/jitdocs-search.js).
    label = f"{entry.error_type}: {summary}".replace("`", "").replace('"', "'")
    attributes = f'{{ #{entry.anchor} data-toc-label="{label}" }}'
    heading = f"### {entry.error_type}: {summary} {attributes}"
    cause = f"**Cause**: {teacher.block.cause}\n{{: .jd-cause }}"
    fix = f"**Fix**: {teacher.block.fix}\n{{: .jd-fix }}"
    taught = f"**Taught in**: {_link(teacher, here, _place(teacher))}"
    places = "\n".join(f"- {_link(case, here, _place(case))}" for case in entry.cases)
    noun = "the ❌ example" if len(entry.cases) == 1 else f"the {len(entry.cases)} ❌ examples"
    claim_ids = [case.claim_id for case in entry.cases]
    checked = f"**JAX releases**: {status(claim_ids)} ({noun}{notes})."
    raised = f"**Raised on this site** at:\n\n{places}"
    # Search indexes the entry by what names the error (message, cause, fix); the example and
    # the places repeat what the pages say. A <section>, as Material's search ends an exclusion
    # at the first closing tag of the same name (a <div> holds <div>s).
    more = "\n\n".join([_folded(example), raised, checked])
    more = f'<section class="jd-error-more" data-search-exclude markdown>\n\n{more}\n\n</section>'
    return "\n\n".join([heading, said, cause, fix, taught, more])


def _folded(case: Case) -> str:
    """The smallest ❌, what it raised, and its ✅, in a closed box."""
    title = f"The smallest example, from {_place(case)}".replace('"', "'")
    error = strip_ansi(case.outcome.error)
    body = "\n\n".join(
        [
            "❌ Don't:",
            code_fence("python", case.block.source),
            code_fence("text", error, f'title="Raises {case.outcome.error_type}"'),
            "✅ Do instead:",
            code_fence("python", case.good.source),
        ]
    )
    return f'??? example "{title}"\n\n{indent(body)}'


def _link(case: Case, here: str, text: str) -> str:
    """A link to the ❌ block; ``text`` is Markdown from the page (a heading)."""
    text = text.replace("[", "\\[").replace("]", "\\]")
    return f"[{text}]({posixpath.relpath(case.page, here)}#{case.anchor})"


def _place(case: Case) -> str:
    section = f" {IN} {case.block.section}" if case.block.section != case.page_title else ""
    return f"{case.page_title}{section}"


def _length(block: Block) -> int:
    return sum(1 for line in block.source.splitlines() if line.strip())


def _standalone(block: Block) -> bool:
    """The block defines or imports every name it uses, besides builtins and the prelude."""
    try:
        tree = ast.parse(PRELUDE + block.source)
    except SyntaxError:
        return False
    stored, loaded = set(dir(builtins)), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else stored).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            stored.add(node.name)
        elif isinstance(node, ast.arg):
            stored.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            stored.update((a.asname or a.name).split(".")[0] for a in node.names)
    return loaded <= stored
