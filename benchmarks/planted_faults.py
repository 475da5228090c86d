"""Plant each fault the default tier must catch (issue #63) and show that it does: `nox -s faults`.

Each fault is one contributor's edit to one file, made in a throwaway clone of HEAD whose `main`
is HEAD, so that the edit is all that changed since main, as for a pull request from a fresh
clone (a worktree would share this repository's `main`, and with it every change of the branch
it is run from). The clone gets this checkout's run cache, so the build runs no page code the
edit did not change. There `nox -s tests` runs the default tier, restricted to the tests that
prove the property (the tier's selection still applies). Then the edit is undone and the same
tests are collected again: a failing test missing from that collection is outside the sample,
and ran only because the edit touched its subjects.

Prints a table: the kind, the edit, the failing tests, how many of them are outside the sample,
how many tests ran (then how many the sample and the full tier hold), and the seconds the default
tier took. Exits 1 when a fault was not caught. Each run's output is kept in .cache/faults/.
`nox -s faults -- checker contrast` plants only those kinds.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PARTS = "\n...\n"  # an edit in two places of its file
RUN_CACHE = ".cache/jitdocs"  # engine/page/policy.py's cache_dir
FAILED = re.compile(r"^FAILED (\S+)", re.MULTILINE)
SITE_DIR = re.compile(r"mkdocs build --strict --quiet --site-dir (\S+)")
SUMMARY = re.compile(r"^=+ (\d+ (?:failed|passed).*?) in [\d.]+s", re.MULTILINE)
LOGS = ROOT / ".cache" / "faults"  # each run's output, by kind


@dataclass
class Fault:
    kind: str
    edit: str  # what the contributor did, for the table
    path: str  # the one file edited
    old: str  # replaced once (each of old's parts by new's, split on PARTS); fails if moved
    new: str
    tests: list[str]  # pytest arguments: the files (and -k) that prove the property
    expect: str  # a failing test's node id must match this


FAULTS = [
    Fault(
        "contrast",
        "faint grey text on one page outside the survey sample",
        "docs/course/loops.md",
        "\n## ",
        '\n<p style="color: #d0d0d0">A note a contributor greyed out by hand.</p>\n\n## ',
        ["tests/browser/test_pages.py", "-k", "axe_finds_no_serious and not navigation"],
        r"test_axe_finds_no_serious_violation\[course/loops/",
    ),
    Fault(
        "example",
        "a wrong expected value in one page's example",
        "docs/course/classes-and-pytrees.md",
        "assert np.allclose(total(Weights(one, two)), 8.0)",
        "assert np.allclose(total(Weights(one, two)), 9.0)",
        ["docs/course/classes-and-pytrees.md"],
        r"^docs/course/classes-and-pytrees\.md::",
    ),
    Fault(
        "checker",
        "newton_sqrt's checker accepts any number as the iteration count",
        "snippets/_checks/newton_sqrt.py",
        "jnp.issubdtype(steps.dtype, jnp.integer)",
        "jnp.issubdtype(steps.dtype, jnp.number)",
        ["tests/test_exercises.py", "-k", "wrong_solution_fails"],
        r"test_wrong_solution_fails_the_named_check\[newton_sqrt/wrong_float_count\]",
    ),
    Fault(
        "notebook",
        "the notebook generator no longer tags a ❌ cell that raises",
        "engine/site/notebooks.py",
        'if block.bad and block.bad.mode == "raises":',
        'if block.bad and block.bad.mode == "raise":',
        ["tests/test_notebooks.py", "-k", "is_the_code_the_build_ran"],
        r"test_notebook_is_the_code_the_build_ran\[",
    ),
    Fault(
        "zensical",
        "the renderer adds the set-up link only where MkDocs builds a notebook view",
        "engine/site/render.py",
        "    if f\"docs/{setup_steps.SETUP_DOC}\" in site.pages:  # a test site may have none\n"
        "        setup = posixpath.relpath(setup_steps.SETUP_DOC, here)\n"
        "        links.append(",
        "        if f\"docs/{setup_steps.SETUP_DOC}\" in site.pages:\n"
        "            setup = posixpath.relpath(setup_steps.SETUP_DOC, here)\n"
        "            links.append(",
        ["tests/browser/test_zensical.py", "-k", "shows_what_the_mkdocs_build_shows"],
        r"test_each_page_shows_what_the_mkdocs_build_shows\[",
    ),
    # Not one of issue #63's five: the render fault only the full tier caught (a4d3049 undone).
    Fault(
        "renderer",
        "a ❌ block's device note moves out of its admonition, between the pair's two boxes",
        "engine/site/render.py",
        "    note = render_device_note(site, block, index, ids)  # a ❌'s inside it: a pair stays "
        "a pair\n    parts += [] if block.check else note\n"
        + PARTS
        + "*note]) if block.check else body  # a check's note: not folded",
        PARTS + "*render_device_note(site, block, index, ids)])",
        ["tests/browser/test_features.py", "-k", "rendered_as_pairs"],
        r"test_bad_and_good_examples_are_rendered_as_pairs\[",
    ),
]


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def clone_of_head(folder: Path) -> Path:
    """A clone whose `main` and HEAD are this checkout's HEAD, with this checkout's run cache."""
    head = git("rev-parse", "HEAD", cwd=ROOT).strip()
    clone = folder / "clone"
    git("clone", "--quiet", "--shared", "--no-checkout", str(ROOT), str(clone), cwd=ROOT)
    git("checkout", "--quiet", "-B", "main", head, cwd=clone)
    if (ROOT / RUN_CACHE).is_dir():
        shutil.copytree(ROOT / RUN_CACHE, clone / RUN_CACHE)
    return clone


def plant(clone: Path, fault: Fault) -> None:
    path = clone / fault.path
    text = path.read_text(encoding="utf-8")
    for old, new in zip(fault.old.split(PARTS), fault.new.split(PARTS), strict=True):
        assert old in text, f"{fault.kind}: {fault.path} no longer has {old!r}"
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")


def default_tier(clone: Path, fault: Fault) -> tuple[int, str]:
    """`nox -s tests -- <the property's tests>` in the clone, in this checkout's tests venv."""
    nox = shutil.which("nox")
    assert nox, "nox is not on PATH"
    command = [nox, "-f", str(clone / "noxfile.py"), "-s", "tests", "--envdir", str(ROOT / ".nox")]
    command += ["--reuse-existing-virtualenvs", "--", *fault.tests]
    env = {name: value for name, value in os.environ.items() if not name.startswith("JITDOCS_")}
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def collected(clone: Path, fault: Fault, output: str, *tier: str) -> set[str] | None:
    """The tests a tier runs with the edit undone (the default: the sample). Browser tests are
    collected over the site the faulted run built, whose pages are their parameters."""
    git("checkout", "--quiet", "--", fault.path, cwd=clone)
    env = {name: value for name, value in os.environ.items() if not name.startswith("JITDOCS_")}
    env |= {"PYTHONPATH": str(clone), "NO_MKDOCS_2_WARNING": "1"}
    site = SITE_DIR.search(output)
    if site:
        env["JITDOCS_SITE_DIR"] = site[1]
    elif fault.tests[0].startswith("tests/browser"):
        return None  # the build failed before the tests: nothing to collect over
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [*command, *tier, *fault.tests], cwd=clone, env=env, capture_output=True, text=True
    )
    return {line.strip() for line in done.stdout.splitlines() if "::" in line}


