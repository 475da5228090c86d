"""Which JAX releases each claim holds on: ``nox -s matrix`` records it, the build renders it.

A claim is a ❌/✅ contract (the pair) or a ``fact`` block. Its id is the page (relative to
``docs/``, without ``.md``), the kind and a hash of its code with blank lines and trailing spaces
dropped, e.g. ``course/pitfalls/contract-1a2b3c4d``: moving the block or editing the prose
around it keeps the id. Editing the code makes a new id, on purpose, since the verdicts
recorded for the old code may not hold for the new; when the edit cannot change any verdict
(a renamed variable, a comment), map the new id to the old one in the data file's
``"aliases"`` (``{"new id": "old id"}``) instead of re-running every release. The next
``nox -s matrix`` writes the new ids and drops the aliases.

The nox session installs each release into its own venv and runs
``python -m engine.matrix --record REQUIREMENT`` there; each call runs every page through
the drift machinery (``engine.drift``) and adds one release to ``docs/data/compatibility.json``.
The build only reads that file.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import json
import posixpath
import re
import sys
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from engine.markers import ROOT, Page, read_pages

DATA = Path("docs") / "data" / "compatibility.json"
NOTES_PAGE = "docs/reference/version-notes.md"
HOLDS, BROKEN, NOT_RUN = "holds", "broken", "not run"
DASH = "\N{EN DASH}"  # for ranges and the not-run cell
INDEX = "https://pypi.org/simple/jax/"


@dataclass(frozen=True)
class Claim:
    id: str
    kind: str  # "contract" or "fact"
    blocks: tuple[int, ...]  # the ❌ and ✅ blocks of a contract; a fact's own block
    anchor: str  # its element id on the page: contract-N or fact-N, counted per kind


def _normalized(source: str) -> str:
    return "\n".join(line.rstrip() for line in source.splitlines() if line.strip())


def claims(page: Page) -> list[Claim]:
    """Every contract and fact on the page, in page order, with its stable id and its anchor."""
    stem = page.path.removeprefix("docs/").removesuffix(".md")
    found, seen, counts = [], Counter(), Counter()
    for index, block in enumerate(page.blocks):
        kinds = [("contract", (index, index + 1))] if block.bad else []
        kinds += [("fact", (index,))] if block.fact else []
        for kind, indexes in kinds:
            code = "\n".join(_normalized(page.blocks[i].source) for i in indexes)
            base = f"{stem}/{kind}-{hashlib.sha256(code.encode()).hexdigest()[:8]}"
            seen[base] += 1  # the same code twice on a page: number the repeats
            counts[kind] += 1
            claim_id = base if seen[base] == 1 else f"{base}-{seen[base]}"
            found.append(Claim(claim_id, kind, indexes, f"{kind}-{counts[kind]}"))
    return found


def by_block(page: Page) -> dict[tuple[int, str], Claim]:
    """The page's claims by (the index of their first block, kind)."""
    return {(claim.blocks[0], claim.kind): claim for claim in claims(page)}


# ---------------------------------------------------------------- recording a release


def verdicts(page: Page, failures: list, outcomes: list) -> dict[str, dict]:
    """Each claim's verdict from a drift run of the page (its failures and block outcomes)."""
    result = {}
    crashed = next((f.summary for f in failures if f.index is None), "")
    for claim in claims(page):
        broke = [f for f in failures if f.index in claim.blocks]
        if broke:
            first = broke[0]
            result[claim.id] = {"verdict": BROKEN, "where": first.where, "error": first.summary}
            if first.follows:
                result[claim.id]["after_earlier_failure"] = True
            continue
        missing = [i for i in claim.blocks if outcomes[i] is None]
        skipped = [i for i in claim.blocks if outcomes[i] is not None and outcomes[i].skipped]
        if missing or skipped:
            why = "skipped on the site" if skipped else crashed or "not reached"
            result[claim.id] = {"verdict": NOT_RUN, "why": why}
        else:
            result[claim.id] = {"verdict": HOLDS}
    return result


def record(requirement: str, pages: list[Page], cache_dir: Path) -> dict:
    """Run every page under the installed JAX and return this release's entry."""
    from engine import drift  # needs the engine's run machinery, which the build never does
    from engine.build import CACHE_DIR, environment_fingerprint

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
        in_claims = {i for claim in claims(page) for i in claim.blocks}
        entry["other"] += [
            f"{f.where}: {f.summary}" for f in report.failures if f.index not in in_claims
        ]
    entry["seconds"] = round(time.monotonic() - started, 1)
    return entry


def uninstallable(requirement: str) -> dict:
    python = ".".join(sys.version.split()[0].split(".")[:2])
    return {"requirement": requirement, "not_installable": f"not installable on Python {python}"}


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


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


