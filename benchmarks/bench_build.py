"""Benchmark the build (`nox -s bench`), measured side by side in one run.

1. baseline: every page's code run once as a plain script, one fresh interpreter per page,
   one after another;
2. cold build: `mkdocs build` with the cache ignored;
3. warm rebuild: nothing changed, with MkDocs and with Zensical (`nox -s zensical`), in
   ``WARM_PAIRS`` pairs taken in turn (each builder first in half of them), each row the median
   of its builds. The two differ by a tenth of a second or so, less than one busy moment on a
   shared machine, so comparing two medians would let the noise pick the winner: Zensical fails
   its goal only when it was slower in so many pairs that equal builders would rarely be (a
   one-sided sign test, p < ``SIGN_TEST_P``);
4. prose edit: one page's prose changed (must execute nothing);
5. snippet edit: one snippet changed (must execute only its page);
6. a page's process: one small page run ``PAGE_PAIRS`` times forked from a warm process that has
   imported JAX (``engine.run.zygote``) and as many times started afresh, taking turns;
7. the test suite: `nox -s tests`, the README's test command (with `--no-suite`, the time of the
   last whole `nox -s tests` that passed here, as that session wrote it down).

Goals (issue #28, "Use both cores"): cold <= 1.0 x baseline, warm rebuild <= 3.0 s, test suite
<= 300 s (issue #51); warm Zensical no slower than warm MkDocs (issue #50); a page started
afresh >= ``FORK_GAIN`` x one forked (issue #63). Each row
is a ``Row`` made by a function in ``measure_rows``; each goal is a line in ``checks``.
Exits non-zero when a goal or an execution count is missed. The goals are for an otherwise
idle machine: beside one CPU-bound process the cold build has one core, as the bare run always
has, and its ratio to the bare run rises above 1 (1.11 on a fresh clone beside `yes`).
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import suite_time  # noqa: E402
from engine.page.parser import parse_page, read_page  # noqa: E402
from engine.run import zygote  # noqa: E402
from engine.run.child import ONE_PROCESS_VARIABLE  # noqa: E402
from engine.run.execute import PRELUDE  # noqa: E402
from engine.run.pages import child_variables, run_page  # noqa: E402

COLD_OVER_BASELINE = 1.0
WARM_SECONDS = 3.0
WARM_PAIRS = 10  # warm MkDocs and warm Zensical builds, taken in turn
SIGN_TEST_P = 0.05  # Zensical fails when equal builders lose this many pairs this rarely
SUITE_SECONDS = 300  # issue #51: the README's test command, installs included
PAGE_PAIRS = 15  # runs of a small page forked and afresh, taken in turn
# Half the worst ratio measured (5.1x with two CPU-bound processes on 2 cores; 6.1x idle, 6.4x
# on one core shared with one): it fails when pages stop forking, not when the machine is busy.
FORK_GAIN = 2.5
SMALL_PAGE = "```python\nprint(int(jnp.arange(3).sum()))\n```\n"


def pages_with_code() -> list:
    found = [
        read_page(p.relative_to(ROOT).as_posix()) for p in sorted((ROOT / "docs").rglob("*.md"))
    ]
    return [page for page in found if page.blocks]


CLOSE_FIGURES = (
    "if 'matplotlib.pyplot' in sys.modules:\n    sys.modules['matplotlib.pyplot'].close('all')"
)


def plain_script(page) -> str:
    """The page's code as one script: expected errors caught, nothing captured or rendered."""
    lines = [  # MPLBACKEND=Agg comes from child_variables()
        "import pathlib, sys, tempfile",
        "from engine.run.guard import refusing_writes",  # a ❌ block may try to write the project
        PRELUDE,
    ]
    for block in page.blocks:
        if block.skip or block.is_doctest:
            continue
        body = f"exec(compile({block.source!r}, {block.filename!r}, 'exec'))"
        if block.file:  # saved for later blocks to run, as the build does
            saved = f"pathlib.Path(tempfile.gettempdir(), {block.file!r})"
            body = f"{saved}.write_text({block.source!r})"
        body = f"with refusing_writes():\n{textwrap.indent(body, '    ')}"
        if block.bad and block.bad.mode == "raises":
            body = f"try:\n{textwrap.indent(body, '    ')}\nexcept Exception:\n    pass"
        lines += [body, CLOSE_FIGURES]
    return "\n".join(lines)


