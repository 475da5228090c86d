"""Run one block in a page's namespace and enforce what its markers declare: the build's child
process and the tests (Sybil) both run blocks here, so an example behaves alike in both."""

from __future__ import annotations

import contextlib
import doctest
import io
import logging
import signal
import sys
import tempfile
import threading
import time
import traceback
import warnings
from pathlib import Path

from engine.page.model import ROOT, Block
from engine.run import raiser, terminal
from engine.run.figures import MissingAltText, collect_figures
from engine.run.guard import refusing_writes
from engine.run.results import Failure, Kind, Outcome, PageFailure, first_line

# Names every example can use without importing them; the conventions page lists them.
PRELUDE = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
"""

TRACEBACK_FRAMES = 4
CLAIM_FIELDS = ("label", "measured", "at_least", "at_most", "margin")  # of jitkit's TimingClaim
TIMEOUT_ADVICE = " (raise the limit with <!-- timeout: SECONDS --> if it is meant to be slow)"
OUTPUT_ADVICE = (
    "; print less (a summary, a shape, a slice), or raise the limit with <!-- max-output: KB -->"
    " if a reader really needs it all"
)


def fence_filename(block: Block) -> str:
    """The name fenced code runs under: ``<example N>``, N its place on the page."""
    return f"<example {block.number}>"


class BlockTimeout(BaseException):
    """Raised in a block that ran past its time limit; a BaseException so user code can't eat it."""


def new_namespace() -> dict:
    namespace: dict = {"__name__": "__main__"}
    exec(compile(PRELUDE, "<prelude>", "exec"), namespace)
    return namespace


def execute_block(block: Block, namespace: dict, project: Path = ROOT) -> Outcome:
    """Run ``block`` in ``namespace``; raise PageFailure if it breaks its contract. Python-level
    writes under ``project`` are refused while it runs (``engine.run.guard``)."""
    if block.skip:
        return Outcome(skipped=True)
    buffer = terminal.CappedOutput(block.max_output * 1024)
    drain_timing_claims(block)  # leftovers from a block that failed before its claims were read
    running = terminal.children()  # and what they start later is theirs (a browser under test)
    started = time.perf_counter()
    try:
        try:
            with refusing_writes(project):
                error, warned = _run_captured(block, namespace, buffer)
        finally:
            stopped = terminal.stop_all(lambda: terminal.live(skip=running))
        return _outcome(block, buffer, error, warned, stopped, time.perf_counter() - started)
    except PageFailure as error:
        if not stopped:
            raise
        error.failure.message += "\n" + leftover_message(block.where, stopped)  # what else it left
        raise PageFailure(error.failure) from error.__cause__


def _outcome(
    block: Block,
    buffer: terminal.CappedOutput,
    error: BaseException | None,
    warned: list[str],
    stopped: list[str],
    seconds: float,
) -> Outcome:
    if buffer.overflowed:
        summary = (
            f"the block printed {terminal.size_text(buffer.size)}, more than its limit of "
            f"{block.max_output} KB"
        )
        raise _failure(block, Kind.OUTPUT, summary, advice=OUTPUT_ADVICE)
    output = terminal.steady(terminal.clean(buffer.getvalue()))
    outcome = Outcome(output=output, seconds=seconds, stopped=stopped)
    outcome.timing_claims = drain_timing_claims(block)
    if type(error).__name__ == "SharedCPUError":  # jitkit's: a claim where the CPU is shared
        summary = "a timing claim ran beside other work:"
        raise _failure(block, Kind.SHARED_CPU, summary, error=error)
    try:
        _check_contract(block, error, warned, outcome)
    except PageFailure as error:
        error.failure.timing_claims = outcome.timing_claims  # nox -s stress counts failed runs
        raise
    try:
        outcome.figures = collect_figures(block)
    except MissingAltText as missing:
        summary = f"a figure has no alt text (made at {missing})"
        advice = '; describe what it shows with fig.set_label("...") before the block ends'
        raise _failure(block, Kind.FIGURE, summary, advice=advice) from None
    return outcome


