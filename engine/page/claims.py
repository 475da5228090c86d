"""Claims: every ❌/✅ contract and every ``fact`` block of a page, with a stable id.

A claim's id is the page (relative to ``docs/``, without ``.md``), the kind and a hash of its
code with blank lines and trailing spaces dropped, e.g. ``course/pitfalls/contract-1a2b3c4d``:
moving the block or editing the prose around it keeps the id; editing its code makes a new one.
The build renders the ids (version notes, page notes); ``nox -s matrix`` records verdicts by them.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from engine.page.model import Page, page_stem


@dataclass(frozen=True)
class Claim:
    id: str
    kind: Literal["contract", "fact"]
    blocks: tuple[int, ...]  # the ❌ and ✅ blocks of a contract; a fact's own block
    anchor: str  # its element id on the page: contract-N or fact-N, counted per kind


def normalized(source: str) -> str:
    return "\n".join(line.rstrip() for line in source.splitlines() if line.strip())


def find_claims(page: Page) -> list[Claim]:
    """Every contract and fact on the page, in page order, with its stable id and its anchor
    (the parser stores them as ``page.claims``)."""
    stem = page_stem(page.path)
    found, seen, counts = [], Counter(), Counter()
    for index, block in enumerate(page.blocks):
        kinds = [("contract", (index, index + 1))] if block.bad else []
        kinds += [("fact", (index,))] if block.fact else []
        for kind, indexes in kinds:
            code = "\n".join(normalized(page.blocks[i].source) for i in indexes)
            base = f"{stem}/{kind}-{hashlib.sha256(code.encode()).hexdigest()[:8]}"
            seen[base] += 1  # the same code twice on a page: number the repeats
            counts[kind] += 1
            claim_id = base if seen[base] == 1 else f"{base}-{seen[base]}"
            found.append(Claim(claim_id, kind, indexes, f"{kind}-{counts[kind]}"))
    return found


def by_block(page: Page) -> dict[tuple[int, str], Claim]:
    """The page's claims by (the index of their first block, kind)."""
    return {(claim.blocks[0], claim.kind): claim for claim in page.claims}
