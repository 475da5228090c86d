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
from engine.run.compatibility import (
    BROKEN,
    DATA,
    HOLDS,
    not_holding,
    on_release,
    orphans,
    pinned_release,
    recorded,
    recorded_id,
    tested,
    unchecked,
    verdict,
    version_key,
)
from engine.run.environment import locked_versions
from engine.site import labels

NOTES_PAGE = "docs/reference/version-notes.md"
DASH = "\N{EN DASH}"  # for ranges and the not-run cell
UNCHECKED = "not yet checked on other releases"  # a claim added or edited since the matrix ran


def stale(pages: list[Page], data: dict | None, pinned: str = "") -> list[str]:
    """What makes the data file unusable; empty if it can be rendered. A claim it has no
    verdict for is "not yet checked on other releases" (``unchecked``), and a verdict of a claim
    no page has is left for the page's next run to clear (``orphans``): neither forces a run."""
    pinned = pinned or locked_versions()["jax"]
    if data is None:
        return [f"no {DATA.as_posix()}: run `nox -s matrix`"]
    if pinned not in {r["jax"] for r in tested(data)}:
        return [f"the data has no run of the pinned jax {pinned}"]
    return []


def summary(pages: list[Page], data: dict | None) -> str:
    """The build's one line on the data: usable or not, and what waits for a page's run."""
    if problems := stale(pages, data):
        return "jitdocs: compatibility data is STALE: " + "; ".join(problems)
    line = f"jitdocs: compatibility data: {len(tested(data))} releases"
    if waiting := unchecked(pages, data):
        line += f"; {len(waiting)} claim(s) {UNCHECKED} (nox -s matrix -- --page <page>)"
    for command, ids in orphans(pages, data).items():
        line += f"; {len(ids)} verdict(s) of claims no page has ({command} clears them)"
    return line


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


def status(data: dict | None, claim_ids: list[str]) -> str:
    """A page's claims in words: ``all hold on JAX 0.9.2-0.12.0.1``, or what did not. A claim
    only the pinned release has a verdict for (this build's run) is counted there."""
    releases = tested(data)
    if not releases:
        return "no release tested"
    checked = [c for c in claim_ids if recorded(data, c)]
    waiting = [c for c in claim_ids if c not in checked]
    pinned = pinned_release(releases)
    ran = on_release(data, pinned, waiting)
    tail = [f"{len(waiting)} {UNCHECKED}"] if waiting else []
    failing = not_holding(data, checked) + not_holding({**data, "releases": [pinned]}, ran)
    if failing:
        return ", ".join([*(f"{count} {what}" for what, count in failing.items()), *tail])
    if not checked and not ran:
        return tail[0]
    span = f"{releases[0]['jax']}{DASH}{releases[-1]['jax']}" if checked else pinned["jax"]
    verb = "holds" if len(checked or ran) == 1 else "all hold"
    return ", ".join([f"{verb} on JAX {span}", *tail])


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
    legend = f"✓ holds, ✗ broken, {DASH} not run (or {UNCHECKED})"
    lines = ["", f"Columns: {columns}. {legend}.", ""]
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
    return "\n".join(lines + _plain_failures(data)) + "\n"


def _plain_failures(data: dict) -> list[str]:
    """The checks outside claims that broke, then the timings a busy machine left unmeasured."""
    lines = []
    others = [(r["jax"], *o.split(": ", 1)) for r in tested(data) for o in r.get("other", [])]
    if others:
        lines += ["Other checks that broke (asserts in plain examples, timing claims):", ""]
    for jax, where, error in others:
        lines += [f"- **JAX {jax}**, {_code_spans(where)}: {_code_spans(error)}"]
    busy = [(r["jax"], o) for r in tested(data) for o in r.get("not_measured", [])]
    if busy:
        head = "Timing checks not recorded: the machine was busy when they ran (not a JAX change):"
        lines += ["", head, ""]
    for jax, what in busy:
        lines += [f"- **JAX {jax}**, {_code_spans(what)}"]
    return lines


def page_note(page: Page, data: dict | None, here: str) -> str:
    """The line under a course or track page's title; "" with no claim and nothing failing."""
    releases = tested(data)
    checks, failed_on = failing_checks(page, data)
    every = [claim.id for claim in page.claims]
    ids = [claim_id for claim_id in every if recorded(data, claim_id)]
    waiting = len(every) - len(ids)
    if not releases or (not every and not checks):
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
    if waiting:
        parts.append(_waiting_words(data, [c for c in every if c not in ids]))
    return "; ".join(parts) + "."