def leftover_message(where: str, stopped: list[str]) -> str:
    """What the build says (a warning; an error under --strict) about a block's leftovers."""
    count = f"{len(stopped)} process{'es' if len(stopped) != 1 else ''}"
    them = "they were" if len(stopped) != 1 else "it was"
    return (
        f"{where} left {count} running; {them} stopped ({', '.join(stopped)}). "
        "A block must wait for the processes it starts (subprocess.run, or Popen.wait())."
    )


def _run_captured(
    block: Block, namespace: dict, buffer: terminal.CappedOutput
) -> tuple[BaseException | None, list[str]]:
    """Run the code with stdout, stderr and warnings going to ``buffer``; what it raised (or
    None), and the names of the warning categories it emitted."""
    seen_warnings: list[str] = []

    def show_warning(message, category, filename, lineno, file=None, line=None):
        seen_warnings.append(category.__name__)
        buffer.write(f"{category.__name__}: {message}\n")

    with (
        contextlib.redirect_stdout(buffer),
        contextlib.redirect_stderr(buffer),
        _log_shown(buffer),
        warnings.catch_warnings(),
        _time_limit(block),
        _watched(block) as raised,
    ):
        warnings.simplefilter("always")
        warnings.showwarning = show_warning
        try:
            _run_code(block, namespace)
            if (jax := sys.modules.get("jax")) is not None:
                jax.effects_barrier()  # so jax.debug.print's output lands in this block
        except BlockTimeout as error:
            summary = f"block did not finish within {block.timeout:g} s"
            raise _failure(block, Kind.TIMEOUT, summary, advice=TIMEOUT_ADVICE) from error
        except (Exception, SystemExit) as error:  # sys.exit() ends the block, not the page
            raiser.remember(error, raised)
            return error, seen_warnings
    return None, seen_warnings


def _watched(block: Block):
    """Which module raises a ❌ block's error (``engine.run.raiser``); nothing else is watched."""
    if "jax" not in sys.modules or not (block.bad and block.bad.mode == "raises"):
        return contextlib.nullcontext({})
    return raiser.watched({fence_filename(block), block.filename})


@contextlib.contextmanager
def _log_shown(buffer: terminal.CappedOutput):
    """Logged warnings (``jax_log_compiles``...) in the block's output, as a terminal shows them,
    under pytest too; a logger that does not propagate (jitkit's ``count_compiles``) stays out."""
    handler = logging.StreamHandler(buffer)
    handler.setLevel(logging.WARNING)
    logging.getLogger().addHandler(handler)
    try:
        yield
    finally:
        logging.getLogger().removeHandler(handler)


def _run_code(block: Block, namespace: dict) -> None:
    if block.file:  # saved for later blocks to run, as a reader saves it beside their code
        Path(tempfile.gettempdir(), block.file).write_text(block.source, encoding="utf-8")
    elif block.is_doctest:
        _run_doctest(block, namespace)
    else:
        # Fenced code runs as "<example N>" (Block.number says why one name per block), lines
        # counted from the block's first line, so outputs (JAX's "error occurred while tracing
        # ... at <example 3>:2") don't change when prose above the block moves it; failure
        # messages translate those lines back to the page (see _frames).
        filename = block.filename if block.snippet else fence_filename(block)
        exec(compile(block.source, filename, "exec"), namespace)


def _run_doctest(block: Block, namespace: dict) -> None:
    test = doctest.DocTestParser().get_doctest(
        block.source, namespace, block.where, block.filename, block.first_line - 1
    )
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=report.write, clear_globs=False)
    if runner.failures:
        raise AssertionError("doctest output differs:\n" + report.getvalue())


@contextlib.contextmanager
def _time_limit(block: Block):
    if threading.current_thread() is not threading.main_thread():
        yield  # signals only work in the main thread; the build's parent process still kills
        return

    def on_alarm(signum, frame):
        raise BlockTimeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, block.timeout)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _check_contract(
    block: Block, error: BaseException | None, warned: list[str], outcome: Outcome
) -> None:
    expect = block.bad
    if error is not None and (expect is None or expect.mode != "raises"):
        raise _unexpected(block, error)
    if expect is None or expect.mode == "asserts":
        return
    if expect.mode == "warns":
        if expect.name not in warned:
            got = f"it emitted {', '.join(warned) or 'no warning'}"
            summary = f"the ❌ block should warn {expect.name}, but {got}"
            raise _failure(block, Kind.CONTRACT, summary)
        return
    if error is None:
        summary = f"the ❌ block should raise {expect.name}, but it ran without error"
        raise _failure(block, Kind.CONTRACT, summary)
    if type(error).__name__ != expect.name.rsplit(".", 1)[-1]:
        summary = f"the ❌ block should raise {expect.name}, but it raised"
        raise _failure(block, Kind.CONTRACT, summary, error=error)
    outcome.error_type = type(error).__name__
    outcome.error_message = terminal.steady(terminal.clean(str(error).strip()))
    outcome.raised_in = raiser.raised_in(error)


