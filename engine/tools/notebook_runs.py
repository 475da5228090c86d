"""Each downloadable notebook run as a reader's "Run all" runs it, in a real kernel on the machine
the recorder is on: ``nox -s accelerator -- notebooks`` (MAINTAINERS.md, "Recording on an
accelerator"). The run is kept in ``docs/data/accelerator.json`` under ``notebooks``, one per
JAX version, with the key of the code it ran (``accelerator.notebook_key``), so
``tests/test_accelerator.py`` finds a run whose notebook has changed since.

The kernel is ipykernel's, driven by nbclient, over Unix sockets: the accelerator machine lets a
program open no TCP socket, not even on the loopback. Only the kernel's pipe for the output of
processes it forks (it binds a TCP port) is left out; the notebooks' processes print through
``subprocess``'s captured output, which needs no pipe.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from engine.page.model import ROOT, Page, page_stem
from engine.run import accelerator
from engine.tools import drift

CELL_TIMEOUT = 600  # seconds, as tests/test_notebooks.py gives a cell
REPORTED = "⚠ This check is recorded as not holding here"  # known_differences.HEADLINE
LAUNCH = "\n".join(
    [
        "from ipykernel import iostream",
        "iostream.IOPubThread._setup_pipe_in = lambda self: setattr(self, '_pipe_flag', False)",
        "from ipykernel.kernelapp import launch_new_instance",
        "launch_new_instance()",
    ]
)
# Run after the notebook, in its kernel: what it ran on, as the kernel's own imports say.
PROBE = """\
import importlib.metadata as _m, json as _j, sys as _s, jax as _jax
_v = {"python": _s.version.split()[0]}
for _n in ("jax", "jaxlib", "libtpu"):
    try:
        _v[_n] = _m.version(_n)
    except _m.PackageNotFoundError:
        pass
_d = _jax.devices()
_r = {"platform": _d[0].platform, "kind": _d[0].device_kind, "count": len(_d), "versions": _v}
print("JITDOCS-RUNTIME " + _j.dumps(_r))
"""


@contextlib.contextmanager
def kernel(python: str):
    """A kernel manager for ``python`` that talks over Unix sockets in a new short folder."""
    with tempfile.TemporaryDirectory(prefix="jd-k-", dir="/tmp") as folder:
        spec = Path(folder, "kernels", "reader")
        spec.mkdir(parents=True)
        argv = [python, "-c", LAUNCH, "-f", "{connection_file}"]
        (spec / "kernel.json").write_text(
            json.dumps({"argv": argv, "display_name": "reader", "language": "python"}), "utf-8"
        )
        specs = KernelSpecManager(kernel_dirs=[str(spec.parent)])
        yield (
            KernelManager(
                kernel_name="reader", transport="ipc", ip=f"{folder}/k", kernel_spec_manager=specs
            ),
            folder,
        )


BUSY = "libtpu multi-process lockfile"  # JAX's error when another process holds the chip


def run(notebook: dict, python: str = sys.executable, env: dict | None = None, tries: int = 2):
    """``once``, again after a pause while the chip was still held by the kernel before (a TPU
    admits one process, and lets the next one in a few seconds after the last has gone)."""
    executed, kept = once(notebook, python, env)
    for _ in range(tries - 1):
        if not any(BUSY in failure for failure in kept["stopped"]):
            break
        time.sleep(15)
        executed, kept = once(notebook, python, env)
    return executed, kept


def once(notebook: dict, python: str = sys.executable, env: dict | None = None):
    """Run every cell in a new kernel, going on past errors so that each failing cell is known;
    returns the executed notebook and what happened (the first failing cell is where "Run all"
    would have stopped: a cell tagged ``raises-exception`` never stops it)."""
    copy = nbformat.from_dict(json.loads(json.dumps(notebook)))
    copy.cells.append(nbformat.v4.new_code_cell(PROBE))
    started = time.monotonic()
    with kernel(python) as (manager, folder):
        client = NotebookClient(
            copy,
            km=manager,
            timeout=CELL_TIMEOUT,
            allow_errors=True,
            shutdown_kernel="graceful",  # JAX lets the chip go as the kernel exits
            resources={"metadata": {"path": folder}},
        )
        try:
            # A client given a manager leaves its kernel running unless told (cleanup_kc): a kernel
            # left over keeps the TPU, and every later kernel fails on libtpu's lockfile.
            client.execute(env=dict(os.environ) if env is None else env, cleanup_kc=True)
        finally:
            if manager.has_kernel and manager.is_alive():
                manager.shutdown_kernel(now=True)
    *cells, probe = copy.cells
    copy.cells = cells
    return copy, summary(cells, probe, time.monotonic() - started)


def _text(cell) -> str:
    return "".join(out.get("text", "") for out in cell.get("outputs", []))


def summary(cells: list, probe, seconds: float) -> dict:
    """The run as the data file keeps it."""
    code = [(n, c) for n, c in enumerate(cells, start=1) if c.cell_type == "code"]
    failed = [
        f"cell {n}: {err.ename}: {(err.evalue or '').strip().partition(chr(10))[0]}"
        for n, cell in code
        if "raises-exception" not in cell.metadata.get("tags", [])
        for err in [o for o in cell.outputs if o.output_type == "error"][:1]
    ]
    runtime = next(
        (
            json.loads(line.split(" ", 1)[1])
            for line in _text(probe).splitlines()
            if line.startswith("JITDOCS-RUNTIME ")
        ),
        {"platform": "?", "kind": "?", "count": 0, "versions": {}},
    )
    return {  # the device as the page records name it (accelerator.device_name reads it)
        "device": f"{runtime['platform']} ({runtime['kind']}, {runtime['count']} device(s))",
        "versions": runtime["versions"],
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "seconds": round(seconds, 1),
        "cells": len(code),
        "ran": sum(cell.get("execution_count") is not None for _, cell in code),
        "stopped": failed,  # empty: "Run all" reaches the end
        "reported": sum(REPORTED in _text(cell) for _, cell in code),
    }


def device_cells(page: Page, executed, data: dict) -> tuple[int, int]:
    """How many of the notebook's ``device`` cells printed what the page's record holds
    (timings masked), of how many."""
    record = accelerator.page_record(data, page) or {"outputs": {}}
    wanted = {
        page.blocks[i].source.strip(): record["outputs"].get(accelerator.output_id(page, i))
        for i, block in enumerate(page.blocks)
        if block.device
    }
    matched = 0
    for cell in executed.cells:
        source = accelerator.unwrapped(cell.source).strip() if cell.cell_type == "code" else ""
        if (kept := wanted.get(source)) is not None:
            matched += drift.mask(_text(cell).strip()) == drift.mask(kept.strip())
    return matched, len(wanted)


def built(page: Page, folder: Path) -> dict:
    """The page's notebook as the build wrote it (``nox -s docs`` writes ``site/``)."""
    path = folder / (page_stem(page.path) + ".ipynb")
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no notebook for {page.path}; build the site first")
    return json.loads(path.read_text(encoding="utf-8"))


