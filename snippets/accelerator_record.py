"""What a TPU printed for a block of this site, read from the recording that
`nox -s accelerator -- record` keeps in docs/data/accelerator.json, so that a chart can show it
beside this build's numbers. The recording is data: nothing here runs on an accelerator."""

from __future__ import annotations

import json
import re
from pathlib import Path

# Read at run time: part of the cache key of every page that imports this module, and bundled
# with its notebook (engine.run.imports.project_files, which reads this line as a literal).
READS_AT_RUN_TIME = ("docs/data/accelerator.json",)
DATA = READS_AT_RUN_TIME[0]
ROOT = Path(__file__).resolve().parent.parent  # the project, or the notebook's unpacked folder
KINDS = {"TPU v5 lite": "TPU v5e"}  # JAX's device_kind, and the name the chip is sold under
UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9}
SECONDS = r"(\d+(?:\.\d+)?(?:e[+-]?\d+)?) (s|ms|µs|ns)\b"  # as jitkit's Timing prints them


class RecordMissing(LookupError):
    """The recording has no usable output for what was asked; the message names the file."""


def recorded_output(page: str, *starts: str, data: Path | None = None) -> tuple[str, dict]:
    """The text a TPU printed for the one block of ``page`` (``"course/why-compile"``) whose
    output has a line starting with each of ``starts``, and that page's record (its device,
    date and versions)."""
    path = data or ROOT / DATA
    if not path.is_file():
        raise RecordMissing(f"{path}: no such file; record it with `nox -s accelerator`")
    record = json.loads(path.read_text(encoding="utf-8")).get("pages", {}).get(page)
    if record is None:
        raise RecordMissing(f"{path}: page {page!r} is not recorded")
    found = [
        text
        for text in record.get("outputs", {}).values()
        if all(any(line.startswith(s) for line in text.splitlines()) for s in starts)
    ]
    if len(found) != 1:
        raise RecordMissing(
            f"{path}: {len(found)} recorded outputs of {page!r} have lines starting with "
            f"{list(starts)}; expected exactly one"
        )
    return found[0], record


def seconds_after(text: str, label: str) -> float:
    """The first duration printed after ``label`` at the start of a line: ``14.6 ms`` -> 0.0146."""
    for line in text.splitlines():
        if line.startswith(label) and (match := re.search(SECONDS, line[len(label) :])):
            return float(match[1]) * UNITS[match[2]]
    raise RecordMissing(f"{DATA}: no duration after {label!r} in the recorded text:\n{text}")


def device_label(record: dict) -> str:
    """``TPU v5e (recorded 2026-12-06)``, from ``tpu (TPU v5 lite, 1 device(s))`` and the date."""
    kind = re.search(r"\((.+?),", record.get("device", ""))
    name = kind[1] if kind else record.get("device", "accelerator")
    return f"{KINDS.get(name, name)} (recorded {record.get('date', 'on an unknown date')})"


def floor_label(record: dict) -> str:
    """``an empty jitted call there: 565 µs``: the per-call floor measured when the page was
    recorded, under which no call there goes; says so when that recording did not measure it."""
    floor = record.get("floor") or {}
    if not floor.get("empty_call_us"):
        return "its per-call floor not recorded"
    return f"an empty jitted call there: {floor['empty_call_us']:,.0f} µs"
