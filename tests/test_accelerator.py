"""`nox -s accelerator`: the recorded data matches the pages, each claim that fails there says why,
the recorder's record of a page, the machine's per-call floor beside each recorded timing, and
the wheels' parts."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import warnings

import pytest

from engine.page.model import ROOT
from engine.page.parser import parse_page, read_pages
from engine.page.policy import wants_notebook
from engine.run import accelerator
from engine.run.child import ONE_PROCESS_VARIABLE
from engine.run.environment import locked_versions
from engine.run.results import Failure, Kind, Outcome, PageResult
from engine.site import labels, render, write_notebooks
from engine.site.labels import runs_on
from engine.site.notebooks import build_notebook
from engine.tools import accelerator as recorder
from engine.tools import notebook_runs, solutions
from tests.helpers import fence

DATA = accelerator.load(ROOT / accelerator.DATA)
DATA_JAX = locked_versions()["jax"]
PAGE = "docs/course/demo.md"
FLOOR = {"empty_call_us": 565.2, "call_returns_us": 121.4, "device": "tpu (TPU v5 lite)"}
MEASURE_FLOOR = recorder.machine_floor  # the real one: a process that starts JAX


@pytest.fixture(autouse=True)
def one_process_for_this_test_only(monkeypatch):
    """The recorder tells the pages after it that the device admits one process (os.environ):
    the tests after these must start their pages as the build does."""
    monkeypatch.setenv(ONE_PROCESS_VARIABLE, "")  # (delenv of an unset one would not undo a set)


@pytest.fixture(autouse=True)
def floors_measured(monkeypatch) -> list:
    """The recorder's floor, faked (the real one starts a process with JAX): each measurement."""
    measured: list = []
    monkeypatch.setattr(recorder, "machine_floor", lambda: measured.append(FLOOR) or FLOOR)
    return measured


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
def test_record_resumes_skipping_current_pages(monkeypatch, tmp_path, floors_measured):
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
    assert ran == [PAGE] and len(floors_measured) == 1  # no page to record: no floor measured
    kept = json.loads(data.read_text())["pages"]["course/demo"]
    assert kept["outputs"] and kept["floor"] == FLOOR
    changed = dataclasses.replace(
        page, blocks=[dataclasses.replace(page.blocks[0], source="print('b')\n")]
    )
    recorder.record([changed], data)
    assert ran == [PAGE, PAGE]


@pytest.mark.unit
def test_the_floor_is_measured_once_a_recording_and_a_record_without_one_is_recorded_again(
    monkeypatch, tmp_path, floors_measured
):
    pages = [demo_page(fence(f"print({n})", "device")) for n in (1, 2)]
    pages = [dataclasses.replace(p, path=f"docs/course/demo{n}.md") for n, p in enumerate(pages)]
    entry = {"versions": recorder.versions(), "verdicts": {}, "seconds": 1, "device": "tpu"}
    ran = []

    def fake_record_page(p):
        ran.append(p.path)
        return {**entry, "outputs": {accelerator.output_id(p, 0): "1"}}

    monkeypatch.setattr(recorder, "record_page", fake_record_page)
    data = tmp_path / "accelerator.json"
    recorder.record(pages, data)
    assert ran == [p.path for p in pages] and floors_measured == [FLOOR]  # once, for both
    before_floors = json.loads(data.read_text())
    del before_floors["pages"]["course/demo0"]["floor"]  # as recorded before the recorder kept it
    data.write_text(json.dumps(before_floors))
    recorder.record(pages, data)
    assert ran[2:] == ["docs/course/demo0.md"] and len(floors_measured) == 2
    assert json.loads(data.read_text())["pages"]["course/demo0"]["floor"] == FLOOR


@pytest.mark.unit
def test_the_command_line_records_the_pages_it_names(monkeypatch, tmp_path):
    """`-- record PAGE --data FILE` reaches the recorder (a name in `main` once hid it)."""
    ran, entry = [], {"versions": {}, "verdicts": {}, "outputs": {}, "seconds": 1, "device": ""}
    monkeypatch.setattr(recorder, "record_page", lambda p: ran.append(p.path) or entry)
    data = tmp_path / "accelerator.json"
    assert recorder.main(["record", "docs/course/why-compile.md", "--data", str(data)]) == 0
    assert ran == ["docs/course/why-compile.md"]
    assert "course/why-compile" in json.loads(data.read_text())["pages"]


