"""Where a page's claims are recorded as not holding, for its notebook: on the accelerator
(``docs/data/accelerator.json``) and on other JAX releases (``docs/data/compatibility.json``).

The notebook wraps each block of such a claim in ``known_differences.recorded_differences``, so
on a runtime that the records name (a TPU, an older JAX) the block reports what differs instead
of stopping "Run all"; on any other runtime, the CPU with the pinned JAX included, it fails as
the page's own check does.
"""

from __future__ import annotations

from pathlib import Path

from engine.page.model import Block, Page
from engine.run import accelerator, compatibility
from engine.run.environment import locked_versions

MODULE = "known_differences"  # snippets/known_differences.py, bundled into the notebook
IMPORT = f"from {MODULE} import RECORDED, {accelerator.WRAPPER}"


def _first_line(error: str) -> str:
    """What failed, without the claim's sentence the notebook shows beside it already."""
    line = error.strip().splitlines()[0] if error.strip() else "it failed"
    return line.partition(" no longer holds: ")[2] or line


def on_device(page: Page, device: dict) -> dict[str, list[dict]]:
    """The page's claims that fail on the recorded accelerator, each with its device-note."""
    record = accelerator.page_record(device, page)
    if not record:
        return {}
    platform = record.get("device", "").split(" ")[0]
    on = f"{accelerator.device_name(record)} with JAX {record['versions']['jax']}"
    notes = {claim.id: page.blocks[claim.blocks[0]].device_note for claim in page.claims}
    return {
        claim_id: [
            {
                "platform": platform,
                "on": on,
                "note": notes[claim_id] or "",
                "recorded": _first_line(verdict.get("error", "")),
            }
        ]
        for claim_id, verdict in record.get("verdicts", {}).items()
        if verdict["verdict"] == compatibility.BROKEN and claim_id in notes
    }


def on_releases(page: Page, data: dict | None, pinned: str) -> dict[str, list[dict]]:
    """The page's claims that fail under another JAX release the matrix recorded (on a CPU)."""
    found: dict[str, list[dict]] = {}
    for release in compatibility.tested(data):
        if release.get("jax") in (None, pinned):
            continue
        for claim in page.claims:
            verdict = release["verdicts"].get(compatibility.recorded_id(data, release, claim.id))
            if verdict and verdict["verdict"] == compatibility.BROKEN:
                found.setdefault(claim.id, []).append(
                    {
                        "jax": ".".join(release["jax"].split(".")[:2]),
                        "on": f"JAX {release['jax']} on a CPU",
                        "recorded": _first_line(verdict.get("error", "")),
                    }
                )
    return found


def recorded(page: Page, device: dict, data: dict | None, pinned: str) -> dict[str, list[dict]]:
    """Every record of the page's claims not holding somewhere, device records first."""
    found = on_device(page, device)
    for claim_id, records in on_releases(page, data, pinned).items():
        found.setdefault(claim_id, []).extend(records)
    return {claim.id: found[claim.id] for claim in page.claims if claim.id in found}


def from_files(page: Page, root: Path) -> dict[str, list[dict]]:
    """``recorded`` from the data files under ``root`` (the run step passes what it loaded)."""
    device = accelerator.load(root / accelerator.DATA)
    data = compatibility.load(root / compatibility.DATA)
    return recorded(page, device, data, locked_versions(root)["jax"])


def wrapped_blocks(page: Page, records: dict[str, list[dict]]) -> dict[int, str]:
    """Block index -> the claim id its cell is wrapped in: every block of a recorded claim but
    a ❌ block that raises (its cell must raise; ``raises-exception`` lets the notebook go on)."""
    return {
        index: claim.id
        for claim in page.claims
        if claim.id in records
        for index in claim.blocks
        if not _raises(page.blocks[index]) and not page.blocks[index].file
    }


def _raises(block: Block) -> bool:
    return bool(block.bad and block.bad.mode == "raises")


def setup_lines(records: dict[str, list[dict]]) -> list[str]:
    """The setup cell's lines that hand the records to the bundled module."""
    if not records:
        return []
    lines = [
        "",
        accelerator.RECORDS_HEAD,
        "# On such a runtime they print what differs and why instead of stopping the notebook;",
        "# everywhere else they fail as on the site.",
        IMPORT,
        "",
        "RECORDED.update({",
    ]
    for claim_id, entries in records.items():
        lines.append(f"    {claim_id!r}: [")
        lines += [f"        {entry!r}," for entry in entries]
        lines.append("    ],")
    return [*lines, "})"]
