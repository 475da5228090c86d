"""What another JAX would change on the site: ``nox -s drift -- "jax==0.11.*"``.

MAINTAINERS.md ("What would a new JAX change?") says what it runs and reports; it
also exits 1 when a page timed out or crashed. A failing block is wrapped in ``try``/``except``
and the page run again (``MAX_RERUNS``) to reach later blocks.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import re
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from engine.page.model import ROOT, Block, MarkupError, Page
from engine.page.parser import read_pages
from engine.page.policy import policy
from engine.run.cache import CACHE_DIR, cache_key, entry_path, load_cached, store
from engine.run.environment import environment_fingerprint, locked_versions
from engine.run.pages import execute_pages, run_page
from engine.run.results import Failure, Kind, Outcome, PageFailure, PageResult

DRIFT_CACHE = ROOT / policy().drift_cache_dir
MAX_RERUNS = 8

# ---------------------------------------------------------------- comparing outputs

_UNIT = r"(?:ns|µs|us|ms|s|sec|secs|seconds?)"
_TIME = re.compile(rf"\b\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?\s*{_UNIT}(?![\w])")
_UNIT_WORD = re.compile(
    rf"(?<![\w.'\u2019])(?:{_UNIT}|faster|slower|fastest|slowest|speed-?up)(?![\w])"
)
_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?:e[-+]?\d+)?")
# the first number of a range that ends in a time: "between 38 and 117 ms"
_RANGE = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?=\s*(?:to|and|-|\u2013)\s*<t>)")
_RATIO = re.compile(r"\b\d+(?:\.\d+)?\s*[x\u00d7](?![\w])")
_RATIO_WORD = re.compile(r"\b(ratio|speed-?up)(\W+)\d+(?:\.\d+)?")
_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")


def mask(text: str) -> str:
    """Hide what differs from run to run: timings, speed-up ratios, memory addresses.

    Numbers followed by a time unit become ``<t>``; on a line that mentions a time unit or a
    speed comparison ("faster", "fastest runs"), every decimal number does.
    """
    lines = []
    for line in text.splitlines():
        timed = bool(_UNIT_WORD.search(line))
        line = _TIME.sub("<t>", line)
        line = _RANGE.sub("<t>", line)
        if timed:
            line = _DECIMAL.sub("<t>", line)
        line = _RATIO.sub("<ratio>", line)
        line = _RATIO_WORD.sub(r"\1\2<ratio>", line)
        line = _ADDRESS.sub("0x…", line)
        lines.append(" ".join(line.split()))  # column alignment moves with the numbers' widths
    return "\n".join(lines)


def block_text(outcome: Outcome) -> str:
    """The text a reader sees for a block: output, error, and each figure's alt text."""
    alts = [f"[figure: {figure.alt}]" for figure in outcome.figures]
    return "\n".join([outcome.output, outcome.error, *alts]).strip()


def first_difference(old: str, new: str, width: int = 96) -> tuple[str, str]:
    """The first line that differs, from each side, shortened for the report."""
    for a, b in itertools.zip_longest(old.splitlines(), new.splitlines(), fillvalue="(no line)"):
        if mask(a) != mask(b):
            return _shorten(a, width), _shorten(b, width)
    return "", ""


def _shorten(text: str, width: int) -> str:
    text = text.strip()
    return text if len(text) <= width else text[: width - 1] + "…"


# ---------------------------------------------------------------- classifying failures


@dataclass
class Finding:
    kind: str  # "contract", "fact" or "other"
    where: str
    summary: str
    index: int | None  # the block that failed, when known
    follows: bool = False  # an earlier block on the page failed first
    timing: bool = False  # a timing claim fell short (or could not measure): load can do that


@dataclass
class PageReport:
    path: str
    blocks: int
    outcomes: list[Outcome | None] = field(default_factory=list)  # None: failed or never ran
    failures: list[Finding] = field(default_factory=list)
    not_run: int = 0  # blocks after a failure that could not be reached
    compared: int = 0
    changed: list[tuple[str, str, str]] = field(default_factory=list)  # (where, pinned, now)
    note: str = ""


# The engine's failure kinds, as the report groups them.
REPORT_KIND = {Kind.CONTRACT: "contract", Kind.RAISED: "contract", Kind.ASSERTION: "fact"}


def _error_words(failure: Failure) -> str:
    """``KeyError: 'x' (at `code`)``, or ``AssertionError at `code``` for a bare assert."""
    error = failure.error_type
    if failure.error_message:
        error += f": {failure.error_message}"
    if not failure.source:
        return error
    if failure.error_type == "AssertionError":
        return error if failure.error_message else f"{error} at `{failure.source}`"
    return f"{error} (at `{failure.source}`)"


