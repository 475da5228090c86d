"""``docs/data/accelerator.json``: the claims and the ``device``-marked outputs of some pages as a
TPU ran them. ``nox -s accelerator`` (``engine.tools.accelerator``) records it on such a machine;
the build renders it, so no build and no test needs one.

Each record names what produced it: a claim by its id (a hash of its code, ``engine.page.claims``),
an output by ``output_id`` (likewise), so a record whose code changed is found by ``stale``.
"""

from __future__ import annotations

import ast
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


# The line that opens a notebook setup cell's records of where its claims do not hold
# (engine/site/differences.py); a notebook run's key leaves out what follows it.
RECORDS_HEAD = "# Some checks below are recorded as not holding on a TPU or under another JAX."


# A notebook runs each block of a claim recorded as not holding somewhere inside this context
# manager (snippets/known_differences.py; engine/site/differences.py says which blocks).
WRAPPER = "recorded_differences"


def wrap(source: str, claim_id: str) -> str:
    """``source`` inside ``with recorded_differences(claim_id):``. Lines that continue a string
    across lines are left as they are, so the string's text does not change."""
    inside = _string_continuations(source)
    lines = [
        line if number in inside or not line.strip() else "    " + line
        for number, line in enumerate(source.rstrip("\n").splitlines(), start=1)
    ]
    return f"with {WRAPPER}({claim_id!r}):\n" + "\n".join(lines) + "\n"


def unwrapped(source: str) -> str:
    """The block's own code from a wrapped cell (``wrap``'s inverse), or ``source`` unchanged."""
    head, _, body = source.partition("\n")
    if not (head.startswith(f"with {WRAPPER}(") and head.endswith("):")):
        return source
    inside = _string_continuations(source)
    lines = [
        line if number in inside else line.removeprefix("    ")
        for number, line in enumerate(body.splitlines(), start=2)
    ]
    return "\n".join(lines) + "\n"


def _string_continuations(source: str) -> set[int]:
    """The numbers of the lines that continue a string literal begun on an earlier line."""
    inside = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant | ast.JoinedStr) and node.end_lineno != node.lineno:
            inside.update(range(node.lineno + 1, node.end_lineno + 1))
    return inside


def notebook_key(notebook: dict) -> str:
    """What a recorded notebook run stands for: every code cell without its comments (the
    install cell's name the site's address), blank lines, the wrappers and the records handed to
    them (a new record changes which checks report, not what runs)."""
    sources = [
        "\n".join(
            line
            for line in unwrapped(cell["source"].partition(RECORDS_HEAD)[0]).splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        )
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
    ]
    return hashlib.sha256("\n\0".join(sources).encode()).hexdigest()[:16]


def notebook_runs(data: dict, page: Page, notebook: dict) -> list[dict]:
    """The recorded runs of the page's notebook that ran its current code."""
    entry = data.get("notebooks", {}).get(page_stem(page.path))
    return entry["runs"] if entry and entry["key"] == notebook_key(notebook) else []


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"pages": {}}


def save(data: dict, path: Path) -> None:
    """The data file as the recorder and ``prune`` write it: pages in order, one key a line."""
    data["pages"] = dict(sorted(data.get("pages", {}).items()))
    if "notebooks" in data:
        data["notebooks"] = dict(sorted(data["notebooks"].items()))
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
    recorded = set(record.get("outputs", {}))
    other = [o for o in record.get("other", []) if _block_unchanged(o, page, recorded)]
    return {**record, "verdicts": verdicts, "outputs": outputs, "other": other}


def _block_unchanged(failure: str, page: Page, recorded: set[str]) -> bool:
    """Whether the block a failure outside any claim names (``path:line: what``, the line of its
    fence or directive, or one inside its code) is still the block that was recorded."""
    line = int(failure.split(":")[1])
    starts = [i for i, block in enumerate(page.blocks) if block.line <= line]
    return not starts or output_id(page, starts[-1]) in recorded


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
