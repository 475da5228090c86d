"""The last whole `nox -s tests` that passed in this checkout: written by that session, printed
by `nox -s bench -- --no-suite` (benchmarks/bench_build.py). Standard library only: the noxfile
loads it outside any venv."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

RECORD = Path(".cache") / "last-suite.json"  # under the checkout


def record(root: Path, seconds: float) -> None:
    """Write the passed suite's wall time, its commit and when it finished."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True)
    entry = {"seconds": round(seconds, 1), "commit": commit.stdout.decode().strip() or None}
    entry["finished"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    (root / RECORD).parent.mkdir(exist_ok=True)
    (root / RECORD).write_text(json.dumps(entry) + "\n", encoding="utf-8")


def last(root: Path) -> dict | None:
    """What ``record`` wrote last, or None when no whole suite has passed here."""
    path = root / RECORD
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