def test_the_floor_is_measured_in_a_process_of_its_own_on_this_machines_device():
    """The real measurement, here on the CPU: an empty jitted call's time until its result is
    ready and until the call returns, both positive and far below a second, and the device."""
    floor = MEASURE_FLOOR()
    assert floor["device"].startswith("cpu")
    assert 0 < floor["call_returns_us"] < 1e5 and 0 < floor["empty_call_us"] < 1e5, floor
    assert "jitkit.time_it" in floor["timed"]


def timed_outputs(page) -> list[str]:
    """The recorded ``device`` outputs of a page that print a duration."""
    found = [accelerator.output(DATA, page, i) for i in range(len(page.blocks))]
    return [text for text, _ in filter(None, found) if accelerator.holds_timing(text)]


@pytest.mark.unit
def test_each_recorded_timing_shows_the_floor_its_recording_measured():
    """Under every timing a TPU printed, the site shows what an empty jitted call took on that
    machine. A page recorded before the recorder measured it says that it is not recorded, with
    no number, and this test names the command that records it (a warning: the build goes on)."""
    timed = {p.path: p for p in recorded_pages() if timed_outputs(p)}
    assert timed, "no recorded output prints a duration: is accelerator.DURATION still right?"
    missing = []
    for path, page in timed.items():
        record = accelerator.page_record(DATA, page)
        note, floor = labels.floor_note(record), accelerator.floor(record)
        if floor is None:
            assert "not recorded yet" in note and not re.search(r"\d", note), note
            missing.append(path)
        else:
            assert f"{floor['empty_call_us']:,.0f} µs" in note and floor["call_returns_us"] > 0
            assert floor["empty_call_us"] < 1e5, f"{path}: a floor of {floor} is no floor"
    if missing:
        warnings.warn(
            f"the per-call floor is not recorded for {len(missing)} page(s) with timings "
            f"({', '.join(missing)}); record it: {accelerator.FLOOR_COMMAND}",
            stacklevel=1,
        )


@pytest.mark.unit
@pytest.mark.parametrize(
    "text, timed",
    [
        ("empty function: 568.96 µs per call", True),
        ("float64: 1,553 µs, max relative error 3e-15", True),
        ("while_loop: -102.88 ns per step", True),
        ("call returned after 0.21 ms", True),
        ("Finished XLA compilation of jit(f) in 0.120404005 sec", True),
        ("a 2 s wait", True),
        ("in use 48.8 MB, peak 48.8 MB, limit 16.9 GB", False),
        ("/host:CPU: 3 train_step spans", False),
        ("tpu (TPU v5 lite, 1 device(s))", False),
        ("default: max relative error 2.3e-03", False),
        ("5 steps, 20 items", False),
    ],
)
def test_a_recorded_output_holds_a_timing_when_it_prints_a_duration(text, timed):
    assert accelerator.holds_timing(text) is timed


@pytest.mark.unit
@pytest.mark.parametrize("floor", [FLOOR, None])
def test_a_recorded_timing_is_rendered_with_the_floor_or_with_not_recorded(floor):
    page = demo_page(fence("print('call: 0.5 ms')", "device"), fence("print('a')", "device"))
    site = render.Site(root=ROOT, pages={PAGE: page})
    record = {"device": "tpu (TPU v5 lite, 1 device(s))", "date": "2026-12-06"}
    record |= {"versions": {"jax": "0.12.0.1"}} | ({"floor": floor} if floor else {})
    timed = render.render_devices(site, page.blocks[0], Outcome(output="0.5"), "569 µs", record)
    plain = render.render_devices(site, page.blocks[1], Outcome(output="a"), "a", record)
    assert "Floor on the recording machine" not in plain  # no duration: no floor
    assert timed.endswith(labels.floor_note(record) + "\n{: .jd-floor }")
    said = "an empty jitted call takes 565 µs there (121 µs until" if floor else "not recorded yet"
    assert said in timed
    site.pages["docs/beyond/accelerators.md"] = page  # the page that says what the floor is
    linked = render.render_devices(site, page.blocks[0], Outcome(output="0.5"), "1 s", record)
    assert "[Floor on the recording machine](../beyond/accelerators.md#recording-machine)" in linked