def baseline_seconds(targets: list) -> float:
    """Seconds to run each page's code as a plain script; exits naming a page whose run fails."""
    total = 0.0
    for page in targets:
        with tempfile.TemporaryDirectory() as tmp:  # the page's scratch folder, as in the build
            script = Path(tmp) / "page.py"
            script.write_text(plain_script(page), encoding="utf-8")
            started = time.perf_counter()
            done = subprocess.run(
                [sys.executable, str(script)],
                cwd=ROOT,
                env={**child_variables(), "TMPDIR": tmp},
                capture_output=True,
                text=True,
            )
            total += time.perf_counter() - started
        if done.returncode:
            sys.exit(f"the bare run of {page.path} failed:\n{done.stderr[-3000:]}")
    return total


def timed_build(fresh: bool = False) -> tuple[float, int]:
    """Seconds for `mkdocs build`, and how many pages it executed."""
    env = dict(os.environ, JITDOCS_FRESH="1" if fresh else "0", NO_MKDOCS_2_WARNING="1")
    with tempfile.TemporaryDirectory() as site:
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", site],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"build failed:\n{done.stderr[-3000:]}")
    progress = re.findall(r"jitdocs: \S+ +\d+ blocks  (\w+)", done.stdout + done.stderr)
    return seconds, progress.count("executed")


def timed_zensical_build() -> float:
    """Seconds for the Zensical build as `nox -s zensical` runs it."""
    command = [sys.executable, "-m", "engine.site.run_step", ".cache/zensical-site"]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"the Zensical build failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
    return seconds


def edited(path: Path, change):
    """Context manager: apply ``change`` to the file's text, restore it afterwards."""

    class Edit:
        def __enter__(self):
            self.original = path.read_text(encoding="utf-8")
            path.write_text(change(self.original), encoding="utf-8")

        def __exit__(self, *exc):
            path.write_text(self.original, encoding="utf-8")

    return Edit()


@dataclasses.dataclass
class Row:
    label: str
    seconds: float
    executed: int | None = None  # pages the build ran (None: not a build)
    slower: int | None = None  # warm Zensical: the pairs it lost to warm MkDocs

    def __str__(self) -> str:
        executed = "" if self.executed is None else f"  pages executed: {self.executed}"
        digits = 2 if self.seconds < 10 else 1  # a page's process takes a tenth of a second
        return f"{self.label:<60} {self.seconds:7.{digits}f} s{executed}"


def baseline_row(targets: list) -> Row:
    return Row("run all pages' code once (baseline)", baseline_seconds(targets))


def build_rows(targets: list) -> dict[str, Row]:
    """The cold build, then rebuilds with nothing changed, a prose edit, a snippet edit."""
    snippet_page = next(page for page in targets if any(b.snippet for b in page.blocks))
    snippet_block = next(b for b in snippet_page.blocks if b.snippet)
    prose_page = ROOT / targets[0].path
    rows = {"cold": Row("cold build (--fresh)", *timed_build(fresh=True))}
    timed_zensical_build()  # its pages render from the cold build's new outputs: not warm yet
    rows |= warm_rows()
    with edited(
        prose_page, lambda text: re.sub(r"\n\n", "\n\nAn edited sentence.\n\n", text, count=1)
    ):
        rows["prose"] = Row("rebuild after a prose edit", *timed_build())
    with edited(ROOT / snippet_block.filename, lambda text: text + "\n# an edit\n"):
        rows["snippet"] = Row(f"rebuild after editing {snippet_block.filename}", *timed_build())
    timed_build()  # leave the cache matching the restored files
    return rows


