"""Page processes forked from a warm one (engine.run.zygote): each page still starts JAX itself,
with its own settings and scratch folder, and a change to what the modules come from, or a
parent that ends, leaves no warm process behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest
from test_terminal import gone, needs_proc

from engine.page.model import ROOT
from engine.run import zygote
from engine.run.child import ONE_PROCESS_VARIABLE
from engine.run.pages import run_page
from engine.run.timing import SHARED_CPU_VARIABLE
from tests.helpers import fence, page

pytestmark = pytest.mark.skipif(not zygote.available(), reason="zygotes need Linux")

# Where the page ran, and whether JAX's backend was still to start there: the option below is
# refused once it has started.
REPORT = f"""\
import json, os, tempfile
jax.config.update("jax_num_cpu_devices", 2)
print(json.dumps({{
    "parent": os.getppid(),
    "leads_session": os.getsid(0) == os.getpid(),
    "devices": jax.device_count(),
    "scratch": tempfile.gettempdir(),
    "shared": os.environ.get("{SHARED_CPU_VARIABLE}"),
}}))
"""


def report(**how) -> dict:
    return json.loads(run_page(page(fence(REPORT)), **how).outcomes[0].output)


def test_pages_fork_from_one_warm_process_and_each_starts_jax_itself():
    first, second = report(shared_cpu="one page beside"), report(shared_cpu="two pages beside")
    assert first["parent"] == second["parent"] != os.getpid()  # the zygote, not this process
    assert first["leads_session"] and second["leads_session"]
    assert first["devices"] == second["devices"] == 2  # neither found a backend started
    assert first["scratch"] != second["scratch"]
    assert "jitdocs-page-" in first["scratch"] and "jitdocs-page-" in second["scratch"]
    assert (first["shared"], second["shared"]) == ("one page beside", "two pages beside")


@pytest.mark.parametrize("how", ["no zygotes here", "one process on the device"])
def test_without_a_zygote_the_page_process_starts_afresh(how, monkeypatch):
    if how == "no zygotes here":
        monkeypatch.setattr(zygote, "available", lambda: False)
    else:
        monkeypatch.setenv(ONE_PROCESS_VARIABLE, "1")
    assert report()["parent"] == os.getpid()


@needs_proc
def test_a_change_to_what_the_modules_come_from_ends_the_old_zygotes():
    zygote.modules_from({"engine": "before"})
    before = report()["parent"]
    zygote.modules_from({"engine": "after"})
    assert gone(before), "the old zygote still runs"
    assert report()["parent"] != before


@needs_proc
def test_a_zygote_that_ended_while_idle_is_replaced():
    ended = report()["parent"]
    os.kill(ended, signal.SIGKILL)
    assert gone(ended)
    assert report()["parent"] not in (ended, os.getpid())


@needs_proc
def test_a_zygote_ends_with_the_process_that_started_it():
    """Even a parent that ends without its exit handlers (killed) leaves no zygote behind."""
    script = (
        "import os, sys\n"
        "from engine.run.pages import run_page\n"
        "from tests.helpers import fence, page\n"
        "result = run_page(page(fence('import os; print(os.getppid())')))\n"
        "print(result.outcomes[0].output, flush=True)\n"
        "os._exit(0)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "snippets")])}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert done.returncode == 0, done.stderr
    assert gone(int(done.stdout)), "the zygote outlived its parent"