def _waiting_words(data: dict, waiting: list[str]) -> str:
    """``2 claims on this page are not yet checked on other releases``, saying that they hold on
    the pinned JAX when its record (this build's run) has them all holding."""
    pinned = pinned_release(tested(data))
    one = len(waiting) == 1
    ran = on_release(data, pinned, waiting)
    held = len(ran) == len(waiting) and not not_holding({**data, "releases": [pinned]}, ran)
    there = f"{'holds' if one else 'hold'} on the pinned JAX {pinned['jax']} and " if held else ""
    return f"{_claims(len(waiting))} on this page {there}{'is' if one else 'are'} {UNCHECKED}"


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
    how older and newer releases differ and how many claims are not yet checked on them; each
    links to the page's table in the version notes, with the whole sentence (``page_note``) as
    the tooltip."""
    note = page_note(page, data, here)
    if not note:
        return ""
    releases = tested(data)
    pinned = pinned_release(releases)
    every = [claim.id for claim in page.claims]
    ids = [claim_id for claim_id in every if recorded(data, claim_id)]
    ran = on_release(data, pinned, every)  # the build's own run, or the matrix's
    held = sum(verdict(data, pinned, claim_id) == HOLDS for claim_id in ran)
    on = f"on the pinned JAX {pinned['jax']}"
    if not every:
        text = f"✓ No claims; every check passes {on}"
    elif not ran:
        text = f"{_claims(len(every))} {UNCHECKED}"
    elif held == len(ran):
        text = "✓ " + ("The claim holds" if held == 1 else f"All {held} claims hold") + f" {on}"
    else:
        text = f"⚠ {held} of {len(ran)} claims hold {on}"
    link = posixpath.relpath(NOTES_PAGE, posixpath.dirname(here)) + "#" + notes_anchor(page.path)
    plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", note).replace('"', "'")
    others = [r for r in releases if r is not pinned]
    key = version_key(pinned["jax"])
    quiet = [
        _differ_note(word, [r for r in others if side(version_key(r["jax"]), key)], page, data, ids)
        for word, side in (("Older", lambda a, b: a < b), ("Newer", lambda a, b: a > b))
    ]
    if ran and len(ids) < len(every):  # else the main text says so
        quiet.append(f"{_claims(len(every) - len(ids))} {UNCHECKED}")
    tail = "".join(f" [{q}]({link}){{ .jd-compat .jd-compat--older }}" for q in quiet if q)
    return f'[{text}]({link} "{plain}"){{ .jd-compat }}{tail}'


def _claims(count: int) -> str:
    return f"{count} claim{'s' if count != 1 else ''}"


def _differ_note(word: str, group: list[dict], page: Page, data: dict, ids: list[str]) -> str:
    """``Older JAX: 1 claim differs on 0.11.2`` (or ``Newer JAX: ...``); "" when they agree."""
    failing = failing_checks(page, {**data, "releases": group})[1]
    differ = [r["jax"] for r in group if not_holding({**data, "releases": [r]}, ids)]
    differ += [jax for jax in failing if jax not in differ]
    if not differ:
        return ""
    count = sum(bool(not_holding({**data, "releases": group}, [claim_id])) for claim_id in ids)
    what = _claims(count) if count else "a check"
    verb = "differ" if count > 1 else "differs"
    return f"{word} JAX: {what} {verb} on {_and(differ)}"


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
    held = "all" if found.count(HOLDS) == len(found) else f"{found.count(HOLDS)} of"
    text = f"On a {accelerator.device_name(record)}: {held} {len(found)} claims hold"
    link = (
        posixpath.relpath(NOTES_PAGE, posixpath.dirname(page.path)) + "#" + notes_anchor(page.path)
    )
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
        f"recorded {r['date']} with `nox -s accelerator`, {labels.floor_words(r)}"
        for name, r in records.items()
    )
    checkers = labels.checkers_words(device)
    return "\n".join(["", f"Accelerator column: {column}.", "", checkers, "", *lines])


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
            rows = [
                row + device_cell(device, parsed, c) for row, c in zip(rows, claim_ids, strict=True)
            ]
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