@pytest.mark.unit
def test_no_device_note_types_a_timing():
    """A duration typed into a note goes stale at the next recording and has no floor beside
    it: a note says why a claim fails, and the recorded output beside it shows the times."""
    typed = [
        f"{block.where}: {accelerator.DURATION.search(block.device_note)[0]}"
        for page in read_pages([])
        for block in page.blocks
        if block.device_note and accelerator.DURATION.search(block.device_note)
    ]
    assert not typed, "reword these device-notes without their timings: " + ", ".join(typed)


@pytest.mark.unit
def test_the_wheel_parts_fit_a_device_call():
    assert recorder.PART_BYTES + 4 * 2**20 <= 64 * 2**20  # the working tree travels too


def test_a_notebook_runs_in_a_kernel_over_unix_sockets_and_its_run_is_kept(tmp_path):
    """What the recorder keeps of a notebook: how many cells ran, each that failed (where "Run
    all" would stop; a ❌ cell does not), the checks that reported a recorded difference, the
    ``device`` cells that printed the page's record, the runtime, and the key of its code."""
    page = demo_page(
        fence("print('x =', 6 * 7)", "device"),
        fence("1 / 0", "bad: raises ZeroDivisionError"),
        fence("print('a')", "good"),
        fence("assert jax.default_backend() == 'tpu'", "fact: on a TPU"),
        fence("import os\n\nprint('kernel', os.getpid())"),
        fence("undefined_name"),
    )
    cpu = {"platform": "cpu", "on": "a CPU", "recorded": "AssertionError"}
    notebook = build_notebook(page, records={page.claims[-1].id: [cpu]})
    record = {"pages": {"course/demo": {"outputs": {accelerator.output_id(page, 0): "x = 42"}}}}
    executed, run = notebook_runs.run(notebook)
    assert run["device"].startswith("cpu (cpu, ") and run["versions"]["jax"] == DATA_JAX
    kernel_pid = int(
        next(c for c in executed.cells if "getpid" in c.source).outputs[0].text.split()[1]
    )
    with pytest.raises(ProcessLookupError):  # gone: a kernel left running keeps a TPU from the next
        os.kill(kernel_pid, 0)
    assert run["ran"] == run["cells"] == len([c for c in executed.cells if c.cell_type == "code"])
    assert run["reported"] == 1  # the fact, recorded as failing on a CPU
    assert run["stopped"] == [
        f"cell {len(executed.cells)}: NameError: name 'undefined_name' is not defined"
    ]
    assert notebook_runs.device_cells(page, executed, record) == (1, 1)
    record["pages"]["course/demo"]["outputs"][accelerator.output_id(page, 0)] = "x = 41"
    assert notebook_runs.device_cells(page, executed, record) == (0, 1)
    assert (
        accelerator.notebook_runs(
            {"notebooks": {"course/demo": {"key": "old", "runs": [run]}}}, page, notebook
        )
        == []
    )
    kept = {
        "notebooks": {"course/demo": {"key": accelerator.notebook_key(notebook), "runs": [run]}}
    }
    assert accelerator.notebook_runs(kept, page, notebook) == [run]


NOTEBOOK_REFRESH = (
    "on a TPU machine, bash engine/tools/accelerator_record.sh (MAINTAINERS.md, 'Recording on "
    "an accelerator') runs {page}'s notebook again (or nox -s accelerator -- prune drops the run)"
)


@pytest.mark.unit
def test_no_notebook_run_on_the_accelerator_is_stale_or_stopped():
    """A notebook's recorded run stands for the code it ran: once that code changes, the run
    fails here, with the command that runs it again; a run that stopped before its last cell
    fails too. A notebook with no run yet is shown as such on its page."""
    problems = []
    for page in (p for p in read_pages([]) if wants_notebook(p.path)):
        entry = DATA.get("notebooks", {}).get(page.path.removeprefix("docs/").removesuffix(".md"))
        if not entry:
            continue
        runs = accelerator.notebook_runs(DATA, page, build_notebook(page))
        if not runs:
            problems.append(f"{page.path}: its notebook changed since its run on the accelerator")
            problems.append("    refresh: " + NOTEBOOK_REFRESH.format(page=page.path))
        problems += [
            f"{page.path}: with JAX {r['versions']['jax']}, {r['stopped']}"
            for r in runs
            if r["stopped"]
        ]
    assert not problems, "\n".join(problems)