@dataclass
class Verdict:
    fault: Fault
    caught: bool
    failed: list[str]
    outside: list[str] | None
    sizes: str  # how many ran; the sample and the full tier, edit undone
    seconds: float
    log: str


def run(fault: Fault) -> Verdict:
    with tempfile.TemporaryDirectory(prefix="jitdocs-fault-") as folder:
        clone = clone_of_head(Path(folder))
        plant(clone, fault)
        started = time.monotonic()
        code, output = default_tier(clone, fault)
        seconds = time.monotonic() - started
        failed = [name for name in FAILED.findall(output) if re.search(fault.expect, name)]
        sample = collected(clone, fault, output)
        every = collected(clone, fault, output, "--full")
    outside = None if sample is None else [name for name in failed if name not in sample]
    counts = re.findall(r"(\d+) (?:passed|failed)", " ".join(SUMMARY.findall(output)))
    ran = sum(map(int, counts))
    sizes = f"{ran}; {len(sample or ())} of {len(every or ())}"
    LOGS.mkdir(parents=True, exist_ok=True)
    (LOGS / f"{fault.kind}.log").write_text(output, encoding="utf-8")
    return Verdict(fault, code != 0 and bool(failed), failed, outside, sizes, seconds, output)


def row(verdict: Verdict) -> str:
    failed = verdict.failed
    if failed:
        shown = failed[0] + (f" (+{len(failed) - 1} more)" if len(failed) > 1 else "")
    else:
        shown = "NONE: the default tier passed" if not verdict.caught else "failed elsewhere"
    if verdict.outside is None:
        outside = "?"
    elif not failed:
        outside = "-"
    else:
        outside = f"{len(verdict.outside)} of {len(failed)}"
    fault = verdict.fault
    return (
        f"| {fault.kind} | {fault.path}: {fault.edit} | {shown} | {outside} | {verdict.sizes} | "
        f"{verdict.seconds:.0f} |"
    )


def main(kinds: list[str]) -> int:
    chosen = [fault for fault in FAULTS if not kinds or fault.kind in kinds]
    unknown = set(kinds) - {fault.kind for fault in FAULTS}
    if unknown:
        print(f"unknown kinds: {sorted(unknown)}; known: {[f.kind for f in FAULTS]}")
        return 2
    verdicts = []
    for fault in chosen:
        print(f"planting {fault.kind}: {fault.path} ...", flush=True)
        verdict = run(fault)
        verdicts.append(verdict)
        if not verdict.caught:
            print(verdict.log[-6000:])
    print("\n| kind | edit | failing test | of them outside the sample | ran; sample of all | s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for verdict in verdicts:
        print(row(verdict))
    missed = [verdict.fault.kind for verdict in verdicts if not verdict.caught]
    if missed:
        print(f"\nNOT CAUGHT by the default tier: {', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