def _unexpected(block: Block, error: BaseException) -> PageFailure:
    if isinstance(error, AssertionError) and block.bad and block.bad.mode == "asserts":
        summary = "the ❌ block's assertions do not hold:"
    elif isinstance(error, AssertionError) and block.fact:
        summary = f"the fact '{block.fact}' does not hold:"
    else:
        summary = f"unexpected exception in {block.filename}:"
    kind = Kind.ASSERTION if isinstance(error, AssertionError) else Kind.RAISED
    return _failure(block, kind, summary, error=error)


def _failure(
    block: Block, kind: str, summary: str, *, error: BaseException | None = None, advice: str = ""
) -> PageFailure:
    """The typed failure of ``block``, with the message people read (page line first)."""
    failure = Failure(kind, block.page, block.line, summary=summary.rstrip(":"))
    failure.message = f"{block.where}: {summary}{advice}"
    if error is not None:
        shown = _on_page(block, error)
        failure.error_type, failure.error_message = type(error).__name__, first_line(str(shown))
        frames, failure.source = _frames(block, error, shown)
        failure.message += f" {failure.error_type}: {failure.error_message}\n{frames}"
    return PageFailure(failure)


def drain_timing_claims(block: Block) -> list[dict]:
    """Take the timing claims jitkit recorded while ``block`` ran, located on the page."""
    jitkit = sys.modules.get("jitkit")
    if jitkit is None or not getattr(jitkit, "TIMING_CLAIMS", None):
        return []
    claims, jitkit.TIMING_CLAIMS[:] = list(jitkit.TIMING_CLAIMS), []
    return [_timing_claim_record(block, claim) for claim in claims]


def _timing_claim_record(block: Block, claim) -> dict:
    if claim.filename == fence_filename(block):
        where = f"{block.filename}:{block.first_line + claim.line - 1}"
    else:
        path = Path(claim.filename).resolve()
        name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else claim.filename
        where = f"{name}:{claim.line}"
    measured = {name: getattr(claim, name) for name in CLAIM_FIELDS}
    return {**measured, "where": where, "page": block.filename}


def _on_page(block: Block, error: BaseException) -> BaseException:
    """A SyntaxError in fenced code located on the page instead of at ``<example N>``."""
    on_fence = isinstance(error, SyntaxError) and error.filename == fence_filename(block)
    if not (on_fence and error.lineno):
        return error
    line = block.first_line + error.lineno - 1
    end = block.first_line + error.end_lineno - 1 if error.end_lineno else None
    details = (block.filename, line, error.offset, error.text, end, error.end_offset)
    return type(error)(error.msg, details)


def _frames(block: Block, error: BaseException, shown: BaseException) -> tuple[str, str]:
    """The traceback's last few frames, without the engine's own, with page line numbers, then
    ``shown`` (the error as the page locates it); and the source line of the last frame."""
    frames = []
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename.startswith(_ENGINE_DIR):
            continue
        if frame.filename == fence_filename(block):
            line = block.first_line + frame.lineno - 1
            source = block.source.splitlines()[frame.lineno - 1]
            frame = traceback.FrameSummary(block.filename, line, frame.name, line=source)
        frames.append(frame)
    lines = ["Traceback (most recent call last):\n"]
    lines += traceback.format_list(frames[-TRACEBACK_FRAMES:])
    lines += traceback.format_exception_only(type(shown), shown)
    source = (frames[-1].line or "").strip() if frames else ""
    return "".join(lines).rstrip(), source


_ENGINE_DIR = str(Path(__file__).resolve().parents[1])  # engine/, every layer
