"""`nox -s bench -- --no-suite` shows the suite's time that `nox -s tests` wrote down."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from benchmarks import bench_build, suite_time
from engine.page.model import ROOT


@pytest.mark.unit
def test_the_bench_reads_the_file_the_tests_session_writes(tmp_path):
    """noxfile.py's `tests` session records through suite_time.record, which the bench reads."""
    noxfile = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert '"benchmarks" / "suite_time.py").record(ROOT, seconds)' in noxfile
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
    mkdocs = iter([(2.0, 0), (1.6, 1), (1.9, 0), (2.2, 0)] + [(2.0, 0)] * 6)
    zensical = iter([1.7, 2.4, 1.8, 2.1] + [2.0] * 6)
    monkeypatch.setattr(bench_build, "WARM_PAIRS", 10)
    monkeypatch.setattr(bench_build, "timed_build", lambda: calls.append("mkdocs") or next(mkdocs))
    monkeypatch.setattr(
        bench_build, "timed_zensical_build", lambda: calls.append("zensical") or next(zensical)
    )
    rows = bench_build.warm_rows()
    assert calls == ["mkdocs", "zensical", "zensical", "mkdocs"] * 5  # each first in half
    assert rows["warm"].seconds == 2.0 and rows["zensical"].seconds == 2.0
    assert rows["warm"].executed == 1  # a page run by any warm build fails the goal of 0
    assert rows["zensical"].slower == 1  # pair 2: 2.4 against 1.6; a tie is not a loss


@pytest.mark.unit
@pytest.mark.parametrize(
    ("slower", "met"), [(0, True), (5, True), (8, True), (9, False), (10, False)]
)
def test_zensical_fails_only_when_it_loses_more_pairs_than_chance_explains(slower, met):
    warm = bench_build.Row("warm", 2.0, 0)
    zensical = bench_build.Row("zensical", 2.1, slower=slower)
    text, ok = bench_build.zensical_check(zensical, warm)
    assert ok is met, text
    assert f"slower in {slower} of 10 pairs" in text and "1.05" in text


@pytest.mark.unit
def test_the_page_process_rows_take_turns_after_starting_the_zygote(monkeypatch):
    calls = []
    starts, pairs = [9.0], [0.1, 0.5, 0.6, 0.2, 0.1, 0.4]
    times = iter([*starts, *pairs])  # the first run starts the zygote

    def timed(afresh):
        calls.append("afresh" if afresh else "forked")
        return next(times)

    monkeypatch.setattr(bench_build, "PAGE_PAIRS", 3)
    monkeypatch.setattr(bench_build, "timed_page_run", timed)
    monkeypatch.setattr(bench_build.zygote, "available", lambda: True)
    rows = bench_build.page_process_rows()
    assert calls == ["forked", *["forked", "afresh", "afresh", "forked"], "forked", "afresh"]
    assert rows["forked"].seconds == 0.1 and rows["afresh"].seconds == 0.5  # medians, not 9.0
    assert "0.10 s" in str(rows["forked"])  # a tenth of a second still reads as one


@pytest.mark.unit
@pytest.mark.parametrize(
    ("afresh", "met"), [(0.45, True), (0.25, True), (0.2, False), (0.1, False)]
)
def test_the_fork_goal_fails_when_pages_stop_forking(afresh, met):
    rows = {"forked": bench_build.Row("forked", 0.1), "afresh": bench_build.Row("x", afresh)}
    [(text, ok)] = bench_build.fork_checks(rows)
    assert ok is met, text
    assert f"= {afresh / 0.1:.1f} (goal >= 2.5)" in text


@pytest.mark.unit
def test_where_pages_cannot_fork_the_bench_has_no_fork_goal(monkeypatch):
    monkeypatch.setattr(bench_build.zygote, "available", lambda: False)
    assert bench_build.page_process_rows() == {}
    assert bench_build.fork_checks({}) == []
