"""The markers a page may use, in one list (``MARKERS``), read by both the build and the Sybil
set-up, so the two cannot disagree. The parser validates every marker against it and the
conventions page's table (``<!-- marker-table -->``) is generated from it; that page says how a
marker is written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.page.model import BADGE_KINDS, DEFAULT_MAX_OUTPUT_KB, DEFAULT_TIMEOUT, Expectation


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


ERROR_GROUPS = (  # the error index's groups, in its order: what the reader was doing
    "control flow",
    "arguments and static arguments",
    "arrays, shapes and indexing",
    "classes and pytrees",
    "caching, AOT and export",
    "debugging tools",
    "devices, memory and callbacks",
)


def _index_entry(args: str) -> tuple[str, str]:
    group, _, summary = (part.strip() for part in args.partition("|"))
    if group not in ERROR_GROUPS or not summary:
        groups = ", ".join(ERROR_GROUPS)
        raise ValueError(f"needs 'GROUP | plain summary', GROUP one of: {groups}; got '{args}'")
    return group, summary


def _sentence(args: str) -> str:
    if not args.endswith(".") or re.search(r"[.!?]\s+[A-Z]", args):
        raise ValueError(f"needs one sentence, ending with a full stop; got '{args}'")
    return args


def _file_name(args: str) -> str:
    if not re.fullmatch(r"\w[\w.-]*\.py", args):
        raise ValueError(f"needs a Python file's name like 'app.py' (no folders), got '{args}'")
    return args


def _one_of(*choices: str):
    def parse(args: str) -> str:
        if args not in choices:
            raise ValueError(f"must be one of {', '.join(choices)}, got '{args}'")
        return args

    return parse


@dataclass(frozen=True)
class MarkerSpec:
    """One marker: its uses (how it is written up to a colon, what it means; one table row
    each), how its argument parses, and whether it sets the ``Block`` field of its name
    (dashes as underscores) on the next block, or stands for itself."""

    uses: tuple[tuple[str, str], ...]
    parse: Callable[[str], object] = _flag
    block: bool = False

    @property
    def name(self) -> str:
        return self.uses[0][0].split(":")[0]

    @property
    def applies_to(self) -> str:
        """In the words of the conventions page's table."""
        return "the next block" if self.block else "itself"


def _standalone(written: str, meaning: str, parse: Callable[[str], object] = _flag):
    return MarkerSpec(((written, meaning),), parse)


def _block(written: str, meaning: str, parse: Callable[[str], object] = _flag):
    return MarkerSpec(((written, meaning),), parse, block=True)


_STATEMENT = _text("the statement its asserts prove")
SPECS = (
    MarkerSpec(
        (
            ("bad: raises ErrorName", "❌ block that must raise exactly this exception class."),
            ("bad: warns WarningName", "❌ block that must emit this warning category."),
            ("bad: asserts", "❌ block that runs, and whose `assert`s prove the wrong behaviour."),
        ),
        _expectation,
        block=True,
    ),
    _block("good", "✅ block; every ❌ block is directly followed by one. Must run clean."),
    _block(
        "skip: reason",
        "Shown but never run (the reason is printed instead of output).",
        _text("a reason: <!-- skip: why this block cannot run -->"),
    ),
    _block(
        "timeout: SECONDS",
        f"Lets a slow block run longer than the default {DEFAULT_TIMEOUT:g} s.",
        _seconds,
    ),
    _block(
        "max-output: KB",
        "Lets a block print more than the default "
        f"{DEFAULT_MAX_OUTPUT_KB} KB; past its limit the build fails.",
        _kilobytes,
    ),
    _block("collapse-code", "Folds the block's code; its output stays visible."),
    _block(
        "device-note: sentence",
        "On a claim's first block: why the claim does not hold on the recorded accelerator; "
        "shown with what failed there. Required on every such claim, refused on one that holds.",
        _sentence,
    ),
    _block(
        "device",
        "Its output is also recorded on a TPU (`nox -s accelerator`, into "
        "`docs/data/accelerator.json`) and shown beside this build's; under a timing, with what "
        "an empty jitted call took on the recording machine.",
    ),
    _block(
        "file: NAME.py",
        "Shows the block as the file `NAME.py` and saves it under that name in the "
        "page's temporary folder (`tempfile.gettempdir()`) for later blocks to run; "
        "it runs nothing itself.",
        _file_name,
    ),
    _block(
        "fact: statement",
        "The block's `assert`s prove this statement; listed in the version notes.",
        _STATEMENT,
    ),
    _block(
        "check: statement",
        "A folded check of the block above it: runs right after it, in the same "
        "namespace, on every build; its `assert`s prove the statement (a fact).",
        _STATEMENT,
    ),
    _block(
        "index: GROUP | summary",
        "On a ❌ `raises` block of JAX's error: it teaches the error index entry of that error, "
        f"listed under GROUP ({', '.join(ERROR_GROUPS)}) and headed by the summary; with "
        "`cause` and `fix`.",
        _index_entry,
    ),
    _block("cause: sentence", "The error's cause in one sentence, for its index entry.", _sentence),
    _block("fix: sentence", "The error's fix in one sentence, for its index entry.", _sentence),
    _standalone(
        "snippet: NAME",
        "Runs and shows `snippets/<page_slug>/NAME.py` here.",
        _text("a file stem like 'compile_chart'"),
    ),
    MarkerSpec(
        tuple((f"badge: {kind}", "A badge, on the line after a heading.") for kind in BADGE_KINDS),
        _one_of(*sorted(BADGE_KINDS)),
    ),
    _standalone("version-notes", "Replaced by the table of every contract and fact on the site."),
    MarkerSpec(
        (
            ("install: pip", "Replaced by set-up commands with pip, pinned from `uv.lock`."),
            ("install: uv", "Replaced by the same set-up commands with uv."),
            ("install: versions", "Replaced by a table of the package versions in `uv.lock`."),
            ("install: tpu", "Replaced by pip's command for the pinned JAX with its TPU extra."),
            ("install: cuda12", "Replaced by the same for an NVIDIA GPU (CUDA 12)."),
        ),
        _one_of("pip", "uv", "versions", "tpu", "cuda12"),
    ),
    _standalone("marker-table", "Replaced by this table, generated from the engine's marker list."),
    _standalone(
        "course-table",
        "Replaced by a table of the nav's Course pages, each with its front "
        "matter's `learn:` line (the home page's *What you will learn*).",
    ),
    _standalone(
        "practice-counts",
        "Replaced by how many exercises, practice-track lessons and quiz questions "
        "the practice pages hold (counted, never typed).",
    ),
    _standalone(
        "error-index",
        "Replaced by one entry per error the ❌ `raises` blocks of the teaching pages "
        "(course, *Beyond the basics*, track, practice) raise, with the message this build "
        "captured, the smallest example and every place that raises it (generated, never typed).",
    ),
    _standalone(
        "questions",
        "Replaced by every question of `docs/data/questions.toml`, each linked to the section "
        "that answers it (the build fails on a link to a section the site does not have).",
    ),
)
MARKERS = {spec.name: spec for spec in SPECS}
