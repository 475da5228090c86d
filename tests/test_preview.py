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

from tests import tiers
from tests.helpers import CONFIG

# `mkdocs serve` on a throwaway project: the engine's preview, no page of the site among its
# inputs; the default tier runs it when the engine or this file changed, the full tier always.
pytestmark = tiers.only_when_changed("engine/", "tests/helpers.py", "tests/test_preview.py")

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


def start_preview(root: Path, files: dict[str, str], log: Path, **env: str):
    """Write the project's ``files`` and start ``mkdocs serve`` on it, its log going to ``log``."""
    for name, text in {"mkdocs.yml": CONFIG + "watch:\n  - snippets\n", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--no-strict", "-a", f"127.0.0.1:{port}"],
        cwd=root,
        env=dict(os.environ, NO_MKDOCS_2_WARNING="1", **env),
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
    )
    return f"http://127.0.0.1:{port}/", server


@pytest.fixture
def preview(tmp_path: Path):
    files = {
        "docs/index.md": PAGE,
        "docs/broken.md": BROKEN,
        "snippets/index/greet.py": "print('first version')\n",
    }
    url, server = start_preview(tmp_path, files, tmp_path.parent / f"{tmp_path.name}.log")
    try:
        yield tmp_path, url, server
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


SLOW = """\
import os, time
from pathlib import Path

Path(os.environ["PREVIEW_FLAG"]).write_text("the page is running")
time.sleep(3)
print("second version")
"""


def test_a_file_saved_while_a_page_runs_rebuilds_instead_of_failing(tmp_path: Path):
    """Saving a page (and a new note) while ``serve`` runs that page's code is the user's doing:
    one line in the log, the page not kept, a rebuild; a strict build would stop on it."""
    root, flag, log = tmp_path / "project", tmp_path / "running", tmp_path / "serve.log"
    files = {"docs/index.md": PAGE, "snippets/index/greet.py": "print('first version')\n"}
    url, server = start_preview(root, files, log, PREVIEW_FLAG=str(flag))
    try:
        wait_for(url, "first version", server)
        (root / "snippets" / "index" / "greet.py").write_text(SLOW)  # a rebuild runs it
        deadline = time.monotonic() + WAIT_SECONDS
        while not flag.exists():
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        (root / "notes.txt").write_text("a note saved during the preview\n")
        (root / "docs" / "index.md").write_text(PAGE.replace("\n\n", "\n\nEdited.\n\n", 1))
        page = wait_for(url, "Edited.", server)
        assert "second version" in page and "This page's code failed" not in page
        found = log.read_text()
        assert "the project changed while the page ran: " in found, found
        assert "docs/index.md (changed), notes.txt (added); shown but not kept" in found, found
        assert "Traceback" not in found and "ERROR" not in found, found
    finally:
        server.terminate()
        server.wait(timeout=30)