def taking_turns(first, second, pairs: int) -> tuple[list, list]:
    """What ``pairs`` calls of each return, ``second`` called first in every other pair, so that
    neither always runs on what the other left warm."""
    firsts, seconds = [], []
    for pair in range(pairs):
        if pair % 2:
            seconds.append(second())
        firsts.append(first())
        if not pair % 2:
            seconds.append(second())
    return firsts, seconds


def warm_rows() -> dict[str, Row]:
    """``WARM_PAIRS`` warm MkDocs and warm Zensical builds, each first in every other pair; each
    row is its builds' median (the MkDocs row counts the pages executed by any of its builds)."""
    builds, zensical = taking_turns(timed_build, timed_zensical_build, WARM_PAIRS)
    mkdocs, executed = [seconds for seconds, _ in builds], max(ran for _, ran in builds)
    median = f"median of {WARM_PAIRS}, taking turns"
    slower = sum(z > m for m, z in zip(mkdocs, zensical, strict=True))
    return {
        "warm": Row(
            f"warm rebuild, nothing changed ({median})", statistics.median(mkdocs), executed
        ),
        "zensical": Row(
            f"  the same with Zensical ({median})", statistics.median(zensical), slower=slower
        ),
    }


def timed_page_run(afresh: bool) -> float:
    """One run of a small page in a process of its own: forked from a zygote, or, with the
    variable that keeps a device's one process, started afresh."""
    os.environ.pop(ONE_PROCESS_VARIABLE, None)
    if afresh:
        os.environ[ONE_PROCESS_VARIABLE] = "1"
    try:
        started = time.perf_counter()
        result = run_page(parse_page("docs/bench/small-page.md", SMALL_PAGE))
        seconds = time.perf_counter() - started
    finally:
        os.environ.pop(ONE_PROCESS_VARIABLE, None)
    if result.outcomes[0].output.strip() != "3":
        sys.exit(f"the small page printed {result.outcomes[0].output!r}, not 3")
    return seconds


def page_process_rows() -> dict[str, Row]:
    """``PAGE_PAIRS`` runs of a small page forked and as many afresh, each first in every other
    pair, after one run that starts the zygote; each row is its runs' median. None where pages
    cannot fork (not Linux)."""
    if not zygote.available():
        return {}
    timed_page_run(afresh=False)
    forked, afresh = taking_turns(
        lambda: timed_page_run(afresh=False), lambda: timed_page_run(afresh=True), PAGE_PAIRS
    )
    median = f"median of {PAGE_PAIRS}, taking turns"
    return {
        "forked": Row(f"a page's process, forked ({median})", statistics.median(forked)),
        "afresh": Row(f"  the same, started afresh ({median})", statistics.median(afresh)),
    }


def sign_test_p(slower: int, pairs: int) -> float:
    """How often builders of equal speed would make one slower in ``slower`` or more pairs."""
    return sum(math.comb(pairs, k) for k in range(slower, pairs + 1)) / 2**pairs


