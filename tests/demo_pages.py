"""Small made-up pages for the layer tests: ``page(text)`` parses one, ``fence`` writes a block."""

from __future__ import annotations

import textwrap

from engine.page.parser import parse_page


def page(text: str, path: str = "docs/demo/test-page.md", root=None):
    kwargs = {"root": root} if root else {}
    return parse_page(path, textwrap.dedent(text), **kwargs)


def fence(code: str, *markers: str) -> str:
    lines = [f"<!-- {m} -->" for m in markers]
    return "\n".join([*lines, "```python", textwrap.dedent(code).strip(), "```", ""])


PAIR_GOOD = fence("print('fixed')", "good")
