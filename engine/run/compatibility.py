"""``docs/data/compatibility.json``, each claim's verdict per JAX release: ``nox -s matrix``
(``engine.tools.matrix``) saves a release; ``engine.site.version_notes`` renders the file, with
the build's own run as the record of the release it ran (``with_run``)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from engine.page.model import Page, page_stem
from engine.run.environment import locked_versions
from engine.run.results import NOT_RUN, PageResult

DATA = Path("docs") / "data" / "compatibility.json"
HOLDS, BROKEN = "holds", "broken"  # a claim's verdict on a release, or results.NOT_RUN
PAGE_COMMAND = "nox -s matrix -- --page {path}"  # what records a page's claims again


def verdicts(page: Page, failures: list, outcomes: list, busy: str = "") -> dict[str, dict]:
    """Each claim's verdict from a run of the page (its failures and block outcomes): a drift
    run's under ``nox -s matrix``, or a build's, which has none; ``busy``
    (``engine.tools.matrix.machine_busy``) makes a failed timing claim "not run", never "broken"."""
    result = {}
    crashed = next((f.summary for f in failures if f.index is None), "")
    for claim in page.claims:
        if first := next((f for f in failures if f.index in claim.blocks), None):
            if first.timing and busy:
                result[claim.id] = {"verdict": NOT_RUN, "why": busy}
                continue
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


def run_verdicts(pages: dict[str, Page], results: dict[str, PageResult]) -> dict[str, dict]:
    """Each claim's verdict from a build's run of its page: a page that failed has no result,
    so every claim of a page here ran as its blocks declare (or was skipped: not run)."""
    return {
        claim_id: found
        for path, result in results.items()
        for claim_id, found in verdicts(pages[path], [], result.outcomes).items()
    }


def with_run(data: dict | None, jax: str, run: dict[str, dict]) -> dict | None:
    """The data with a run's verdicts as the record of the release it ran (``jax``), over what
    ``nox -s matrix`` recorded there: that column then has every claim the run checked, those
    added since the matrix last ran too. Other releases keep their records; a release the data
    does not record stays unrecorded; the file is not changed."""
    if not data or not run:
        return data
    releases = [
        {**r, "verdicts": r["verdicts"] | run} if "verdicts" in r and r["jax"] == jax else r
        for r in data["releases"]
    ]
    return {**data, "releases": releases}


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


def unchecked(pages: list[Page], data: dict | None) -> list[str]:
    """The claims some tested release has no verdict for: added or edited since it ran."""
    return [c.id for page in pages for c in page.claims if not recorded(data, c.id)]


def orphans(pages: list[Page], data: dict | None) -> dict[str, list[str]]:
    """The recorded claim ids no page has any more (edited or removed), by the command that
    clears them: the page's own run, or the whole matrix for a page that is gone."""
    page_ids = {claim.id for page in pages for claim in page.claims}
    aliases = (data or {}).get("aliases", {})
    known = page_ids | {aliases[i] for i in page_ids if i in aliases}
    stems = {page_stem(page.path) + "/": page.path for page in pages}
    found: dict[str, list[str]] = {}
    for claim_id in sorted({i for r in tested(data) for i in r["verdicts"]} - known):
        path = next((p for stem, p in stems.items() if claim_id.startswith(stem)), None)
        command = PAGE_COMMAND.format(path=path) if path else "nox -s matrix"
        found.setdefault(command, []).append(claim_id)
    return found


def not_holding(data: dict | None, claim_ids: list[str]) -> Counter:
    """How many claims did not hold, keyed by verdict and release: ``{"broken on 0.10.2": 1}``."""
    found = ((verdict(data, r, c), r["jax"]) for r in tested(data) for c in claim_ids)
    return Counter(f"{word} on {jax}" for word, jax in found if word != HOLDS)


def pinned_release(releases: list[dict]) -> dict:
    """The tested release the site is built with: the one uv.lock pins, else the newest."""
    pinned_jax = locked_versions()["jax"]
    return next((r for r in releases if r["jax"] == pinned_jax), releases[-1])


def on_release(data: dict, release: dict, claim_ids: list[str]) -> list[str]:
    """The claims the release has a verdict for."""
    return [c for c in claim_ids if recorded_id(data, release, c) in release["verdicts"]]
