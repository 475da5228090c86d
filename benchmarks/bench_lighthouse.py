"""Lighthouse scores of the built site (`nox -s lighthouse`): a benchmark, not a test.

Builds the site into a temporary folder, serves it on 127.0.0.1 and runs Lighthouse 12 (from
.cache/lighthouse, installed by the nox session) with Debian's chromium on every page of the
site (or on the pages named), with the desktop and the mobile preset. It prints the four
category scores, worst page first, and the audits that cost points, and exits with status 1
when a page misses the goal: 100 in every category on desktop; on mobile, performance >= 95
and accessibility 100. Lighthouse runs offline; scores vary from run to run with the machine's
load, so each score is the median of `--runs` runs (default 3).

    python benchmarks/bench_lighthouse.py [--runs N] [--site DIR] [--preset P] [PAGE ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))
from find_browser import ENABLE_HINT
from served_site import CHROMIUM, CHROMIUM_ARGS, ROOT, build_site, page_urls, serve

LIGHTHOUSE_VERSION = "12.2.3"
TOOLS = ROOT / ".cache" / "lighthouse"
LIGHTHOUSE = TOOLS / "node_modules" / ".bin" / "lighthouse"
PRESETS = ["desktop", "mobile"]
CATEGORIES = {
    "performance": "Perf",
    "accessibility": "A11y",
    "best-practices": "Best pr.",
    "seo": "SEO",
}
METRICS = {
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
}


def installed_version() -> str | None:
    manifest = TOOLS / "node_modules" / "lighthouse" / "package.json"
    if not manifest.is_file():
        return None
    return json.loads(manifest.read_text(encoding="utf-8"))["version"]


def run_lighthouse(url: str, preset: str, output: Path) -> dict:
    command = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={output}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--chrome-flags=" + " ".join(["--headless=new", *CHROMIUM_ARGS]),
        "--disable-full-page-screenshot",  # seconds per run, and no score depends on it
    ]
    if preset == "desktop":
        command.append("--preset=desktop")  # mobile is Lighthouse's default
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    for _ in range(2):
        done = subprocess.run(command, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"lighthouse failed on {url} ({preset}):\n{done.stderr[-3000:]}")
        report = json.loads(output.read_text(encoding="utf-8"))
        if not unscored(report):
            return report
        # Lighthouse ran but could not score the page (e.g. NO_FCP on a busy machine): once more.
    return report


def unscored(report: dict) -> str:
    """Why Lighthouse gave a category no score (its runtimeError), or '' when all are scored."""
    if all(report["categories"][key]["score"] is not None for key in CATEGORIES):
        return ""
    error = report.get("runtimeError") or {}
    return f"not scored: {error.get('code', '?')}: {error.get('message', 'no runtimeError given')}"


def score(report: dict, key: str) -> float:
    """A category's score out of 100; an unscored category counts as 0, so it misses the goal."""
    value = report["categories"][key]["score"]
    return 0.0 if value is None else value * 100


