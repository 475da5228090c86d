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


def one_block(code: str) -> str:
    return f"```python\n{code}\n```\n"


def test_a_page_that_asks_for_cpu_devices_first_runs_in_a_process_of_its_own(project_folder):
    """The test process starts JAX's backend on the first page that computes; a later page whose
    first block asks for several CPU devices still gets them, and the pages after it keep one."""
    (project_folder / "conftest.py").write_text(CONFTEST)
    one_device = one_block("assert float(jnp.ones(3).sum()) == 3.0 and jax.device_count() == 1")
    (project_folder / "a_computes.md").write_text("# A\n\n" + one_device)
    (project_folder / "b_devices.md").write_text(
        "# B\n\n"
        + one_block('jax.config.update("jax_num_cpu_devices", 2)')
        + "\n"
        + one_block("assert jax.device_count() == 2, jax.devices()")
    )
    (project_folder / "c_after.md").write_text("# C\n\n" + one_device)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--rootdir", "."],
        cwd=project_folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "4 passed" in output, output