@pytest.mark.unit
def test_a_notebook_run_stands_for_its_code_not_for_the_records_wrapped_around_it():
    page = demo_page(fence("x = 1"), fence("assert x == 1", "fact: one"))
    plain = build_notebook(page, records={})
    run = {"device": "tpu (TPU v5 lite, 1 device(s))", "versions": {"jax": DATA_JAX}, "stopped": []}
    kept = {"notebooks": {"course/demo": {"key": accelerator.notebook_key(plain), "runs": [run]}}}
    assert accelerator.notebook_runs(kept, page, plain) == [run]
    tpu = {"platform": "tpu", "on": "TPU v5e", "recorded": "AssertionError"}
    wrapped = build_notebook(page, records={page.claims[0].id: [tpu]})
    assert wrapped != plain and accelerator.notebook_runs(kept, page, wrapped) == [run]
    edited = demo_page(fence("x = 1"), fence("assert x == 1.0", "fact: one"))
    assert accelerator.notebook_runs(kept, edited, build_notebook(edited, records={})) == []


@pytest.mark.unit
def test_nothing_outside_a_claim_failed_on_the_accelerator():
    """A block that fails there outside any claim would stop its notebook with no record to say
    why: make it hold on every device, or make its assert a claim with a device-note."""
    other = {stem: record["other"] for stem, record in DATA["pages"].items() if record["other"]}
    assert not other, other


@pytest.mark.unit
def test_the_page_says_where_its_notebook_ran():
    tpu, old = "tpu (TPU v5 lite, 1 device(s))", {"jax": "0.10.2"}
    runs = [
        {"device": tpu, "versions": {"jax": "0.12.0.1"}, "stopped": []},
        {"device": tpu, "versions": old, "stopped": []},
    ]
    assert (
        runs_on(runs) == "Runs top to bottom on a CPU, and on TPU v5e with JAX 0.12.0.1 and 0.10.2."
    )
    runs[1]["stopped"] = ["cell 7: NameError: name 'x' is not defined"]
    assert runs_on(runs) == (
        "Runs top to bottom on a CPU, and on TPU v5e with JAX 0.12.0.1; "
        "on TPU v5e with JAX 0.10.2 it stops at cell 7."
    )
    assert runs_on([]) == "Runs top to bottom on a CPU."


@pytest.mark.unit
def test_the_checkers_judged_every_solution_right_on_the_accelerator_as_they_are_now():
    """Recorded by `python -m engine.tools.accelerator checkers` on a TPU: every reference
    solution passes there and every wrong one fails the check it names, for the checkers, checks
    and solutions as they are now."""
    found = DATA.get("checkers")
    if found is None:  # dropped by `prune` after a change: the version notes say it is not run
        assert labels.checkers_words(DATA).startswith("The checkers have not been run")
        return
    assert found["versions"]["jax"] == DATA_JAX and found["key"] == solutions.key(), (
        "the checkers or their solutions changed since their run on the accelerator: record "
        "again (MAINTAINERS.md), or `nox -s accelerator -- prune` to show them as not run"
    )
    assert set(found["verdicts"]) == set(solutions.references())
    wrong = {i: v for i, v in found["verdicts"].items() if not v["right"]}
    assert not wrong, wrong
    assert "accept their reference solution" in labels.checkers_words(DATA)


@pytest.mark.unit
def test_the_notebooks_written_for_the_recorder_are_the_sites(tmp_path):
    """What the recorder runs on the accelerator stands for the notebook the site serves: the
    same key, whatever records each was written with."""
    data = tmp_path / "accelerator.json"
    data.write_text(json.dumps({"pages": {}}), encoding="utf-8")  # no record: nothing wrapped
    assert write_notebooks.main([str(tmp_path / "site"), "--data", str(data)]) == 0
    page = read_pages(["docs/course/why-compile.md"])[0]
    written = json.loads((tmp_path / "site" / "course" / "why-compile.ipynb").read_text("utf-8"))
    served = build_notebook(page)  # wrapped where docs/data/accelerator.json says it fails
    assert accelerator.notebook_key(written) == accelerator.notebook_key(served)
    assert len(list((tmp_path / "site").rglob("*.ipynb"))) == sum(
        wants_notebook(p.path) for p in read_pages([])
    )
