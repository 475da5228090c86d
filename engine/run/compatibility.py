"""``docs/data/compatibility.json``, each claim's verdict per JAX release: ``nox -s matrix``
(``engine.tools.matrix``) saves a release; ``engine.site.version_notes`` renders the file."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.run.results import NOT_RUN

DATA = Path("docs") / "data" / "compatibility.json"
HOLDS, BROKEN = "holds", "broken"  # a claim's verdict on a release, or results.NOT_RUN


def load(path: Path) -> dict | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def save(entry: dict, path: Path, new: bool = False) -> dict:
    """Add (or replace) one release in the data file; ``new`` starts the file afresh."""
    data = {"aliases": {}, "releases": []} if new or not path.is_file() else load(path)
    same = entry.get("jax") or entry["requirement"]
    data["releases"] = [
        r for r in data["releases"] if (r.get("jax") or r["requirement"]) != same
    ] + [entry]
    data["releases"].sort(key=lambda r: version_key(r.get("jax") or r["requirement"]))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return data


def version_key(version: str) -> tuple[int, ...]:
    """``0.12.0.1`` -> (0, 12, 0, 1); also a requirement's (``jax==0.10.*`` -> (0, 10))."""
    return tuple(int(part) for part in re.findall(r"\d+", version))


def tested(data: dict | None) -> list[dict]:
    return [r for r in (data or {}).get("releases", []) if "verdicts" in r]


def recorded_id(data: dict, release: dict, claim_id: str) -> str:
    """The id the release recorded the claim under: its own, or the one its alias names."""
    if claim_id in release["verdicts"]:
        return claim_id
    return data.get("aliases", {}).get(claim_id, claim_id)


def verdict(data: dict | None, release: dict, claim_id: str) -> str:
    """The claim's verdict on the release: HOLDS, BROKEN, or NOT_RUN when none is recorded."""
    found = release["verdicts"].get(recorded_id(data, release, claim_id))
    return found["verdict"] if found else NOT_RUN
