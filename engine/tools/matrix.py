"""Which JAX releases each claim holds on: ``nox -s matrix`` records it, the build renders it.

CONTRIBUTING.md ("Maintainers: the compatibility matrix") says what a run records and when to
alias an edited claim's id. The session gives each release its own venv and one ``--record``
call there, which runs every page through ``engine.tools.drift``; the build only reads the file.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import urllib.request
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from engine.page.model import ROOT, Page
from engine.page.parser import read_pages
from engine.run.cache import CACHE_DIR
from engine.run.compatibility import BROKEN, DATA, HOLDS, save, version_key
from engine.run.environment import environment_fingerprint, locked_versions
from engine.run.results import NOT_RUN
from engine.tools import drift

INDEX = "https://pypi.org/simple/jax/"


# ---------------------------------------------------------------- recording a release


def verdicts(page: Page, failures: list, outcomes: list) -> dict[str, dict]:
    """Each claim's verdict from a drift run of the page (its failures and block outcomes)."""
    result = {}
    crashed = next((f.summary for f in failures if f.index is None), "")
    for claim in page.claims:
        if first := next((f for f in failures if f.index in claim.blocks), None):
            result[claim.id] = {"verdict": BROKEN, "where": first.where, "error": first.summary}
            if first.follows:
                result[claim.id]["after_earlier_failure"] = True
        elif any(outcomes[i] is not None and outcomes[i].skipped for i in claim.blocks):
            result[claim.id] = {"verdict": NOT_RUN, "why": "skipped on the site"}
        elif any(outcomes[i] is None for i in claim.blocks):
            result[claim.id] = {"verdict": NOT_RUN, "why": crashed or "not reached"}
        else:
            result[claim.id] = {"verdict": HOLDS}
    return result


def record(requirement: str, pages: list[Page], cache_dir: Path) -> dict:
    """Run every page under the installed JAX and return this release's entry."""
    started = time.monotonic()
    fingerprint = environment_fingerprint()
    entry = {
        "requirement": requirement,
        "jax": fingerprint["versions"]["jax"],
        "jaxlib": fingerprint["versions"]["jaxlib"],
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "platform": fingerprint["platform"],
        "python": sys.version.split()[0],
        "verdicts": {},
        "other": [],
    }
    for page in pages:
        print(f"matrix: {page.path}", file=sys.stderr, flush=True)
        report = drift.check_page(page, cache_dir, CACHE_DIR, fingerprint)
        entry["verdicts"].update(verdicts(page, report.failures, report.outcomes))
        in_claims = {i for claim in page.claims for i in claim.blocks}
        entry["other"] += [
            f"{f.where}: {f.summary}" for f in report.failures if f.index not in in_claims
        ]
    entry["seconds"] = round(time.monotonic() - started, 1)
    return entry


def uninstallable(requirement: str) -> dict:
    python = ".".join(sys.version.split()[0].split(".")[:2])
    return {"requirement": requirement, "not_installable": f"not installable on Python {python}"}


def default_releases(pinned: str, versions: list[str]) -> list[str]:
    """The newest patch of each of the three newest minor series; a series whose newest patch is
    the pinned release is left out (the pinned run covers it)."""
    finals = sorted((v for v in versions if re.fullmatch(r"\d+(\.\d+)+", v)), key=version_key)
    newest = {version_key(version)[:2]: version for version in finals}  # the last patch wins
    others = [newest[s] for s in sorted(newest, reverse=True) if newest[s] != pinned]
    return [f"jax=={version}" for version in others[:3]]


def index_versions() -> list[str]:
    """Every jax version the package index lists (its JSON simple API, as pip and uv use)."""
    request = urllib.request.Request(
        INDEX, headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)["versions"]


# ---------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.tools.matrix", description=__doc__)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--record", metavar="REQUIREMENT", help="run every page, add a release")
    action.add_argument("--uninstallable", metavar="REQUIREMENT", help="record a failed install")
    action.add_argument("--default-releases", action="store_true", help="print the default list")
    parser.add_argument("--new", action="store_true", help="start the data file afresh")
    parser.add_argument("--data", type=Path, default=ROOT / DATA)
    parser.add_argument("--cache-dir", type=Path, default=drift.DRIFT_CACHE)
    args = parser.parse_args(argv)
    if args.default_releases:
        print("\n".join(default_releases(locked_versions()["jax"], index_versions())))
        return 0
    if args.uninstallable:
        save(uninstallable(args.uninstallable), args.data, args.new)
        return 0
    entry = record(args.record, read_pages([]), args.cache_dir)
    save(entry, args.data, args.new)
    counts = Counter(v["verdict"] for v in entry["verdicts"].values())
    print(
        f"matrix: jax {entry['jax']}: {dict(counts)}, {len(entry['other'])} other failure(s), "
        f"{entry['seconds']:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
