"""Lighthouse scores of the built site (`nox -s lighthouse`): a benchmark, not a test.

Builds the site into a temporary folder, serves it on 127.0.0.1 and runs Lighthouse 12 (from
.cache/lighthouse, installed by the nox session) with Debian's chromium on three pages, with the
desktop and the mobile preset, then prints the four category scores and the audits that cost
points. Goal: 100 in every category on desktop, performance >= 95 on mobile. Lighthouse runs
offline; scores vary a little from run to run with the machine's load (`--runs 3` takes the
median of each category).

    python tests/browser/bench_lighthouse.py [--runs N] [--site DIR] [PAGE ...]
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

from find_browser import ENABLE_HINT
from served_site import CHROMIUM, CHROMIUM_ARGS, ROOT, build_site, serve

LIGHTHOUSE_VERSION = "12.2.3"
TOOLS = ROOT / ".cache" / "lighthouse"
LIGHTHOUSE = TOOLS / "node_modules" / ".bin" / "lighthouse"
PAGES = ["", "course/why-compile/", "track/jit-of-scan/"]  # home, a section, a lesson
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
    ]
    if preset == "desktop":
        command.append("--preset=desktop")  # mobile is Lighthouse's default
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url} ({preset}):\n{done.stderr[-3000:]}")
    return json.loads(output.read_text(encoding="utf-8"))


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", default=PAGES, help="site-relative URLs")
    parser.add_argument("--runs", type=int, default=1, help="runs per page and preset (median)")
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
        rows, notes = [], []
        with serve(site) as base_url:
            for page in args.pages:
                for preset in args.preset or PRESETS:
                    folder = args.keep or Path(scratch)
                    folder.mkdir(parents=True, exist_ok=True)
                    name = (page.strip("/").replace("/", "_") or "home") + f"-{preset}"
                    reports = [
                        run_lighthouse(base_url + page, preset, folder / f"{name}-{n}.json")
                        for n in range(args.runs)
                    ]
                    scores = {
                        key: statistics.median(r["categories"][key]["score"] * 100 for r in reports)
                        for key in CATEGORIES
                    }
                    metrics = {
                        key: statistics.median(r["audits"][key]["numericValue"] for r in reports)
                        for key in METRICS
                    }
                    rows.append((page or "(home)", preset, scores, metrics))
                    for audit in costly_audits(reports[0]):
                        notes.append(f"{page or '(home)'} {preset}: {audit}")

    header = ["Page", "Preset", *CATEGORIES.values(), *METRICS.values()]
    table = [header]
    for page, preset, scores, metrics in rows:
        table.append(
            [
                page,
                preset,
                *(f"{scores[key]:.0f}" for key in CATEGORIES),
                *(_metric(key, metrics[key]) for key in METRICS),
            ]
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    print(f"\nLighthouse {LIGHTHOUSE_VERSION} ({CHROMIUM}), median of {args.runs} run(s)")
    for index, row in enumerate(table):
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) + " |")
        if index == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")

    missed = [
        f"{page} {preset}: {CATEGORIES[key]} {score:.0f}"
        for page, preset, scores, _ in rows
        for key, score in scores.items()
        if (preset == "desktop" and score < 100) or (key == "performance" and score < 95)
    ]
    print("\nGoal (100 everywhere on desktop, performance >= 95 on mobile):", end=" ")
    print("met" if not missed else "missed: " + "; ".join(missed))
    if notes:
        print("\nAudits that cost points (first run):")
        print("\n".join(f"  {note}" for note in notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
