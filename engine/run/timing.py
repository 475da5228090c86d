"""Which code measures time. A page that makes a timing claim runs with nothing beside it, in the
build and in the tests; every other page may share the CPU with other work.

The rule reads the code, not a list: a page measures time when its blocks, or a project module
they import, call one of jitkit's claim helpers (jitkit records each claim, so a claim made any
other way is caught: ``refuse_shared_cpu`` fails it wherever the CPU is shared).
"""

from __future__ import annotations

import os

from engine.page.model import Page
from engine.run.cache import project_files

CLAIM_HELPERS = ("assert_faster", "claim_ratio")  # snippets/jitkit.py: the only ways to claim
HELPERS_HOME = "snippets/jitkit.py"  # defines the helpers: naming them there is no claim

# Set where other work runs beside the code: a page the build runs side by side with others,
# a pytest-xdist worker. Child processes inherit it.
SHARED_CPU_VARIABLE = "JITDOCS_SHARED_CPU"

HOW_TO_MARK = (
    "Code that makes a timing claim must run alone. Call assert_faster or claim_ratio from the "
    "page's code or a snippet it imports (the build and the tests then find it and run it "
    "alone), or mark a Python test that makes one indirectly with @pytest.mark.timing."
)


def measures_time(page: Page) -> bool:
    """Does the page's code, or a project module it imports, call a claim helper?"""
    return uses_claim_helpers([block.source for block in page.blocks])


def uses_claim_helpers(sources: list[str]) -> bool:
    modules = project_files(sources)
    modules.pop(HELPERS_HOME, None)
    code = "\n".join([*sources, *modules.values()])
    return any(helper in code for helper in CLAIM_HELPERS)


def shared_cpu() -> str:
    """What shares the CPU with this process ("" when nothing is said to)."""
    return os.environ.get(SHARED_CPU_VARIABLE, "")


def refuse_shared_cpu(where: str, labels: list[str]) -> str | None:
    """The failure message for timing claims recorded while the CPU is shared, else None."""
    beside = shared_cpu()
    if not labels or not beside:
        return None
    claims = ", ".join(repr(label) for label in labels)
    return (
        f"{where}: a timing claim ({claims}) was measured while other work ran beside it "
        f"({beside}), so its numbers mean nothing. {HOW_TO_MARK}"
    )
