"""The version notes: which JAX releases each claim holds on, rendered from the matrix's data
(``engine.run.compatibility``): the one-line summary in the build log, the note under a course or
track page's title, and the version-notes page's tables.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections import Counter

from engine.page.model import Page, page_stem
from engine.page.policy import policy
from engine.run import accelerator
from engine.run.compatibility import BROKEN, DATA, HOLDS, recorded_id, tested, verdict
from engine.run.environment import locked_versions
from engine.site import labels

NOTES_PAGE = "docs/reference/version-notes.md"
DASH = "\N{EN DASH}"  # for ranges and the not-run cell


def stale(pages: list[Page], data: dict | None, pinned: str = "") -> list[str]:
    """What the data file lacks or has too much of, compared with the pages; empty if current."""
    pinned = pinned or locked_versions()["jax"]
    if data is None:
        return [f"no {DATA.as_posix()}: run `nox -s matrix`"]
    problems = []
    if pinned not in {r["jax"] for r in tested(data)}:
        problems.append(f"the data has no run of the pinned jax {pinned}")
    page_ids = {claim.id: page.path for page in pages for claim in page.claims}
    aliases = data.get("aliases", {})
    known = set(page_ids) | {aliases[i] for i in page_ids if i in aliases}
    for release in tested(data):
        recorded = release["verdicts"]
        missing = sorted(i for i in page_ids if recorded_id(data, release, i) not in recorded)
        extra = sorted(set(recorded) - known)
        if missing:
            problems.append(f"jax {release['jax']}: no verdict for {', '.join(missing)}")
        if extra:
            problems.append(f"jax {release['jax']}: no page has {', '.join(extra)}")
    return problems


def summary(pages: list[Page], data: dict | None) -> str:
    """The build's one line on the data: current, or what makes it stale."""
    if problems := stale(pages, data):
        return "jitdocs: compatibility data is STALE, run `nox -s matrix`: " + "; ".join(problems)
    return f"jitdocs: compatibility data: {len(tested(data))} releases, up to date"


def _anchor(release: dict, claim_id: str) -> str:
    return "broke-" + re.sub(r"[^a-z0-9]+", "-", f"{release['jax']}-{claim_id}".lower())


def cells(data: dict | None, claim_id: str) -> str:
    """One cell per tested release: ✓ holds, ✗ broke (a link to what), a dash: not run."""
    out = ""
    for release in tested(data):
        found = verdict(data, release, claim_id)
        if found == HOLDS:
            out += " ✓ |"
        elif found == BROKEN:
            out += f" [✗](#{_anchor(release, recorded_id(data, release, claim_id))}) |"
        else:
            out += f" {DASH} |"
    return out


def not_holding(data: dict | None, claim_ids: list[str]) -> Counter:
    """How many claims did not hold, keyed by verdict and release: ``{"broken on 0.10.2": 1}``."""
    found = ((verdict(data, r, c), r["jax"]) for r in tested(data) for c in claim_ids)
    return Counter(f"{word} on {jax}" for word, jax in found if word != HOLDS)


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


def _code_spans(text: str) -> str:
    parts = text.split("`")
    return "".join(
        f"<code>{html.escape(p)}</code>" if n % 2 else html.escape(p) for n, p in enumerate(parts)
    )


def details(data: dict | None) -> str:
    """Below the table: the releases tested, the ones that did not install, and what broke."""
    if not tested(data):
        return ""
    columns = "; ".join(
        f"JAX {r['jax']} (jaxlib {r['jaxlib']}, Python {r['python']}, {r['date']})"
        for r in tested(data)
    )
    lines = ["", f"Columns: {columns}. ✓ holds, ✗ broken, {DASH} not run.", ""]
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
    checks, failed_on = failing_checks(page, data)
    ids = [claim.id for claim in page.claims]
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


def failing_checks(page: Page, data: dict | None) -> tuple[set[str], list[str]]:
    """The page's plain checks ("path:line") that fail on a tested release, and those releases."""
    checks, failed_on = set(), {}
    for release in tested(data):
        for other in release.get("other", []):
            if other.startswith(f"{page.path}:"):
                checks.add(other.split(": ", 1)[0])
                failed_on[release["jax"]] = True
    return checks, list(failed_on)


