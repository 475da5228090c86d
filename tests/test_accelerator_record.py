"""snippets/accelerator_record.py: the why-compile chart reads a TPU's recorded timings from
docs/data/accelerator.json; a missing or ambiguous record fails naming the file."""

from __future__ import annotations

import json

import accelerator_record as record
import pytest

WHY_COMPILE = ("course/why-compile", "ripple eager:", "matmul jit")


@pytest.mark.unit
def test_the_why_compile_timings_are_recorded_and_read():
    text, page = record.recorded_output(*WHY_COMPILE)
    for task in ("ripple", "matmul"):
        for mode in ("eager", "jit  "):
            assert 0 < record.seconds_after(text, f"{task:6} {mode}:") < 1
    assert record.device_label(page) == f"TPU v5e (recorded {page['date']})"


@pytest.mark.unit
@pytest.mark.parametrize(
    ("line", "seconds"),
    [
        ("a: 14.6 ms ± 459 µs", 14.6e-3),
        ("a: 561 µs ± 1 ms", 561e-6),
        ("a: 2 s", 2.0),
        ("a: 87.5 ns", 87.5e-9),
        ("a: 1e+03 s ± 2 s", 1000.0),
    ],
)
def test_seconds_after_reads_the_first_duration_in_each_unit(line, seconds):
    assert record.seconds_after(f"other: 9 s\n{line}", "a:") == pytest.approx(seconds)


@pytest.mark.unit
def test_the_floor_label_says_what_an_empty_call_took_or_that_it_is_not_recorded():
    page = {"floor": {"empty_call_us": 1565.2, "call_returns_us": 121.4}}
    assert record.floor_label(page) == "an empty jitted call there: 1,565 µs"
    assert record.floor_label({}) == "its per-call floor not recorded"  # no number it lacks


@pytest.mark.unit
def test_a_missing_or_ambiguous_record_names_the_data_file(tmp_path):
    data = tmp_path / "accelerator.json"
    with pytest.raises(record.RecordMissing, match="no such file"):
        record.recorded_output("course/x", "a:", data=data)
    outputs = {"course/x/output-1": "a: 1 ms\n", "course/x/output-2": "a: 2 ms\nb: 3 ms\n"}
    data.write_text(json.dumps({"pages": {"course/x": {"outputs": outputs}}}), "utf-8")
    with pytest.raises(record.RecordMissing, match=r"accelerator\.json: page 'course/y'"):
        record.recorded_output("course/y", "a:", data=data)
    with pytest.raises(record.RecordMissing, match="2 recorded outputs"):
        record.recorded_output("course/x", "a:", data=data)
    assert record.recorded_output("course/x", "a:", "b:", data=data)[0].startswith("a: 2 ms")
    with pytest.raises(record.RecordMissing, match="no duration after 'c:'"):
        record.seconds_after("c: soon", "c:")


def test_seconds_after_reads_what_jitkit_prints():
    from jitkit import Timing

    for seconds in (3e-9, 4.5e-6, 0.0146, 2.5):
        printed = f"ripple eager: {Timing((seconds,))}"
        assert record.seconds_after(printed, "ripple eager:") == pytest.approx(seconds, rel=5e-3)