def classify(failure: Failure, page: Page) -> Finding:
    """Sort an engine failure into the report's groups by its kind (never by its wording)."""
    block = page.blocks[failure.index] if failure.index is not None else None
    kind = REPORT_KIND.get(failure.kind, "other")
    error = _error_words(failure)
    if failure.kind == Kind.ASSERTION:
        if block is not None and block.bad:
            label = "❌ asserts no longer hold"
        elif block is not None and block.fact:
            label = f"fact '{block.fact}' no longer holds"
        else:
            label = "assertion no longer holds"
        summary = f"{label}: {error}"
    elif failure.kind == Kind.RAISED:
        label = "✅ block now raises" if block is not None and block.good else "example now raises"
        summary = f"{label} {error}"
    else:
        summary = failure.summary.replace("the ❌ block ", "❌ ") + (f" {error}" if error else "")
    short = any(claim.get("margin", 1.0) < 1.0 for claim in failure.timing_claims)
    timing = failure.kind == Kind.SHARED_CPU or short
    return Finding(kind, failure.where, summary, failure.index, timing=timing)


def relax(block: Block) -> Block:
    """A version of a failing block that cannot stop the page: wrapped in try/except, or skipped
    where it cannot be (a doctest: its ``>>>`` lines are not Python)."""
    body = textwrap.indent(block.source.rstrip("\n") or "pass", "    ")
    source = f"try:\n    pass\n{body}\nexcept Exception:\n    pass\n"
    try:
        compile(source, block.filename, "exec")
    except SyntaxError:
        return dataclasses.replace(block, skip="drift: failed in this JAX", bad=None)
    return dataclasses.replace(block, source=source, bad=None, good=False)


def run_continuing(page: Page) -> tuple[PageResult | None, list[Finding], set[int]]:
    """Run the page; after a failure, relax that block and run again, to reach later blocks.

    Returns the last run's result (None if it never finished), the failures in page order and
    the indexes of the relaxed blocks (their outcomes are not the page's real output).
    """
    failures: list[Finding] = []
    relaxed: set[int] = set()
    current = page
    for _ in range(MAX_RERUNS + 1):
        try:
            return run_page(current), failures, relaxed
        except PageFailure as error:
            failure = classify(error.failure, page)
            failure.follows = bool(failures)
            failures.append(failure)
            if failure.index is None or failure.index in relaxed:
                return None, failures, relaxed
            relaxed.add(failure.index)
            blocks = list(current.blocks)
            blocks[failure.index] = relax(page.blocks[failure.index])
            current = dataclasses.replace(current, blocks=blocks)
    return None, failures, relaxed


# ---------------------------------------------------------------- the run


def load_pinned(
    page: Page, pinned_dir: Path, fingerprint: dict
) -> tuple[list[Outcome] | None, str]:
    """The pinned build's outcomes for ``page``, and a note when they are missing or stale."""
    if not entry_path(page, pinned_dir).is_file():
        return None, "no pinned output (run `nox -s docs` first)"
    pins = locked_versions()
    versions = {**fingerprint["versions"], "jax": pins["jax"], "jaxlib": pins["jaxlib"]}
    pinned = load_cached(page, cache_key(page, {**fingerprint, "versions": versions}), pinned_dir)
    if pinned is None:
        return None, "pinned output is stale (run `nox -s docs` first)"
    return pinned.outcomes, ""


def check_page(page: Page, cache_dir: Path, pinned_dir: Path, fingerprint: dict) -> PageReport:
    report = PageReport(page.path, len(page.blocks))
    relaxed: set[int] = set()
    if not page.blocks:
        return report
    key = cache_key(page, fingerprint)
    result = load_cached(page, key, cache_dir)
    if result is None:
        result, report.failures, relaxed = run_continuing(page)
        if result is not None and not report.failures:
            store(page, key, result, cache_dir)
    if result is None:
        ran = min((f.index for f in report.failures if f.index is not None), default=0)
        report.outcomes = [None] * len(page.blocks)
        report.not_run = len(page.blocks) - ran
    else:
        report.outcomes = [None if i in relaxed else o for i, o in enumerate(result.outcomes)]
    pinned, report.note = load_pinned(page, pinned_dir, fingerprint)
    if pinned is None:
        return report
    for block, old, new in zip(page.blocks, pinned, report.outcomes, strict=True):
        if new is None or new.skipped or old.skipped:
            continue
        report.compared += 1
        before, after = block_text(old), block_text(new)
        if mask(before) != mask(after):
            report.changed.append((block.where, *first_difference(before, after)))
    return report