def default_releases(pinned: str, versions: list[str]) -> list[str]:
    """The newest patch of each of the three newest minor series; a series whose newest patch is
    the pinned release is left out (the pinned run covers it)."""
    newest: dict[tuple[int, ...], str] = {}
    for version in versions:
        if re.fullmatch(r"\d+(\.\d+)+", version):
            series = version_key(version)[:2]
            if version_key(version) > version_key(newest.get(series, "0")):
                newest[series] = version
    others = [newest[s] for s in sorted(newest, reverse=True) if newest[s] != pinned]
    return [f"jax=={version}" for version in others[:3]]


def index_versions() -> list[str]:
    """Every jax version the package index lists (its JSON simple API, as pip and uv use)."""
    request = urllib.request.Request(
        INDEX, headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)["versions"]


# ---------------------------------------------------------------- reading and rendering


def load(path: Path) -> dict | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def tested(data: dict | None) -> list[dict]:
    return [r for r in (data or {}).get("releases", []) if "verdicts" in r]


def recorded_id(data: dict, release: dict, claim_id: str) -> str:
    """The id the release recorded the claim under: its own, or the one its alias names."""
    if claim_id in release["verdicts"]:
        return claim_id
    return data.get("aliases", {}).get(claim_id, claim_id)


def verdict(data: dict, release: dict, claim_id: str) -> dict | None:
    return release["verdicts"].get(recorded_id(data, release, claim_id))


def stale(pages: list[Page], data: dict | None, pinned: str = "") -> list[str]:
    """What the data file lacks or has too much of, compared with the pages; empty if current."""
    from engine.drift import pinned_versions

    pinned = pinned or pinned_versions()["jax"]
    if data is None:
        return [f"no {DATA.as_posix()}: run `nox -s matrix`"]
    problems = []
    if pinned not in {r["jax"] for r in tested(data)}:
        problems.append(f"the data has no run of the pinned jax {pinned}")
    page_ids = {claim.id: page.path for page in pages for claim in claims(page)}
    aliases = data.get("aliases", {})
    known = set(page_ids) | {aliases[i] for i in page_ids if i in aliases}
    for release in tested(data):
        missing = sorted(i for i in page_ids if verdict(data, release, i) is None)
        extra = sorted(set(release["verdicts"]) - known)
        if missing:
            problems.append(f"jax {release['jax']}: no verdict for {', '.join(missing)}")
        if extra:
            problems.append(f"jax {release['jax']}: no page has {', '.join(extra)}")
    return problems


def summary(pages: list[Page], data: dict | None) -> str:
    """The build's one line on the data: current, or what makes it stale."""
    problems = stale(pages, data)
    if problems:
        return "jitdocs: compatibility data is STALE, run `nox -s matrix`: " + "; ".join(problems)
    return f"jitdocs: compatibility data: {len(tested(data))} releases, up to date"


def _anchor(release: dict, claim_id: str) -> str:
    return "broke-" + re.sub(r"[^a-z0-9]+", "-", f"{release['jax']}-{claim_id}".lower())


def header(data: dict | None) -> tuple[str, str]:
    """Extra header cells (and their separators) for the version notes table."""
    names = [f" JAX {r['jax']} |" for r in tested(data)]
    return "".join(names), " :-: |" * len(names)


def cells(data: dict | None, claim_id: str) -> str:
    """One cell per tested release: ✓ holds, ✗ broke (a link to what), a dash: not run."""
    out = ""
    for release in tested(data):
        found = verdict(data, release, claim_id) or {"verdict": NOT_RUN}
        if found["verdict"] == HOLDS:
            out += " ✓ |"
        elif found["verdict"] == BROKEN:
            out += f" [✗](#{_anchor(release, recorded_id(data, release, claim_id))}) |"
        else:
            out += f" {DASH} |"
    return out


def not_holding(data: dict | None, claim_ids: list[str]) -> Counter:
    """How many claims did not hold, keyed by verdict and release: ``{"broken on 0.10.2": 1}``."""
    failing = Counter()
    for release in tested(data):
        for claim_id in claim_ids:
            found = verdict(data, release, claim_id) or {"verdict": NOT_RUN}
            if found["verdict"] != HOLDS:
                failing[f"{found['verdict']} on {release['jax']}"] += 1
    return failing


def status(data: dict | None, claim_ids: list[str]) -> str:
    """A page's claims in words: ``all hold on JAX 0.9.2-0.12.0.1``, or what did not."""
    releases = tested(data)
    if not releases:
        return "no release tested"
    failing = not_holding(data, claim_ids)
    if not failing:
        verb = "holds" if len(claim_ids) == 1 else "all hold"
        return f"{verb} on JAX {releases[0]['jax']}{DASH}{releases[-1]['jax']}"
    return ", ".join(f"{count} {what}" for what, count in failing.items())


def any_broken(data: dict | None, claim_ids: list[str]) -> bool:
    return any(
        (verdict(data, release, claim_id) or {}).get("verdict") == BROKEN
        for release in tested(data)
        for claim_id in claim_ids
    )