def _and(words: list[str]) -> str:
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def _not_holding_words(data: dict, claim_ids: list[str]) -> str:
    """``1 broken on 0.11.2, 3 not run on 0.9.2 and 0.10.2``: one group per verdict and count."""
    groups: dict[tuple[str, int], list[str]] = {}
    for release in tested(data):
        found = [verdict(data, release, c) for c in claim_ids]
        for verdict_, count in Counter(found).items():
            if verdict_ != HOLDS:
                groups.setdefault((verdict_, count), []).append(release["jax"])
    return ", ".join(f"{count} {word} on {_and(jax)}" for (word, count), jax in groups.items())


def page_badge(page: Page, data: dict | None, here: str) -> str:
    """One short line under the title: how many claims hold on the pinned JAX, then, quieter,
    how older releases differ; both link to the page's table in the version notes, with the
    whole sentence (``page_note``) as the tooltip."""
    note = page_note(page, data, here)
    if not note:
        return ""
    releases = tested(data)
    pinned = next((r for r in releases if r["jax"] == locked_versions()["jax"]), releases[-1])
    ids = [claim.id for claim in page.claims]
    held = sum(not not_holding({**data, "releases": [pinned]}, [claim_id]) for claim_id in ids)
    on = f"on the pinned JAX {pinned['jax']}"
    if not ids:
        text = f"✓ No claims; every check passes {on}"
    elif held == len(ids):
        text = "✓ " + ("The claim holds" if held == 1 else f"All {held} claims hold") + f" {on}"
    else:
        text = f"⚠ {held} of {len(ids)} claims hold {on}"
    link = posixpath.relpath(NOTES_PAGE, posixpath.dirname(here)) + "#" + notes_anchor(page.path)
    plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", note).replace('"', "'")
    older = _older_note([r for r in releases if r is not pinned], page, data, ids)
    quiet = f" [{older}]({link}){{ .jd-compat .jd-compat--older }}" if older else ""
    return f'[{text}]({link} "{plain}"){{ .jd-compat }}{quiet}'


def _older_note(older: list[dict], page: Page, data: dict, ids: list[str]) -> str:
    """``Older JAX: 1 claim differs on 0.11.2``; "" when the older releases agree."""
    failing = failing_checks(page, {**data, "releases": older})[1]
    differ = [r["jax"] for r in older if not_holding({**data, "releases": [r]}, ids)]
    differ += [jax for jax in failing if jax not in differ]
    if not differ:
        return ""
    count = sum(bool(not_holding({**data, "releases": older}, [claim_id])) for claim_id in ids)
    what = f"{count} claim{'s' if count != 1 else ''}" if count else "a check"
    verb = "differ" if count > 1 else "differs"
    return f"Older JAX: {what} {verb} on {_and(differ)}"


def notes_anchor(path: str) -> str:
    """The id of a page's table on the version-notes page."""
    return "notes-" + re.sub(r"[^a-z0-9]+", "-", page_stem(path))


def title_badge(page: Page, data: dict | None, device: dict | None = None) -> str:
    """The page badge, for the line after the H1 of course and track pages; then, for a page
    recorded on an accelerator, how many of its claims hold there."""
    badge = page_badge(page, data, page.path) if page.path.startswith(policy().noted_pages) else ""
    badge = " ".join(filter(None, [badge, device_badge(page, device or {})]))
    return f"\n{badge}\n" if badge else ""


def device_badge(page: Page, device: dict) -> str:
    """``On a TPU v5e: 6 of 8 claims hold``, linked to the page's table; "" if not recorded."""
    record = accelerator.page_record(device, page)
    if record is None or not page.claims:
        return ""
    found = [record["verdicts"].get(c.id, {}).get("verdict") for c in page.claims]
    held = found.count(HOLDS)
    where = accelerator.device_name(record)
    text = f"On a {where}: " + (
        f"all {held} claims hold" if held == len(found) else f"{held} of {len(found)} claims hold"
    )
    link = posixpath.relpath(NOTES_PAGE, posixpath.dirname(page.path)) + "#" + notes_anchor(page.path)
    return f"[{text}]({link}){{ .jd-compat .jd-compat--older }}"


def device_cell(device: dict, page: Page, claim_id: str) -> str:
    """The accelerator's cell: ✓ holds, ✗ broke (a link to what), a dash: not recorded."""
    record = accelerator.page_record(device, page)
    found = (record or {}).get("verdicts", {}).get(claim_id, {}).get("verdict")
    if found == BROKEN:
        return f" [✗](#{_anchor({'jax': 'device'}, claim_id)}) |"
    return " ✓ |" if found == HOLDS else f" {DASH} |"


