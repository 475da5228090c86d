"""Which JAX releases each claim holds on: ``nox -s matrix`` records it, the build renders it.

MAINTAINERS.md ("The compatibility matrix") says what a run records and when to alias an edited
claim's id. The session gives each recorded release its own venv, made once under
``.cache/matrix/``, and one ``--record`` call there, which runs the pages through
``engine.tools.drift``: every page, or only those ``--page`` names, whose verdicts are merged
into the file. The release list changes only with ``--releases``. The build only reads the file.
"""

from __future__ import annotations

import argparse
import json
import os
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
from engine.run.compatibility import DATA, load, merge, save, verdicts, version_key
from engine.run.environment import environment_fingerprint, locked_versions
from engine.tools import drift

INDEX = "https://pypi.org/simple/jax/"
PINNED_REQUIREMENT = "pinned (uv.lock)"


# ---------------------------------------------------------------- a busy machine


def machine_busy(load: float | None = None, cores: int | None = None) -> str:
    """Why a timing measured now says nothing about JAX, or "" when the machine was free.

    A timing claim runs on one core; the page's own process counts about 1 in the one-minute
    load average. More than the cores less a half (at least 1.5) means other work competed
    with it, so its ratio measured the machine, not the JAX release.
    """
    load = os.getloadavg()[0] if load is None else load
    cores = cores or os.cpu_count() or 1
    if load > max(cores - 0.5, 1.5):
        return f"timing, machine busy (load average {load:.1f} on {cores} cores)"
    return ""


# ---------------------------------------------------------------- recording a release


def record(requirement: str, pages: list[Page], cache_dir: Path) -> dict:
    """Run the pages under the installed JAX and return this release's entry. A plain check's
    failure goes to ``other``; a timing one measured on a busy machine to ``not_measured``."""
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
        busy = machine_busy() if any(f.timing for f in report.failures) else ""
        entry["verdicts"].update(verdicts(page, report.failures, report.outcomes, busy))
        in_claims = {i for claim in page.claims for i in claim.blocks}
        for f in report.failures:
            if f.index in in_claims:
                continue
            if f.timing and busy:
                entry.setdefault("not_measured", []).append(f"{f.where}: {busy}")
            else:
                entry["other"].append(f"{f.where}: {f.summary}")
    entry["seconds"] = round(time.monotonic() - started, 1)
    return entry


def uninstallable(requirement: str) -> dict:
    python = ".".join(sys.version.split()[0].split(".")[:2])
    return {"requirement": requirement, "not_installable": f"not installable on Python {python}"}


def default_releases(pinned: str, versions: list[str]) -> list[str]:
    """The newest patch of each of the three newest minor series other than the pinned one's
    (the pinned run covers its series, a newer patch of it included)."""
    finals = sorted((v for v in versions if re.fullmatch(r"\d+(\.\d+)+", v)), key=version_key)
    newest = {version_key(version)[:2]: version for version in finals}  # the last patch wins
    series = version_key(pinned)[:2]
    others = [newest[s] for s in sorted(newest, reverse=True) if s != series]
    return [f"jax=={version}" for version in others[:3]]


def recorded_requirements(data: dict | None) -> list[str]:
    """The releases the data file records, as requirements (the pinned one aside): what
    ``nox -s matrix`` runs unless a maintainer names others with ``--releases``."""
    return [
        r["requirement"]
        for r in (data or {}).get("releases", [])
        if r["requirement"] != PINNED_REQUIREMENT
    ]


def session_plan(args: list[str], data: dict | None, versions=None) -> dict:
    """What ``nox -s matrix -- ARGS`` runs: ``{"pages": [...], "releases": [...], "new": bool}``.

    ``--page docs/x.md`` (repeatable) runs only those pages against the recorded releases and
    merges their verdicts (with ``--releases``, against those of them only). Without ``--page``,
    ``--releases default`` or ``--releases "jax==0.10.*" ...`` (a maintainer's choice) replaces
    the release list and runs every page. ``versions`` is called for the package index's list
    only when ``default`` asks for it.
    """
    parser = argparse.ArgumentParser(prog="nox -s matrix --")
    parser.add_argument("--page", action="append", default=[], metavar="docs/<part>/<slug>.md")
    parser.add_argument("--releases", nargs="+", metavar="REQUIREMENT")
    parsed = parser.parse_args(args)
    recorded = recorded_requirements(data)
    if parsed.page and parsed.releases:
        if unknown := [r for r in parsed.releases if r not in recorded]:
            parser.error(f"--page checks recorded releases ({', '.join(recorded)}), not {unknown}")
        return {"pages": parsed.page, "releases": parsed.releases, "new": False}
    if parsed.releases == ["default"]:
        releases = default_releases(locked_versions()["jax"], (versions or index_versions)())
    else:
        releases = parsed.releases or recorded
    return {"pages": parsed.page, "releases": releases, "new": bool(parsed.releases)}


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
    action.add_argument("--plan", nargs=argparse.REMAINDER, help="print what the session runs")
    parser.add_argument("--new", action="store_true", help="start the data file afresh")
    parser.add_argument("--page", action="append", default=[], help="only this page; merge")
    parser.add_argument("--data", type=Path, default=ROOT / DATA)
    parser.add_argument("--cache-dir", type=Path, default=drift.DRIFT_CACHE)
    args = parser.parse_args(argv)
    if args.plan is not None:
        print(json.dumps(session_plan(args.plan, load(args.data))))
        return 0
    if args.uninstallable:
        save(uninstallable(args.uninstallable), args.data, args.new)
        return 0
    pages = read_pages(args.page)
    entry = record(args.record, pages, args.cache_dir)
    if args.page:
        try:
            merge(entry, args.data, [page.path for page in pages])
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    else:
        save(entry, args.data, args.new)
    counts = Counter(v["verdict"] for v in entry["verdicts"].values())
    print(
        f"matrix: jax {entry['jax']}: {dict(counts)}, {len(entry['other'])} other failure(s), "
        f"{len(entry.get('not_measured', []))} timing(s) not measured, {entry['seconds']:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
