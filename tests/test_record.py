"""The build's record of what each block did, and the examples that report it instead of running
the page's code a second time (engine/run/record.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from engine.page.model import ROOT
from engine.page.parser import read_page
from engine.run import cache, record, sybil_setup
from engine.run.cache import code_key
from engine.run.pages import execute_pages
from engine.run.results import Outcome, PageResult
from tests.helpers import fence, page, root_conftest

COUNTS_ITS_RUNS = fence(
    "from pathlib import Path\nwith Path({ran!r}).open('a') as log:\n    log.write('ran\\n')"
)
FAILS = fence("assert 2 > 3, 'two does not beat three'")
AFTER = fence("print('never reached')")

CONFTEST = """\
from pathlib import Path

from sybil import Sybil

from engine.run.sybil_setup import parse_blocks, setup, teardown, use_record

use_record(Path("record.jsonl"))
pytest_collect_file = Sybil(
    parsers=[parse_blocks], patterns=["*.md"], path=".", setup=setup, teardown=teardown
).pytest()
"""


def demo(folder: Path, *blocks: str):
    text = "# Demo\n\n" + "\n".join(blocks)
    (folder / "page.md").write_text(text, encoding="utf-8")
    return page(text, path=in_project(folder, "page.md"))


def in_project(folder: Path, name: str) -> str:
    """A page path as the engine names pages: from the project root."""
    return (folder / name).relative_to(ROOT).as_posix()


def build_recording(pages, cache: Path, record_to: Path) -> list[str]:
    """execute_pages as `nox -s tests` has the hook call it; the paths of the pages that failed."""
    failed = []
    keep_going = lambda failing, error: failed.append(failing.path)  # noqa: E731
    execute_pages(pages, False, cache, lambda line: None, keep_going, record_to=record_to)
    return failed


def test_the_build_records_each_block_and_goes_on_past_a_failing_page(project_folder, tmp_path):
    ran = tmp_path / "ran.txt"  # outside the project: page code may not write into it
    broken = demo(project_folder, COUNTS_ITS_RUNS.format(ran=str(ran)), FAILS, AFTER)
    fine = page(
        "# Fine\n\n" + fence("x = 1") + fence("y = 2"), path=in_project(project_folder, "fine.md")
    )
    cache, record_file = project_folder / "cache", project_folder / "record.jsonl"
    assert build_recording([broken, fine], cache, record_file) == [broken.path]
    runs = record.read(record_file)
    assert set(runs) == {(broken.path, code_key(broken)), (fine.path, code_key(fine))}
    first, failed, after = runs[broken.path, code_key(broken)].values()
    assert (first.status, failed.status, after.status) == ("passed", "failed", "not run")
    assert f"{broken.blocks[1].where}:" in failed.message and "two does not beat" in failed.message
    assert after.message == f"not run: the page stopped at {broken.blocks[1].where}, which failed"
    assert [run.status for run in runs[fine.path, code_key(fine)].values()] == ["passed"] * 2
    # Built again: the cache answers the page that passed, and its cached run is recorded as
    # the build's run; the failing page was never cached, so it runs again and fails again.
    record_file.unlink()
    assert build_recording([broken, fine], cache, record_file) == [broken.path]
    assert ran.read_text() == "ran\nran\n"
    runs = record.read(record_file)
    assert [run.status for run in runs[fine.path, code_key(fine)].values()] == ["passed"] * 2
    assert [run.status for run in runs[broken.path, code_key(broken)].values()] == [
        "passed",
        "failed",
        "not run",
    ]


def run_examples(folder: Path) -> subprocess.CompletedProcess:
    (folder / "conftest.py").write_text(CONFTEST)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "BUILD_NUMBER")}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "--rootdir", "."]
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=300)


def test_examples_report_the_build_run_of_their_page_and_run_a_page_it_did_not(
    project_folder, tmp_path
):
    ran, ran_fine = tmp_path / "ran.txt", tmp_path / "fine.txt"  # outside the project
    counted = COUNTS_ITS_RUNS.format(ran=str(ran))
    broken = demo(project_folder, counted, FAILS, AFTER)
    (project_folder / "fine.md").write_text(
        "# Fine\n\n" + COUNTS_ITS_RUNS.format(ran=str(ran_fine)), encoding="utf-8"
    )
    fine = read_page(in_project(project_folder, "fine.md"))
    cache, record_file = project_folder / "cache", project_folder / "record.jsonl"
    build_recording([broken, fine], cache, record_file)
    # The build `nox -s tests` makes after `nox -s docs`: the cache answers the page that passed.
    record_file.unlink()
    build_recording([broken, fine], cache, record_file)
    assert (ran.read_text(), ran_fine.read_text()) == ("ran\nran\n", "ran\n")

    reported = run_examples(project_folder)
    output = reported.stdout + reported.stderr
    assert "1 failed, 2 passed, 1 skipped" in output, output
    assert "two does not beat three" in output and "not run: the page stopped at" in output
    assert ran.read_text() == "ran\nran\n", "an example ran its code again"
    assert ran_fine.read_text() == "ran\n", "a cached page's example ran its code again"

    demo(project_folder, counted, fence("print('changed')"), AFTER)  # not what the build ran
    executed = run_examples(project_folder)
    assert "4 passed" in executed.stdout, executed.stdout + executed.stderr
    assert ran.read_text() == "ran\nran\nran\n" and ran_fine.read_text() == "ran\n"


def test_a_timing_page_the_build_ran_is_not_marked_timing(tmp_path, monkeypatch):
    """Its examples report the build's run, which ran the page alone: they measure nothing."""
    loops = read_page("docs/course/loops.md")
    monkeypatch.setattr(sybil_setup, "_record", {})  # no record: the examples run the page here
    assert root_conftest().page_measures_time(loops.path)
    passed = PageResult([Outcome() for _ in loops.blocks], {})
    record.write(
        tmp_path / "record.jsonl", loops, code_key(loops), record.passed_runs(loops, passed)
    )
    monkeypatch.setattr(sybil_setup, "_record", record.read(tmp_path / "record.jsonl"))
    assert not root_conftest().page_measures_time(loops.path)


def test_the_noxfile_names_the_variable_the_engine_reads():
    noxfile = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert f'RUN_RECORD_VARIABLE = "{record.RECORD_VARIABLE}"' in noxfile
    assert f'TIMING_BESIDE_VARIABLE = "{cache.TIMING_BESIDE_VARIABLE}"' in noxfile
