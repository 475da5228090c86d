"""`mkdocs serve` on a throwaway project with the real hook: a snippet edit re-runs its page, and a
failing page shows its error in the browser instead of stopping the preview."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.helpers import CONFIG

PAGE = "# Greeting\n\n<!-- snippet: greet -->\n"
BROKEN = "# Broken\n\n```python\nraise KeyError('no such thing')\n```\n"
WAIT_SECONDS = 180  # a cold start imports JAX in the page's process; a loaded machine is slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except OSError:
        return ""


def wait_for(url: str, text: str, server: subprocess.Popen) -> str:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        assert server.poll() is None, "the preview server stopped"
        page = fetch(url)
        if text in page:
            return page
        time.sleep(0.5)
    raise AssertionError(f"{url} never showed {text!r}; last seen:\n{fetch(url)[-2000:]}")


@pytest.fixture
def preview(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "snippets" / "index").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text(CONFIG + "watch:\n  - snippets\n")
    (tmp_path / "docs" / "index.md").write_text(PAGE)
    (tmp_path / "docs" / "broken.md").write_text(BROKEN)
    (tmp_path / "snippets" / "index" / "greet.py").write_text("print('first version')\n")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--no-strict", "-a", f"127.0.0.1:{port}"],
        cwd=tmp_path,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield tmp_path, f"http://127.0.0.1:{port}/", server
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_snippet_edit_reruns_its_page_and_a_failing_page_shows_its_error(preview):
    root, url, server = preview
    wait_for(url, "first version", server)

    broken = wait_for(url + "broken/", "This page's code failed", server)
    assert "docs/broken.md:3" in broken and "KeyError" in broken  # file, line and message

    (root / "snippets" / "index" / "greet.py").write_text("print('second version')\n")
    wait_for(url, "second version", server)  # the watcher saw snippets/ and re-ran the page