def device_details(pages: dict[str, Page], device: dict) -> str:
    """What failed on the accelerator, claim by claim, with why (its page's device-note)."""
    lines = []
    for page in pages.values():
        record = accelerator.page_record(device, page)
        for claim in page.claims if record else []:
            found = record["verdicts"].get(claim.id, {})
            if found.get("verdict") == BROKEN:
                why = page.blocks[claim.blocks[0]].device_note or ""
                lines += [
                    f"**{accelerator.device_name(record)}**, {_code_spans(found['where'])}: "
                    f"{html.escape(why)} Recorded: {_code_spans(found['error'])}"
                    f"\n{{: #{_anchor({'jax': 'device'}, claim.id)} }}",
                    "",
                ]
    if not lines:
        return ""
    records = {accelerator.device_name(r): r for r in device.get("pages", {}).values()}
    column = "; ".join(
        f"{name}: JAX {r['versions']['jax']}, libtpu {r['versions'].get('libtpu', DASH)}, "
        f"recorded {r['date']} with `nox -s accelerator`"
        for name, r in records.items()
    )
    return "\n".join(["", f"Accelerator column: {column}.", "", *lines])


# ---------------------------------------------------------------- the version-notes page


def render(
    pages: dict[str, Page], data: dict | None, env: dict, page_path: str, device: dict | None = None
) -> str:
    """Every ❌/✅ contract and fact on the site, one collapsible table per page (collapsed unless
    a claim broke: long open tables cost phones hundreds of milliseconds of layout)."""
    here = posixpath.dirname(page_path)
    device = device or {}
    names = "".join(f" JAX {r['jax']} |" for r in tested(data))  # a column per release
    kinds = {accelerator.device_name(r) for r in device.get("pages", {}).values()}
    names += "".join(f" {kind} |" for kind in sorted(kinds)[:1])  # the recorded accelerator
    separators = " :-: |" * (len(tested(data)) + min(len(kinds), 1))
    sections = []
    for path, parsed in sorted(pages.items()):
        rows, claim_ids = claim_rows(parsed, posixpath.relpath(path, here), data)
        if kinds:
            rows = [row + device_cell(device, parsed, c) for row, c in zip(rows, claim_ids, strict=True)]
        if not rows:
            continue
        broken = any(verdict(data, r, c) == BROKEN for r in tested(data) for c in claim_ids)
        fold = "???+" if broken else "???"
        count = f"{len(rows)} claim{'s' if len(rows) != 1 else ''}"
        summary = f"{parsed.title or path}: {count}, {status(data, claim_ids)}"
        table = f"| Proof | What the build checks |{names}\n| --- | --- |{separators}\n"
        body = labels.indent(table + "\n".join(rows))
        title = summary.replace(chr(34), chr(39))
        anchor = f'<a id="{notes_anchor(path)}"></a>\n\n'  # where the page's own badge links
        sections.append(f'{anchor}{fold} abstract "{title}"\n\n{body}\n')
    if not sections:
        return "No contracts or facts on the site yet.\n"
    tail = details(data) + device_details(pages, device)
    return f"{verified_with(env)}\n\n" + "\n".join(sections) + tail


def claim_rows(parsed: Page, target: str, data: dict | None) -> tuple[list[str], list[str]]:
    """One table row per contract and fact of a page, and the claims' matrix ids."""
    rows = []
    for claim in parsed.claims:
        block = parsed.blocks[claim.blocks[0]]
        if claim.kind == "contract":
            what = f"❌ {labels.headline(block.bad)} ({labels.table_cell(block.section)})"
        else:
            what = labels.table_cell(block.fact)
        link = f"[{claim.anchor.replace('-', ' ')}]({target}#{claim.anchor})"
        rows.append(f"| {link} | {what} |{cells(data, claim.id)}")
    return rows, [claim.id for claim in parsed.claims]


def verified_with(env: dict) -> str:
    """One sentence for the JAX the build itself ran every page with."""
    if not env:
        return "This build ran no page."
    return (
        f"This build checked every claim below by running its page with JAX {env['jax']}. "
        "Open a page to see each claim, the section it comes from, "
        "a link to the code that proves it and its verdict on each release tested."
    )
