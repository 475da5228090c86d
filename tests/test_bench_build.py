"""`nox -s bench -- --no-suite` shows the suite's time that `nox -s tests` wrote down."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from engine.page.model import ROOT
from tests import bench_build, suite_time


@pytest.mark.unit
def test_the_bench_reads_the_file_the_tests_session_writes(tmp_path):
    """noxfile.py's `tests` session records through suite_time.record, which the bench reads."""
    noxfile = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert '"tests" / "suite_time.py").record(ROOT, seconds)' in noxfile
    assert "record_suite_time(time.monotonic() - started)" in noxfile
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    suite_time.record(tmp_path, 612.46)
    record = suite_time.last(tmp_path)
    assert record["seconds"] == 612.5, record
    assert record["finished"].startswith(time.strftime("%Y-%m-%d", time.gmtime())), record


@pytest.mark.unit
def test_the_recorded_suite_row_says_when_and_where_it_was_measured(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_build, "ROOT", tmp_path)
    assert "no whole `nox -s tests` has passed" in bench_build.recorded_suite_row().label
    (tmp_path / suite_time.RECORD).parent.mkdir()
    record = {"seconds": 612.5, "commit": "abc1234", "finished": "2026-12-06 05:10 UTC"}
    (tmp_path / suite_time.RECORD).write_text(json.dumps(record), encoding="utf-8")
    row = bench_build.recorded_suite_row()
    assert row.seconds == 612.5 and "abc1234" in row.label and "05:10" in row.label


@pytest.mark.unit
def test_the_warm_rows_take_turns_and_report_each_builders_median(monkeypatch):
    calls = []
    mkdocs = iter([(2.0, 0), (1.6, 1), (1.9, 0)])
    zensical = iter([1.7, 2.4, 1.8])
    monkeypatch.setattr(bench_build, "timed_build", lambda: calls.append("mkdocs") or next(mkdocs))
    monkeypatch.setattr(
        bench_build, "timed_zensical_build", lambda: calls.append("zensical") or next(zensical)
    )
    rows = bench_build.warm_rows()
    assert calls == ["mkdocs", "zensical"] * bench_build.WARM_SAMPLES
    assert rows["warm"].seconds == 1.9 and rows["zensical"].seconds == 1.8
    assert rows["warm"].executed == 1  # a page run by any warm build fails the goal of 0