def record(
    pages: list[Page],
    data_path: Path,
    python: str,
    folder: Path = ROOT / "site",
    again: bool = False,
    pythonpath: str | None = None,
) -> dict:
    """Run each page's built notebook not yet run for its current code with ``python``'s JAX
    (``pythonpath``: the kernel's own, e.g. the folder of a machine's JAX), saving after each
    one (a run cut off goes on where it stopped)."""
    env = dict(os.environ) | ({"PYTHONPATH": pythonpath} if pythonpath else {})
    for page in pages:
        data = accelerator.load(data_path)
        notebook = built(page, folder)
        entry = data.setdefault("notebooks", {}).setdefault(page_stem(page.path), {"runs": []})
        current = entry.get("key") == accelerator.notebook_key(notebook)
        # A run whose kernel never reported its runtime (device "?") is not a record: run it again.
        done = [r for r in entry["runs"] if r.get("kernel") == python and r["versions"].get("jax")]
        if current and not again and done:
            print(f"notebooks: {page.path}: current, skipped", file=sys.stderr, flush=True)
            continue
        try:
            executed, run_record = run(notebook, python, env)
        except Exception as error:  # a kernel that died is the runner's news, not the notebook's
            print(f"notebooks: {page.path}: not recorded: {error!r}", file=sys.stderr, flush=True)
            continue
        run_record["kernel"] = python
        run_record["device_cells"] = list(device_cells(page, executed, data))
        jax_version = run_record["versions"].get("jax")
        kept = [
            r
            for r in entry["runs"]
            if current and r["versions"].get("jax") not in (jax_version, None)
        ]
        entry.update(key=accelerator.notebook_key(notebook), runs=[*kept, run_record])
        accelerator.save(data, data_path)
        print(
            f"notebooks: {page.path}: {run_record['ran']}/{run_record['cells']} cells ran, "
            f"{len(run_record['stopped'])} failed, {run_record['reported']} reported, "
            f"{run_record['seconds']:.0f} s on {run_record['device']} with JAX {jax_version}",
            file=sys.stderr,
            flush=True,
        )
    return accelerator.load(data_path)
