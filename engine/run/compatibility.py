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
    settle_aliases(data)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return data


def merge(entry: dict, path: Path, pages: list[str]) -> dict:
    """Put one release's verdicts on ``pages`` into the data file: that release's records of
    those pages are replaced, every other page's and every other release's are kept, and the
    release list is left as it is (a release not yet recorded is refused)."""
    data = load(path)
    found = next((r for r in tested(data) if r["jax"] == entry["jax"]), None)
    if found is None:
        recorded = ", ".join(r["jax"] for r in tested(data)) or "none"
        raise ValueError(
            f"jax {entry['jax']} is not among the recorded releases ({recorded}); a maintainer "
            "adds releases with `nox -s matrix -- --releases ...`"
        )
    stems = tuple(page_path.removeprefix("docs/").removesuffix(".md") + "/" for page_path in pages)
    fresh = entry["verdicts"]
    kept = {  # in place, so that a re-run that changes nothing changes no line of the file
        claim_id: fresh.get(claim_id, v)
        for claim_id, v in found["verdicts"].items()
        if not claim_id.startswith(stems) or claim_id in fresh
    }
    found["verdicts"] = kept | fresh
    for key in ("other", "not_measured"):
        kept = [o for o in found.get(key, []) if not o.startswith(tuple(f"{p}:" for p in pages))]
        found[key] = kept + entry.get(key, [])
        if not found[key] and key == "not_measured":
            del found[key]
    settle_aliases(data)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return data


def settle_aliases(data: dict) -> None:
    """Drop the aliases no release needs: each is needed only while some release has no record
    under the claim's own id."""
    data["aliases"] = {
        new: old
        for new, old in data.get("aliases", {}).items()
        if not all(new in r["verdicts"] for r in tested(data))
    }


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


def recorded(data: dict | None, claim_id: str) -> bool:
    """Has every tested release a verdict for the claim? A claim added or edited since the
    matrix last ran has none: "not yet checked on other releases", not a failure."""
    releases = tested(data)
    return bool(releases) and all(recorded_id(data, r, claim_id) in r["verdicts"] for r in releases)


def verdict(data: dict | None, release: dict, claim_id: str) -> str:
    """The claim's verdict on the release: HOLDS, BROKEN, or NOT_RUN when none is recorded."""
    found = release["verdicts"].get(recorded_id(data, release, claim_id))
    return found["verdict"] if found else NOT_RUN
