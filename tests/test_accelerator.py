"""`nox -s accelerator`: the recorded data matches the pages, each claim that fails there says why,
the recorder's record of a page, and the wheels' parts."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.page.model import ROOT
from engine.page.parser import parse_page, read_pages
from engine.run import accelerator
from engine.run.child import ONE_PROCESS_VARIABLE
from engine.run.results import Failure, Kind, Outcome, PageResult
from engine.site.notebooks import build_notebook
from engine.tools import accelerator as recorder
from tests.helpers import fence

DATA = accelerator.load(ROOT / accelerator.DATA)
PAGE = "docs/course/demo.md"


@pytest.fixture(autouse=True)
def one_process_for_this_test_only(monkeypatch):
    """The recorder tells the pages after it that the device admits one process (os.environ):
    the tests after these must start their pages as the build does."""
    monkeypatch.setenv(ONE_PROCESS_VARIABLE, "")  # (delenv of an unset one would not undo a set)


def recorded_pages():
    return [p for p in read_pages([]) if accelerator.page_record(DATA, p) is not None]


@pytest.mark.unit
def test_no_record_outlives_a_change_to_its_code():
    """A recorded block or claim whose code changed since its recording fails here, with the
    command that records it again (a new one is shown as not recorded until then)."""
    problems = [
        f"{problem}\n    refresh: {accelerator.REFRESH.format(page=page.path)}"
        for page in recorder.pages(read_pages([]))
        for problem in accelerator.gone(accelerator.page_record(DATA, page), page)
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.unit
def test_each_claim_that_fails_on_the_accelerator_says_why_on_its_page():
    missing, needless = [], []
    for page in recorded_pages():
        verdicts = accelerator.page_record(DATA, page)["verdicts"]
        for claim in page.claims:
            block = page.blocks[claim.blocks[0]]
            found = verdicts.get(claim.id, {}).get("verdict")  # None: not recorded yet
            if found == "broken" and not block.device_note:
                missing.append(f"{block.where}: {verdicts[claim.id]['error'][:120]}")
            if block.device_note and found == "holds":
                needless.append(block.where)
    assert not missing, "add <!-- device-note: why --> before these claims:\n" + "\n".join(missing)
    assert not needless, "these claims hold on the accelerator; drop their device-note: " + str(
        needless
    )


def demo_page(*blocks: str):
    return parse_page(PAGE, "# Demo\n\n" + "\n".join(blocks))


@pytest.mark.unit
def test_a_planted_change_to_a_recorded_block_is_stale_and_names_it():
    page = demo_page(fence("print(1)", "device"), fence("assert 1", "fact: one"))
    record = {
        "verdicts": {c.id: {"verdict": "holds"} for c in page.claims},
        "outputs": {accelerator.output_id(page, 0): "1"},
    }
    assert accelerator.stale(record, page) == []
    edited = demo_page(fence("print(2)", "device"), fence("assert 1", "fact: one"))
    problems = accelerator.stale(record, edited)
    assert any("is not recorded" in p and "output-" in p for p in problems), problems
    assert accelerator.gone(record, edited) == [p for p in problems if "no longer" in p] != []
    pruned = accelerator.prune(record, edited)
    assert accelerator.gone(pruned, edited) == [] and pruned["verdicts"] == record["verdicts"]
    assert accelerator.stale(None, page) == [f"{PAGE}: not recorded on an accelerator"]


@pytest.mark.unit
def test_record_page_keeps_verdicts_outputs_and_the_device(monkeypatch):
    page = demo_page(
        fence("print('a')", "device"),
        fence("assert True", "fact: holds"),
        fence("assert False", "fact: breaks"),
    )

    def fake_run_page(page, failures):
        failures.append(Failure(Kind.ASSERTION, page.path, page.blocks[2].line, 2))
        outcomes = [Outcome(output="a"), Outcome(), None]
        return PageResult(outcomes, {"device": "tpu (TPU v5 lite, 1 device(s))"})

    monkeypatch.setattr(recorder, "run_page", fake_run_page)
    entry = recorder.record_page(page)
    assert entry["device"].startswith("tpu")
    assert [v["verdict"] for v in entry["verdicts"].values()] == ["holds", "broken"]
    assert entry["outputs"] == {accelerator.output_id(page, 0): "a"}
    assert accelerator.stale(entry, page) == []


@pytest.mark.unit
def test_record_resumes_skipping_current_pages(monkeypatch, tmp_path):
    page = demo_page(fence("print('a')", "device"))
    ran = []

    def fake_record_page(p):
        ran.append(p.path)
        return {
            "versions": recorder.versions(),
            "verdicts": {},
            "outputs": {accelerator.output_id(p, 0): "a"},
            "seconds": 1,
            "device": "tpu",
        }

    monkeypatch.setattr(recorder, "record_page", fake_record_page)
    data = tmp_path / "accelerator.json"
    recorder.record([page], data)
    recorder.record([page], data)  # current: skipped, as after a cut-off run
    assert ran == [PAGE]
    assert json.loads(data.read_text())["pages"]["course/demo"]["outputs"]
    changed = dataclasses.replace(
        page, blocks=[dataclasses.replace(page.blocks[0], source="print('b')\n")]
    )
    recorder.record([changed], data)
    assert ran == [PAGE, PAGE]


@pytest.mark.unit
def test_the_command_line_records_the_pages_it_names(monkeypatch, tmp_path):
    """`-- record PAGE --data FILE` reaches the recorder (a name in `main` once hid it)."""
    ran, entry = [], {"versions": {}, "verdicts": {}, "outputs": {}, "seconds": 1, "device": ""}
    monkeypatch.setattr(recorder, "record_page", lambda p: ran.append(p.path) or entry)
    data = tmp_path / "accelerator.json"
    assert recorder.main(["record", "docs/course/why-compile.md", "--data", str(data)]) == 0
    assert ran == ["docs/course/why-compile.md"]
    assert "course/why-compile" in json.loads(data.read_text())["pages"]


@pytest.mark.unit
def test_the_wheel_parts_fit_a_device_call():
    assert recorder.PART_BYTES + 4 * 2**20 <= 64 * 2**20  # the working tree travels too


def test_a_notebook_run_as_a_script_compares_its_device_cells_with_the_record():
    page = demo_page(fence("print('x =', 6 * 7)", "device"), fence("print('not compared')"))
    record = {"pages": {"course/demo": {"outputs": {accelerator.output_id(page, 0): "x = 42"}}}}
    lines, matched = recorder.run_notebook(page, build_notebook(page), record)
    assert matched == 1 and any("(matches)" in line and "x = 42" in line for line in lines)
    record["pages"]["course/demo"]["outputs"][accelerator.output_id(page, 0)] = "x = 41"
    lines, matched = recorder.run_notebook(page, build_notebook(page), record)
    assert matched == 0 and any("DIFFERS" in line for line in lines)
    assert not any("not compared" in line for line in lines)