def suite_row() -> Row:
    """`nox -s tests` as a contributor runs it here: its venv, and the page cache the builds
    above left warm (on a fresh clone the suite's own site build runs every page first)."""
    nox = shutil.which("nox")
    if nox is None:
        sys.exit("the suite row runs `nox -s tests`: pip install 'nox[uv]', or pass --no-suite")
    venv_bin = str(Path(sys.prefix) / "bin")  # this session's venv: not the one nox makes
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if p != venv_bin)
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"} | {"PATH": path}
    started = time.perf_counter()
    done = subprocess.run([nox, "-s", "tests"], cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"the test suite failed:\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
    return Row("test suite, `nox -s tests` (venv and page cache warm)", seconds)


def measure_rows(targets: list, suite: bool = True) -> dict[str, Row]:
    """Every row, by key, in the order printed."""
    rows = {"baseline": baseline_row(targets), **build_rows(targets), **page_process_rows()}
    if suite:
        rows["tests"] = suite_row()
    else:
        rows["last suite"] = recorded_suite_row()
    return rows


def recorded_suite_row() -> Row:
    """The time the last whole `nox -s tests` here took (``suite_time``); shown beside the
    builds, checked against no goal: it was not measured in this run."""
    record = suite_time.last(ROOT)
    if record is None:
        return Row("test suite: no whole `nox -s tests` has passed in this checkout yet", 0.0)
    label = f"test suite, the last passed `nox -s tests` ({record['commit']}, {record['finished']})"
    return Row(label, record["seconds"])


def checks(rows: dict[str, Row]) -> list[tuple[str, bool]]:
    """(what was measured against which goal, whether it is met)."""
    baseline, cold, warm = rows["baseline"], rows["cold"], rows["warm"]
    ratio = cold.seconds / baseline.seconds
    return [
        (
            f"cold / baseline = {ratio:.2f} (goal <= {COLD_OVER_BASELINE})",
            ratio <= COLD_OVER_BASELINE,
        ),
        (
            f"warm rebuild = {warm.seconds:.1f} s (goal <= {WARM_SECONDS} s)",
            warm.seconds <= WARM_SECONDS,
        ),
        zensical_check(rows["zensical"], warm),
        *fork_checks(rows),
        *suite_checks(rows),
        (f"warm / cold = {warm.seconds / cold.seconds:.3f}", True),
        (f"one-page edit / cold = {rows['snippet'].seconds / cold.seconds:.3f}", True),
        (f"warm rebuild executed {warm.executed} pages (goal 0)", warm.executed == 0),
        (
            f"prose edit executed {rows['prose'].executed} pages (goal 0)",
            rows["prose"].executed == 0,
        ),
        (
            f"snippet edit executed {rows['snippet'].executed} pages (goal 1)",
            rows["snippet"].executed == 1,
        ),
    ]


def zensical_check(zensical: Row, warm: Row) -> tuple[str, bool]:
    """Warm Zensical no slower than warm MkDocs: not slower in more pairs than chance explains."""
    p = sign_test_p(zensical.slower, WARM_PAIRS)
    return (
        f"warm Zensical / warm MkDocs = {zensical.seconds / warm.seconds:.2f}, slower in "
        f"{zensical.slower} of {WARM_PAIRS} pairs (goal: sign test p = {p:.3f} >= {SIGN_TEST_P})",
        p >= SIGN_TEST_P,
    )


def fork_checks(rows: dict[str, Row]) -> list[tuple[str, bool]]:
    if "forked" not in rows:
        return []
    gain = rows["afresh"].seconds / rows["forked"].seconds
    return [(f"page process afresh / forked = {gain:.1f} (goal >= {FORK_GAIN})", gain >= FORK_GAIN)]


def suite_checks(rows: dict[str, Row]) -> list[tuple[str, bool]]:
    if "tests" not in rows:
        return []
    seconds = rows["tests"].seconds
    return [(f"test suite = {seconds:.0f} s (goal <= {SUITE_SECONDS} s)", seconds <= SUITE_SECONDS)]


def main() -> int:
    targets = pages_with_code()
    print(f"pages with code: {len(targets)}, blocks: {sum(len(p.blocks) for p in targets)}")
    load_at_start = os.getloadavg()[0]
    rows = measure_rows(targets, suite="--no-suite" not in sys.argv[1:])
    for row in rows.values():
        print(row)
    # The cold build beats the bare run by using both cores: a busy machine leaves it fewer.
    print(
        f"1-minute load average: {load_at_start:.1f} at the start, {os.getloadavg()[0]:.1f} at "
        "the end (the goals assume an otherwise idle machine)"
    )
    results = checks(rows)
    for text, ok in results:
        print(("PASS  " if ok else "FAIL  ") + text)
    return 0 if all(ok for _, ok in results) else 1


if __name__ == "__main__":
    sys.exit(main())