def costly_audits(report: dict) -> list[str]:
    """Weighted audits that did not score full marks, as 'category: audit (score)'."""
    found = []
    for key, category in report["categories"].items():
        for ref in category["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref.get("weight", 0) > 0 and audit.get("score") is not None and audit["score"] < 1:
                detail = audit.get("displayValue") or ""
                found.append(f"{key}: {ref['id']} ({audit['score']:.2f}) {detail}".rstrip())
    return found


def _metric(key: str, value: float) -> str:
    return f"{value:.3f}" if key == "cumulative-layout-shift" else f"{value:.0f} ms"


def goal_misses(preset: str, scores: dict[str, float]) -> list[str]:
    """The categories in which one page and preset misses the goal, e.g. ['Perf 93']."""
    if preset == "desktop":
        wanted = dict.fromkeys(CATEGORIES, 100)
    else:
        wanted = {"performance": 95, "accessibility": 100}
    return [
        f"{CATEGORIES[key]} {scores[key]:.0f}" for key, low in wanted.items() if scores[key] < low
    ]


def measure_page(base_url: str, page: str, preset: str, runs: int, folder: Path) -> dict:
    """Median scores and metrics of ``runs`` Lighthouse runs, and the first run's costly audits."""
    name = (page.strip("/").replace("/", "_") or "home") + f"-{preset}"
    reports = [
        run_lighthouse(base_url + page, preset, folder / f"{name}-{n}.json") for n in range(runs)
    ]
    return {
        "page": page or "(home)",
        "preset": preset,
        "scores": {key: statistics.median(score(r, key) for r in reports) for key in CATEGORIES},
        "metrics": {
            key: statistics.median(r["audits"][key].get("numericValue", 0) for r in reports)
            for key in METRICS
        },
        "costly": [why for why in map(unscored, reports) if why] + costly_audits(reports[0]),
        "benchmark": statistics.median(r["environment"]["benchmarkIndex"] for r in reports),
    }


def worst_first(row: dict) -> tuple:
    """Sort key: rows that miss the goal first, then by performance, then by the other scores."""
    scores = row["scores"]
    return (not goal_misses(row["preset"], scores), scores["performance"], sum(scores.values()))


def print_table(rows: list[dict], runs: int) -> None:
    header = ["Page", "Preset", *CATEGORIES.values(), *METRICS.values(), "CPU index"]
    table = [header]
    for row in rows:
        table.append(
            [
                row["page"],
                row["preset"],
                *(f"{row['scores'][key]:.0f}" for key in CATEGORIES),
                *(_metric(key, row["metrics"][key]) for key in METRICS),
                f"{row['benchmark']:.0f}",
            ]
        )
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    print(f"\nLighthouse {LIGHTHOUSE_VERSION} ({CHROMIUM}), median of {runs} run(s), worst first")
    # Lighthouse's own CPU benchmark: a busy machine scores low and its pages score low with it.
    speed = statistics.median(row["benchmark"] for row in rows)
    print(f"CPU benchmark index (median over pages): {speed:.0f}; a busy machine reads low")
    for index, line in enumerate(table):
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) + " |")
        if index == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="site-relative URLs (default: every page)")
    parser.add_argument("--runs", type=int, default=3, help="runs per page and preset (median)")
    parser.add_argument("--site", type=Path, help="a built site to use instead of building")
    parser.add_argument("--preset", choices=PRESETS, action="append", help="default: both")
    parser.add_argument("--keep", type=Path, help="a folder to keep the JSON reports in")
    args = parser.parse_args()

    if installed_version() != LIGHTHOUSE_VERSION:
        sys.exit(
            f"needs lighthouse {LIGHTHOUSE_VERSION} in {TOOLS}: `nox -s lighthouse` installs it"
        )
    if CHROMIUM is None:
        sys.exit(f"needs a Chromium-family browser: {ENABLE_HINT}")

    with tempfile.TemporaryDirectory(prefix="jitdocs-lighthouse-") as scratch:
        site = args.site or build_site(Path(scratch) / "site")
        # Every page a reader can reach; the 404 page is served with status 404, which
        # Lighthouse refuses to score.
        pages = args.pages or [url for url in page_urls(site) if url != "404.html"]
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        with serve(site) as base_url:
            rows = []
            for page in pages:
                for preset in args.preset or PRESETS:
                    rows.append(measure_page(base_url, page, preset, args.runs, folder))
                    print(f"measured {rows[-1]['page']} ({preset})", file=sys.stderr, flush=True)

    rows.sort(key=worst_first)
    print_table(rows, args.runs)
    missed = [
        f"{row['page']} {row['preset']}: {', '.join(goal_misses(row['preset'], row['scores']))}"
        for row in rows
        if goal_misses(row["preset"], row["scores"])
    ]
    print("\nGoal (desktop: 100 in all four; mobile: performance >= 95, accessibility 100):")
    print("  met" if not missed else "  missed: " + "; ".join(missed))
    notes = [f"{row['page']} {row['preset']}: {audit}" for row in rows for audit in row["costly"]]
    if notes:
        print("\nAudits that cost points (first run):")
        print("\n".join(f"  {note}" for note in notes))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