# ---------------------------------------------------------------- the report


def _changed_rows(reports: list[PageReport]) -> list[str]:
    """One row per page with code: how many outputs changed, and what else went wrong."""
    rows = []
    width = max((len(r.path) for r in reports), default=10)
    for r in reports:
        if not r.blocks:
            continue
        extra = [f"{len(r.failures)} failed"] if r.failures else []
        extra += [f"{r.not_run} not run after a failure"] if r.not_run else []
        extra += [r.note] if r.note else []
        tail = f"  ({'; '.join(extra)})" if extra else ""
        rows.append(f"  {r.path:<{width}}  {len(r.changed):3d} / {r.compared:<3d}{tail}".rstrip())
    return rows


def render(reports: list[PageReport], jax_now: dict, pins: dict, requirement: str) -> str:
    failures = [f for r in reports for f in r.failures]
    contracts = [f for f in failures if f.kind == "contract"]
    facts = [f for f in failures if f.kind == "fact"]
    others = [f for f in failures if f.kind == "other"]
    blocks = sum(r.blocks for r in reports)
    out = [
        f"JAX drift report: jax {jax_now.get('jax')} / jaxlib {jax_now.get('jaxlib')}"
        + (f" (requested: {requirement})" if requirement else ""),
        f"compared with the pinned build: jax {pins.get('jax')} / jaxlib {pins.get('jaxlib')}",
        f"{len(reports)} pages, {blocks} blocks; timings, speed-up ratios and addresses masked",
        "",
    ]

    def section(title: str, items: list[Finding]) -> None:
        note = "  [after an earlier failure on this page]"
        rows = [f"  {f.where}  {_shorten(f.summary, 140)}{note * f.follows}" for f in items]
        out.extend([f"{title} ({len(items)})", *(rows or ["  none"]), ""])

    section("Broken ❌/✅ contracts", contracts)
    section("Broken asserted facts", facts)
    if others:
        section("Other failures (timeouts, crashes)", others)

    out.append("Output blocks whose text changed (changed / compared, per page)")
    out += _changed_rows(reports)
    for r in reports:
        for where, before, after in r.changed:
            out += [f"    {where}", f"      pinned: {before}", f"      now:    {after}"]
    out.append("")
    if contracts or facts or others:
        out.append(
            f"RESULT: {len(contracts)} contract(s) and {len(facts)} fact(s) broke"
            + (f", {len(others)} other failure(s)" if others else "")
            + f" under jax {jax_now.get('jax')}: update those pages before upgrading."
        )
    else:
        changed = sum(len(r.changed) for r in reports)
        out.append(
            f"RESULT: every contract and fact holds under jax {jax_now.get('jax')}; "
            f"{changed} output block(s) would change."
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.tools.drift", description=__doc__.split("\n")[0]
    )
    parser.add_argument("pages", nargs="*", help="pages to check (default: every page in docs/)")
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="only bring the pinned build's cache up to date (pinned venv)",
    )
    parser.add_argument("--requirement", default="", help="what was installed, for the report")
    parser.add_argument("--cache-dir", type=Path, default=DRIFT_CACHE)
    parser.add_argument("--pinned-dir", type=Path, default=CACHE_DIR)
    parser.add_argument("--report", type=Path, help="also write the report to this file")
    args = parser.parse_args(argv)
    try:
        pages = read_pages(args.pages)
    except MarkupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.baseline:
        try:
            execute_pages(pages, cache_dir=args.pinned_dir, report=print)
        except PageFailure as error:
            print(f"error: the pinned build fails, fix it first: {error}", file=sys.stderr)
            return 2
        return 0
    fingerprint, pins = environment_fingerprint(), locked_versions()
    if fingerprint["versions"].get("jax") == pins.get("jax"):
        print(
            f"note: jax {pins.get('jax')} is the pinned version; expect no drift", file=sys.stderr
        )
    reports = []
    for page in pages:
        print(f"drift: {page.path} ({len(page.blocks)} blocks)", file=sys.stderr, flush=True)
        reports.append(check_page(page, args.cache_dir, args.pinned_dir, fingerprint))
    text = render(reports, fingerprint["versions"], pins, args.requirement)
    print(text)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text + "\n", encoding="utf-8")
    return 1 if any(r.failures for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
