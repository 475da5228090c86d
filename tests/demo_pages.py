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


RENDEZVOUS = """\
import json, os, pathlib, time
log, started = pathlib.Path({log_dir!r}), time.time()
(log / "{name}.started").write_text("")
deadline = time.monotonic() + 60
while not all((log / f"{{other}}.started").exists() for other in {wait_for!r}):
    assert time.monotonic() < deadline, "the other pages never ran beside this one"
    time.sleep(0.01)
"""


RECORD = """
record = {{"pid": os.getpid(), "start": started, "end": time.time()}}
(log / "{name}.json").write_text(json.dumps(record))
"""


def recording(log_dir, name: str, wait_for: tuple[str, ...] = (), then: str = "") -> str:
    """A block that records its process, its start and its end in ``log_dir/name.json``, after
    waiting until the pages named in ``wait_for`` have started: a rendezvous that completes only
    when they run at the same time (60 s without them fails the block)."""
    fields = {"log_dir": str(log_dir), "name": name, "wait_for": list(wait_for)}
    code = RENDEZVOUS.format(**fields) + textwrap.dedent(then) + RECORD.format(**fields)
    return fence(code)