def _code_spans(text: str) -> str:
    parts = text.split("`")
    return "".join(
        f"<code>{html.escape(p)}</code>" if n % 2 else html.escape(p) for n, p in enumerate(parts)
    )


def details(data: dict | None) -> str:
    """Below the table: the releases tested, the ones that did not install, and what broke."""
    if not tested(data):
        return ""
    lines = [
        "",
        "Columns: "
        + "; ".join(
            f"JAX {r['jax']} (jaxlib {r['jaxlib']}, Python {r['python']}, {r['date']})"
            for r in tested(data)
        )
        + f". ✓ holds, ✗ broken, {DASH} not run.",
        "",
    ]
    for release in data["releases"]:
        if "not_installable" in release:
            lines += [f"`{release['requirement']}`: {release['not_installable']}.", ""]
    for release in tested(data):
        for claim_id, found in sorted(release["verdicts"].items()):
            if found["verdict"] == BROKEN:
                lines += [
                    f"**JAX {release['jax']}**, {_code_spans(found['where'])}: "
                    f"{_code_spans(found['error'])}\n{{: #{_anchor(release, claim_id)} }}",
                    "",
                ]
    others = [(r["jax"], *o.split(": ", 1)) for r in tested(data) for o in r.get("other", [])]
    if others:
        lines += ["Other checks that broke (asserts in plain examples, timing claims):", ""]
    for jax, where, error in others:
        lines += [f"- **JAX {jax}**, {_code_spans(where)}: {_code_spans(error)}"]
    return "\n".join(lines) + "\n"


def page_note(page: Page, data: dict | None, here: str) -> str:
    """The line under a course or track page's title; "" with no claim and nothing failing."""
    releases = tested(data)
    checks, failed_on = set(), {}  # failing plain checks ("path:line"); releases they fail on
    for release in releases:
        for other in release.get("other", []):
            if other.startswith(f"{page.path}:"):
                checks.add(other.split(": ", 1)[0])
                failed_on[release["jax"]] = True
    ids = [claim.id for claim in claims(page)]
    if not releases or (not ids and not checks):
        return ""
    link = posixpath.relpath(NOTES_PAGE, posixpath.dirname(here))
    first, last = releases[0]["jax"], releases[-1]["jax"]
    span = f"the [{len(releases)} JAX releases tested]({link}) ({first}{DASH}{last})"
    held = sum(not not_holding(data, [claim_id]) for claim_id in ids)
    head = {1: "The one claim", 2: "Both claims"}.get(held, f"All {held} claims")
    head = head if held == len(ids) else f"{held} of the {len(ids)} claims"
    parts = [f"{head} on this page {'holds' if held == 1 else 'hold'} on {span}"] if ids else []
    parts += [_not_holding_words(data, ids)] if held < len(ids) else []
    if checks:
        one = len(checks) == 1
        noun, rest = ("check", "(not a claim) fails") if one else ("checks", "(not claims) fail")
        kind = f"other {noun} {rest}" if ids else f"[{noun}]({link}) on this page {rest}"
        parts.append(f"{len(checks)} {kind} on {_and(list(failed_on))}")
    return "; ".join(parts) + "."


def _and(words: list[str]) -> str:
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def _not_holding_words(data: dict, claim_ids: list[str]) -> str:
    """``1 broken on 0.11.2, 3 not run on 0.9.2 and 0.10.2``: one group per verdict and count."""
    groups: dict[tuple[str, int], list[str]] = {}
    for release in tested(data):
        found = [(verdict(data, release, c) or {"verdict": NOT_RUN})["verdict"] for c in claim_ids]
        for verdict_, count in Counter(found).items():
            if verdict_ != HOLDS:
                groups.setdefault((verdict_, count), []).append(release["jax"])
    return ", ".join(f"{count} {word} on {_and(jax)}" for (word, count), jax in groups.items())


def page_note_edit(page: Page, data: dict | None) -> tuple[int, int, str] | None:
    """An edit that puts the page note on the line after the H1 of course and track pages."""
    if not page.path.startswith(("docs/course/", "docs/track/")) or not page.title_end:
        return None
    note = page_note(page, data, page.path)
    if not note:
        return None
    return page.title_end, page.title_end, f"\n{note}\n{{: .jd-compat }}\n"


# ---------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    from engine.drift import DRIFT_CACHE, pinned_versions

    parser = argparse.ArgumentParser(prog="python -m engine.matrix", description=__doc__)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--record", metavar="REQUIREMENT", help="run every page, add a release")
    action.add_argument("--uninstallable", metavar="REQUIREMENT", help="record a failed install")
    action.add_argument("--default-releases", action="store_true", help="print the default list")
    parser.add_argument("--new", action="store_true", help="start the data file afresh")
    parser.add_argument("--data", type=Path, default=ROOT / DATA)
    parser.add_argument("--cache-dir", type=Path, default=DRIFT_CACHE)
    args = parser.parse_args(argv)
    if args.default_releases:
        print("\n".join(default_releases(pinned_versions()["jax"], index_versions())))
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
