"""The site's claims and ``device`` outputs on an accelerator: ``nox -s accelerator``.

``wheels`` (where a package index is reachable) downloads the pinned JAX with its TPU extra and
the run layer's packages as wheels for the target Python, cut into parts a device call can carry;
``engine/tools/accelerator_setup.sh`` installs them on the offline machine. ``record`` (there)
runs each page of ``pages()`` and saves its record into ``docs/data/accelerator.json`` after each
page, skipping pages whose record is current, so a run cut off anywhere goes on where it stopped.
MAINTAINERS.md ("Recording on an accelerator") gives the steps.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import time
from datetime import UTC, datetime
from pathlib import Path

from engine.page.model import ROOT, Page, page_stem
from engine.page.parser import read_pages
from engine.page.policy import wants_notebook
from engine.run import accelerator, child
from engine.run.environment import environment_fingerprint, installed_version, locked_versions
from engine.run.pages import run_page
from engine.run.results import PageFailure
from engine.run.timing import measures_time
from engine.tools import checker_runs, drift, matrix, notebook_runs, solutions

# What page processes need besides JAX: the engine's parser (mkdocs' front matter), charts, Sybil.
RUN_LAYER = (
    *("numpy", "scipy", "ml-dtypes", "opt-einsum", "matplotlib", "mkdocs", "sybil", "pyyaml"),
    *("filelock", "flatbuffers"),  # the persistent cache's bound; serialized executables
    *("nbclient", "ipykernel"),  # the notebooks, run in a real kernel (notebook_runs.py)
)
PART_BYTES = 56 * 2**20  # a device call carries 64 MiB, the working tree included
WHEELS = ROOT / ".cache" / "accelerator"
# manylinux tags pip must accept by name; libtpu's wheels are manylinux_2_31.
PLATFORMS = (
    "manylinux_2_17_x86_64",
    "manylinux2014_x86_64",
    "manylinux_2_27_x86_64",
    "manylinux_2_28_x86_64",
    "manylinux_2_31_x86_64",
)


def pages(all_pages: list[Page]) -> list[Page]:
    """The pages to record, in site order: every page with a notebook (a notebook wraps the claims
    its page's record says fail there, so that it runs on), and every page that measures time."""
    return [p for p in all_pages if p.blocks and (wants_notebook(p.path) or measures_time(p))]


# ---------------------------------------------------------------- recording


def versions() -> dict:
    """The installed JAX, jaxlib and device plugin (libtpu, or a jax-cuda plugin) and Python."""
    fingerprint = environment_fingerprint()
    found = {name: fingerprint["versions"][name] for name in ("jax", "jaxlib")}
    if libtpu := installed_version("libtpu"):
        found["libtpu"] = libtpu
    found.update(dict(p.split("==") for p in fingerprint["plugins"]))
    return {**found, "python": sys.version.split()[0]}


def record_page(page: Page) -> dict:
    """Run the page once, going on past a failed block (each process start opens the chip, which
    takes seconds), and keep each claim's verdict, each block's text and the device's name."""
    started = time.monotonic()
    failed: list = []
    try:
        result = run_page(page, failures=failed)
        outcomes, environment = result.outcomes, result.environment
    except PageFailure as stop:  # a timeout or a crash: the blocks after it never ran
        failed.append(stop.failure)
        outcomes, environment = [], {}
    outcomes += [None] * (len(page.blocks) - len(outcomes))
    findings = [drift.classify(failure, page) for failure in failed]
    in_claims = {i for claim in page.claims for i in claim.blocks}
    return {
        "device": environment.get("device", ""),
        "versions": versions(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "seconds": round(time.monotonic() - started, 1),
        "verdicts": matrix.verdicts(page, findings, outcomes),
        "outputs": {  # every block's: the page shows the ``device`` ones beside its own
            accelerator.output_id(page, i): text
            for i, outcome in enumerate(outcomes)
            if outcome is not None and not outcome.skipped and (text := drift.block_text(outcome))
        },
        "other": [f"{f.where}: {f.summary}" for f in findings if f.index not in in_claims],
    }


def record(chosen: list[Page], data_path: Path, again: bool = False) -> dict:
    """Record each page not yet current for the installed versions, saving after each one."""
    # The chip admits one process: what a page's code starts (a fresh Python to show a cache or
    # a flag) runs on the CPU, and says so in its output (engine.run.child).
    os.environ[child.ONE_PROCESS_VARIABLE] = "1"
    data = accelerator.load(data_path)
    now = versions()
    started, done, floor = time.monotonic(), 0, None
    for page in chosen:
        old = accelerator.page_record(data, page)
        current = not accelerator.stale(old, page) and old["versions"] == now
        if not again and current and accelerator.floor(old):  # no floor: recorded again
            print(f"accelerator: {page.path}: current, skipped", file=sys.stderr, flush=True)
            continue
        print(f"accelerator: {page.path} ...", file=sys.stderr, flush=True)
        floor = floor or machine_floor()  # once a recording, before its first page runs
        entry = {**record_page(page), "floor": floor}
        data.setdefault("pages", {})[page_stem(page.path)] = entry
        accelerator.save(data, data_path)
        held = sum(v["verdict"] == "holds" for v in entry["verdicts"].values())
        print(
            f"accelerator: {page.path}: {held}/{len(entry['verdicts'])} claims hold, "
            f"{len(entry['outputs'])} outputs, {entry['seconds']:.0f} s on {entry['device']}",
            file=sys.stderr,
            flush=True,
        )
        done += 1
    print(
        f"accelerator: {done} page(s) recorded in {time.monotonic() - started:.0f} s",
        file=sys.stderr,
    )
    return data


def machine_floor() -> dict:
    """What an empty jitted call takes on this machine, the floor under every timing recorded
    here (``engine.tools.per_call_floor``), measured in a process of its own that has left the
    chip before a page's process opens it."""
    done = subprocess.run(
        [sys.executable, "-m", "engine.tools.per_call_floor"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"accelerator: measuring the per-call floor failed:\n{done.stderr}")
    floor = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"accelerator: per-call floor {floor}", file=sys.stderr, flush=True)
    return floor


def prune(chosen: list[Page], data: dict, site: Path = ROOT / "site") -> None:
    """Drop the records whose code changed since: those blocks and claims show as not recorded,
    a notebook (as written under ``site``) as not run there, and the checkers, if one of them or
    a solution changed, as not run there."""
    notebooks = data.get("notebooks", {})
    for page in chosen:
        if kept := accelerator.page_record(data, page):
            data["pages"][page_stem(page.path)] = accelerator.prune(kept, page)
        if page_stem(page.path) in notebooks and not accelerator.notebook_runs(
            data, page, notebook_runs.built(page, site)
        ):
            del notebooks[page_stem(page.path)]
    if data.get("checkers", {}).get("key") not in (None, solutions.key()):
        del data["checkers"]


def record_checkers(data_path: Path, again: bool = False) -> int:
    """Every checker over its reference and wrong solutions on this machine (``checker_runs``),
    kept with the key of the files that decide it, unless that is recorded already for these
    versions; 1 when one judged wrong."""
    old = accelerator.load(data_path).get("checkers", {})
    if not again and old.get("key") == solutions.key() and old.get("versions") == versions():
        print("accelerator: checkers: current, skipped", file=sys.stderr)
        return 0 if all(v["right"] for v in old["verdicts"].values()) else 1
    started = time.monotonic()
    os.environ[child.ONE_PROCESS_VARIABLE] = "1"  # the chip admits one process
    verdicts = checker_runs.run_all()
    data = accelerator.load(data_path)
    data["checkers"] = {
        "device": checker_runs.device(),
        "versions": versions(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "seconds": round(time.monotonic() - started, 1),
        "key": solutions.key(),
        "verdicts": {i: checker_runs.brief(v) for i, v in verdicts.items()},
    }
    accelerator.save(data, data_path)
    for checker_id, verdict in verdicts.items():
        print(checker_runs.summary(checker_id, verdict), file=sys.stderr)
    return 0 if all(v["right"] for v in verdicts.values()) else 1


# ---------------------------------------------------------------- wheels for an offline machine


def wheels(out: Path, python: str = "3.12") -> list[Path]:
    """Download the pinned ``jax[tpu]`` and the run layer for ``python``, pinned by ``uv.lock``
    where it pins them, as one tar cut into parts of at most ``PART_BYTES``; returns the parts."""
    pins = locked_versions()
    folder = out / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    constraints = out / "constraints.txt"
    constraints.write_text("".join(f"{n}=={v}\n" for n, v in sorted(pins.items())), "utf-8")
    tags = [arg for platform in (*PLATFORMS, "any") for arg in ("--platform", platform)]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--only-binary=:all:",
            "--python-version",
            python,
            "--implementation",
            "cp",
            "--abi",
            "cp" + python.replace(".", ""),
            *tags,
            "-c",
            str(constraints),
            "-d",
            str(folder),
            f"jax[tpu]=={pins['jax']}",
            *(f"{n}=={pins[n]}" for n in RUN_LAYER),
        ],
        check=True,
    )
    for old in out.glob("part-*"):
        old.unlink()
    bundle = out / "wheels.tar"
    with tarfile.open(bundle, "w") as tar:
        for wheel in sorted(folder.glob("*.whl")):
            tar.add(wheel, arcname=wheel.name)
    parts = []
    with bundle.open("rb") as whole:
        while chunk := whole.read(PART_BYTES):
            parts.append(out / f"part-{len(parts):02d}")
            parts[-1].write_bytes(chunk)
    bundle.unlink()
    sums = "".join(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}\n" for p in parts)
    (out / "parts.sha256").write_text(sums, encoding="utf-8")
    return parts


# ---------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.tools.accelerator", description=__doc__)
    verbs = parser.add_subparsers(dest="verb", required=True)
    get = verbs.add_parser("wheels", help="download the pinned jax[tpu] and cut it into parts")
    get.add_argument("--python", default="3.12")
    get.add_argument("--out", type=Path, default=WHEELS)
    run = verbs.add_parser("record", help="record pages on this machine's accelerator")
    run.add_argument("pages", nargs="*", help="pages to record (default: every page it covers)")
    run.add_argument("--again", action="store_true", help="record current pages again")
    run.add_argument("--data", type=Path, default=ROOT / accelerator.DATA)
    verbs.add_parser("pages", help="list the pages a full recording covers, and what is recorded")
    cut = verbs.add_parser("prune", help="drop records whose code is no longer on their page")
    cut.add_argument("--site", type=Path, default=ROOT / "site", help="where the .ipynb files are")
    judge = verbs.add_parser("checkers", help="run every checker on its solutions, record it")
    judge.add_argument("--data", type=Path, default=ROOT / accelerator.DATA)
    judge.add_argument("--again", action="store_true", help="run them again though current")
    book = verbs.add_parser("notebooks", help="run the built notebooks in a kernel, record them")
    book.add_argument("pages", nargs="*", help="pages whose notebooks to run (default: all)")
    book.add_argument("--site", type=Path, default=ROOT / "site", help="where the .ipynb files are")
    book.add_argument("--kernel-python", default=sys.executable, help="the kernel's Python")
    book.add_argument("--kernel-pythonpath", help="the kernel's PYTHONPATH (a machine's own JAX)")
    book.add_argument("--again", action="store_true", help="run current notebooks again")
    book.add_argument("--data", type=Path, default=ROOT / accelerator.DATA)
    args = parser.parse_args(argv)
    if args.verb == "wheels":
        parts = wheels(args.out, args.python)
        size = sum(p.stat().st_size for p in parts) / 2**20
        print(f"accelerator: {len(parts)} parts, {size:.0f} MiB, in {args.out}")
        return 0
    if args.verb == "checkers":
        return record_checkers(args.data, args.again)
    if args.verb == "notebooks":
        chosen = [p for p in read_pages(args.pages) if wants_notebook(p.path)]
        data = notebook_runs.record(
            chosen, args.data, args.kernel_python, args.site, args.again, args.kernel_pythonpath
        )
        runs = [data["notebooks"].get(page_stem(p.path), {}).get("runs") for p in chosen]
        return 1 if any(not run or run[-1]["stopped"] for run in runs) else 0
    chosen = pages(read_pages([]))
    data = accelerator.load(ROOT / accelerator.DATA)
    if args.verb == "pages":
        for page in chosen:
            kept = accelerator.page_record(data, page) or {"verdicts": {}, "outputs": {}}
            claims, outputs = accelerator.wanted(page)
            have = len(claims & set(kept["verdicts"])), len(outputs & set(kept["outputs"]))
            print(
                f"{page.path}: {have[0]}/{len(claims)} claims, {have[1]}/{len(outputs)} "
                "device outputs recorded"
            )
        return 0
    if args.verb == "prune":
        prune(chosen, data, args.site)
        accelerator.save(data, ROOT / accelerator.DATA)
        return 0
    if args.pages:
        chosen = read_pages(args.pages)
    record(chosen, args.data, args.again)
    return 0


if __name__ == "__main__":
    sys.exit(main())
