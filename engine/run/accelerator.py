"""``docs/data/accelerator.json``: the claims and the ``device``-marked outputs of some pages as a
TPU ran them. ``nox -s accelerator`` (``engine.tools.accelerator``) records it on such a machine;
the build renders it, so no build and no test needs one.

Each record names what produced it: a claim by its id (a hash of its code, ``engine.page.claims``),
an output by ``output_id`` (likewise), so a record whose code changed is found by ``stale``.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from engine.page.claims import normalized
from engine.page.model import Page, page_stem
from engine.run.files import write_if_changed

DATA = Path("docs") / "data" / "accelerator.json"
REFRESH = (
    "nox -s accelerator -- record {page}  (on a TPU machine: MAINTAINERS.md, 'Recording on an "
    "accelerator'); or `nox -s accelerator -- prune` here, and the page shows it as not recorded"
)
# A page recorded before the recorder measured the machine's per-call floor is recorded again by
# a plain `record`, which then keeps the floor with it (engine.tools.accelerator).
FLOOR_COMMAND = (
    "nox -s accelerator -- record  (on a TPU machine: MAINTAINERS.md, 'Recording on an "
    "accelerator'; it records again each page whose record holds no floor)"
)
# A duration as the pages print one: "569 µs", "1,553 µs", "0.21 ms", "-102.88 ns", "0.12 sec".
DURATION = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)? ?(?:ns|µs|us|ms|s|sec)\b")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"pages": {}}


def save(data: dict, path: Path) -> None:
    """The data file as the recorder and ``prune`` write it: pages in order, one key a line."""
    data["pages"] = dict(sorted(data.get("pages", {}).items()))
    write_if_changed(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def output_id(page: Page, index: int) -> str:
    """``beyond/accelerators/output-1a2b3c4d``: the page and a hash of the block's code."""
    code = normalized(page.blocks[index].source)
    return f"{page_stem(page.path)}/output-{hashlib.sha256(code.encode()).hexdigest()[:8]}"


def wanted(page: Page) -> tuple[set[str], set[str]]:
    """The claim ids and the ``device`` blocks' output ids a current record must hold (it holds
    every block's output; the page shows the ``device`` ones)."""
    outputs = {output_id(page, i) for i, block in enumerate(page.blocks) if block.device}
    return {claim.id for claim in page.claims}, outputs


def stale(record: dict | None, page: Page) -> list[str]:
    """What in the page's record no longer matches its code ([] when it is current)."""
    if record is None:
        return [f"{page.path}: not recorded on an accelerator"]
    claims, outputs = wanted(page)
    problems = []
    for kind, want, have in (
        ("claim", claims, set(record.get("verdicts", {}))),
        ("output", outputs, set(record.get("outputs", {}))),
    ):
        problems += [f"{page.path}: {kind} {i} is not recorded" for i in sorted(want - have)]
    return problems + gone(record, page)


def gone(record: dict | None, page: Page) -> list[str]:
    """The page's records whose code is no longer on it: a block edited since its recording."""
    record = record or {}
    kept = prune(record, page)
    ids = (set(record.get("verdicts", {})) - set(kept["verdicts"])) | (
        set(record.get("outputs", {})) - set(kept["outputs"])
    )
    return [f"{page.path}: recorded {i} is no longer on the page" for i in sorted(ids)]


def prune(record: dict, page: Page) -> dict:
    """The record without what is no longer on the page (those blocks show as not recorded)."""
    claims = {claim.id for claim in page.claims}
    on_page = {output_id(page, i) for i in range(len(page.blocks))}
    verdicts = {k: v for k, v in record.get("verdicts", {}).items() if k in claims}
    outputs = {k: v for k, v in record.get("outputs", {}).items() if k in on_page}
    return {**record, "verdicts": verdicts, "outputs": outputs}


def page_record(data: dict, page: Page) -> dict | None:
    return data.get("pages", {}).get(page_stem(page.path))


def output(data: dict, page: Page, index: int) -> tuple[str, dict] | None:
    """The recorded text of a ``device`` block, and its page's record (for the device's name)."""
    record = page_record(data, page)
    if record is None or not page.blocks[index].device:
        return None
    text = record.get("outputs", {}).get(output_id(page, index))
    return None if text is None else (text, record)


KINDS = {"TPU v5 lite": "TPU v5e"}  # JAX's device_kind -> the name the chip is sold under


def device_name(record: dict) -> str:
    """``tpu (TPU v5 lite, 1 device(s))`` -> ``TPU v5e``."""
    kind = record.get("device", "").partition("(")[2].partition(",")[0] or "accelerator"
    return KINDS.get(kind, kind)


def holds_timing(text: str) -> bool:
    """Whether a recorded output prints a duration, which then needs the floor beside it."""
    return bool(DURATION.search(text))


def floor(record: dict | None) -> dict | None:
    """What an empty jitted call took on the machine that recorded the page (``empty_call_us``
    until its result was ready, ``call_returns_us`` until the call returned), measured once per
    recording; None for a page recorded before the recorder measured it."""
    found = (record or {}).get("floor")
    return found if found and found.get("empty_call_us") else None
