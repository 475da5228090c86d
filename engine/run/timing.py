"""Which code measures time. A page that makes a timing claim runs with nothing beside it, in the
build and in the tests; every other page may share the CPU with other work.

The rule reads the code, not a list: a page measures time when its blocks, or a project module
they import, call one of jitkit's claim helpers. Code run beside other work gets
``SHARED_CPU_VARIABLE`` in its environment, and jitkit then refuses any claim (``SharedCPUError``),
so a claim the rule missed fails loudly instead of measuring noise.
"""

from __future__ import annotations

from engine.page.model import Page
from engine.run.cache import project_files

CLAIM_HELPERS = ("assert_faster", "claim_ratio")  # snippets/jitkit.py: the only ways to claim
HELPERS_HOME = "snippets/jitkit.py"  # defines the helpers: naming them there is no claim

# Read by snippets/jitkit.py, which may not import the engine (tests/test_run.py checks they agree).
SHARED_CPU_VARIABLE = "JITDOCS_SHARED_CPU"


def measures_time(page: Page) -> bool:
    """Does the page's code, or a project module it imports, call a claim helper?"""
    return uses_claim_helpers([block.source for block in page.blocks])


def uses_claim_helpers(sources: list[str]) -> bool:
    """Do these sources, or a project module they import, name a claim helper?"""
    modules = project_files(sources)
    modules.pop(HELPERS_HOME, None)
    return names_claim_helper("\n".join([*sources, *modules.values()]))


def names_claim_helper(code: str) -> bool:
    return any(helper in code for helper in CLAIM_HELPERS)
