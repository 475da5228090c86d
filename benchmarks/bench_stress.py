"""Stress the site's timing claims (`nox -s stress`): every page that times something, N times,
on an idle machine, beside one CPU-bound competitor per core, and pinned to a single core.

A claim about speed must hold on any machine that builds the site, busy or idle. jitkit records
every timing claim as data (`TIMING_CLAIMS`), the engine hands them back with the page's results,
so this report is exact. One row per claim: the worst and median measured ratio per condition,
what the page requires, and the margin (worst / required; for an upper bound, required / worst).
Exits non-zero if any run failed or any margin is under MIN_MARGIN.

    nox -s stress                          # 5 runs x 3 conditions
    nox -s stress -- --runs 2 --conditions idle loaded docs/course/why-compile.md
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.page.parser import read_page  # noqa: E402
from engine.run.pages import run_page  # noqa: E402
from engine.run.results import PageFailure, first_line  # noqa: E402
from engine.run.timing import measures_time  # noqa: E402

MIN_MARGIN = 1.5
CONDITIONS = ("idle", "loaded", "one-core")
SPIN = "while True: pass"


def timing_pages(selected: list[str]) -> list:
    """Pages (all, or the ones named) whose code makes a recorded timing claim: the rule the
    build and the tests use to run them alone (engine/run/timing.py)."""
    paths = selected or [p.relative_to(ROOT).as_posix() for p in sorted(ROOT.glob("docs/**/*.md"))]
    return [page for page in map(read_page, paths) if measures_time(page)]


@contextlib.contextmanager
def condition(name: str):
    """Set up one condition around the runs: competitors, or a one-core affinity the child
    process inherits."""
    competitors, affinity = [], os.sched_getaffinity(0)
    if name == "loaded":
        competitors = [
            subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(os.cpu_count() or 1)
        ]
        time.sleep(0.5)  # let them reach full speed
    elif name == "one-core":
        os.sched_setaffinity(0, {min(affinity)})
    try:
        yield
    finally:
        for process in competitors:
            process.kill()
            process.wait()
        os.sched_setaffinity(0, affinity)


def run_once(page) -> tuple[list[dict], str | None]:
    """The page's timing claims from one fresh run, and its failure message if it failed."""
    try:
        result = run_page(page)
    except PageFailure as error:
        return error.failure.timing_claims, first_line(str(error))
    claims = [claim for outcome in result.outcomes for claim in outcome.timing_claims]
    return claims, None


def measure(pages, conditions, runs) -> tuple[dict, list[str]]:
    """{(where, label): {"claim": last record, condition: [records]}}, and the failures.

    A candidate page whose first run records no claim (it only imports a module that times
    something) is dropped from the remaining runs.
    """
    table: dict = defaultdict(lambda: defaultdict(list))
    failures, pages = [], list(pages)
    for name in conditions:
        with condition(name):
            for page in list(pages):
                for run in range(1, runs + 1):
                    started = time.perf_counter()
                    claims, failure = run_once(page)
                    seconds = time.perf_counter() - started
                    status = f"FAILED: {failure}" if failure else f"{len(claims)} claim(s)"
                    print(f"{name:9} {page.path:40} run {run}/{runs}  {seconds:5.1f} s  {status}")
                    if failure:
                        failures.append(f"{name}, run {run}: {failure}")
                    elif not claims:
                        pages.remove(page)
                        break
                    for claim in claims:
                        row = table[claim["where"], claim["label"]]
                        row["claim"] = claim
                        row[name].append(claim)
    return table, failures


def report(table: dict, conditions) -> float:
    """Print one row per claim; return the smallest margin."""
    heads = " | ".join(f"{name} worst / median" for name in conditions)
    print(f"\n| claim | {heads} | required | margin |")
    print("|---" * (len(conditions) + 3) + "|")
    smallest = float("inf")
    for (where, label), row in sorted(table.items()):
        claim = row["claim"]
        cells, worst = [], float("inf")
        for name in conditions:
            runs = row[name]
            if not runs:
                cells.append("not run")
                continue
            worst_here = min(runs, key=lambda run: run["margin"])  # jitkit's TimingClaim.margin
            worst = min(worst, worst_here["margin"])
            median = statistics.median(run["measured"] for run in runs)
            cells.append(f"{worst_here['measured']:.2f}x / {median:.2f}x ({len(runs)})")
        smallest = min(smallest, worst)
        print(f"| {where} {label} | {' | '.join(cells)} | {required(claim)} | {worst:.1f}x |")
    return smallest


def required(claim: dict) -> str:
    low, high = claim["at_least"], claim["at_most"]
    if low is not None and high is not None:
        return f"{low:.3g}x..{high:.3g}x"
    return f">= {low:.3g}x" if low is not None else f"<= {high:.3g}x"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", help="pages to stress (default: every timing page)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--conditions", nargs="+", choices=CONDITIONS, default=list(CONDITIONS))
    options = parser.parse_args()
    pages = timing_pages(options.pages)
    print(f"{len(pages)} page(s) make timing claims; {options.runs} run(s) per condition\n")
    table, failures = measure(pages, options.conditions, options.runs)
    smallest = report(table, options.conditions)
    print(f"\n{len(table)} timing claim(s); smallest margin {smallest:.1f}x (goal >= {MIN_MARGIN})")
    for failure in failures:
        print(f"FAILED RUN: {failure}")
    ok = not failures and table and smallest >= MIN_MARGIN
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
