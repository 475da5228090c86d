"""How a failing example reads under pytest (engine/run/sybil_setup.py): reported once, with the
line its test id names."""

from __future__ import annotations

import os
import subprocess
import sys

CONFTEST = """\
from sybil import Sybil

from engine.run.sybil_setup import parse_blocks, setup, teardown

pytest_collect_file = Sybil(
    parsers=[parse_blocks], patterns=["*.md"], path=".", setup=setup, teardown=teardown
).pytest()
"""
PAGE = "# Demo\n\nSome prose.\n\n<!-- fact: two beats three -->\n```python\nassert 2 > 3\n```\n"


def test_a_failing_example_is_reported_once_at_its_fence_line(project_folder):
    (project_folder / "conftest.py").write_text(CONFTEST)
    (project_folder / "page.md").write_text(PAGE)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--rootdir", "."],
        cwd=project_folder,
        # as on a terminal: under CI, pytest's short summary repeats the whole message
        env={k: v for k, v in os.environ.items() if k not in ("CI", "BUILD_NUMBER")},
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "page.md::line:6" in output  # the test id: the fence opens on line 6...
    assert "page.md:6: the fact 'two beats three' does not hold" in output  # ...as the message
    assert "During handling of the above exception" not in output
    assert output.count("Traceback (most recent call last)") == 1, output  # reported once
