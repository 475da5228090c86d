"""A notebook goes on past a check recorded as not holding on its runtime (engine/site/
differences.py writes it, snippets/known_differences.py runs it) and stops anywhere else."""

from __future__ import annotations

import contextlib
import sys

import pytest

from engine.page.model import ROOT, page_stem
from engine.run import accelerator
from engine.site import differences
from engine.site.notebooks import build_notebook
from tests.helpers import fence
from tests.helpers import page as made_up_page

pytestmark = pytest.mark.unit

sys.path.insert(0, str(ROOT / "snippets"))
import known_differences  # noqa: E402  (the learner runtime, as a notebook's setup cell finds it)

PAGE = "\n".join(
    [
        "# Recorded\n\nA made-up page.\n",
        fence("total = 1 + 1"),
        fence("assert total == 2", "check: One and one make two."),
        fence("x = 1\nx > 0 and undefined_name", "bad: raises NameError"),
        fence("print('fixed')", "good"),
        fence("assert total > 1", "fact: Two is more than one."),
    ]
)


def recorded_page():
    page = made_up_page(PAGE)
    check, contract, fact = page.claims
    record = {
        "device": "tpu (TPU v5 lite, 1 device(s))",
        "versions": {"jax": "0.12.0.1"},
        "date": "2026-12-07",
        "verdicts": {
            check.id: {"verdict": "broken", "error": "fact 'x' no longer holds: AssertionError"},
            contract.id: {"verdict": "holds"},
            f"{page_stem(page.path)}/fact-gone": {"verdict": "broken", "error": "not on the page"},
        },
    }
    device = {"pages": {page_stem(page.path): record}}
    releases = [
        {"jax": "0.10.2", "date": "2026-12-05", "verdicts": {contract.id: _broken("TypeError")}},
        {"jax": "0.12.0.1", "date": "2026-12-05", "verdicts": {fact.id: _broken("pinned")}},
    ]
    return page, device, {"aliases": {}, "releases": releases}


def _broken(error: str) -> dict:
    return {"verdict": "broken", "error": error}


def test_records_come_from_the_device_and_from_other_releases_never_from_the_pinned_one():
    page, device, data = recorded_page()
    check, contract, _ = page.claims
    records = differences.recorded(page, device, data, pinned="0.12.0.1")
    assert list(records) == [check.id, contract.id]  # page order; the pinned run names none
    (on_tpu,) = records[check.id]
    assert on_tpu["platform"] == "tpu" and on_tpu["on"] == "TPU v5e with JAX 0.12.0.1"
    assert on_tpu["recorded"] == "AssertionError"  # the claim's sentence is on the page already
    (on_old,) = records[contract.id]
    assert on_old == {
        "jax": "0.10",
        "on": "JAX 0.10.2 on a CPU",
        "recorded": "TypeError",
    }


def test_every_block_of_a_recorded_claim_is_wrapped_but_a_raising_bad_block():
    page, device, data = recorded_page()
    check, contract, _ = page.claims
    wrapped = differences.wrapped_blocks(page, differences.recorded(page, device, data, "0.12.0.1"))
    bad, good = contract.blocks
    assert wrapped == {check.blocks[0]: check.id, good: contract.id}
    assert bad not in wrapped  # its cell must raise: raises-exception lets the notebook go on


def test_wrapping_keeps_the_code_its_strings_and_names():
    source = (
        'text = """first\n    indented\nlast"""\n'
        'label = f"""{1 + 1}\n  two"""\n\nif text:\n    n = 3\n'
    )
    wrapped = accelerator.wrap(source, "demo/page/fact-1")
    assert wrapped.splitlines()[0] == "with recorded_differences('demo/page/fact-1'):"
    assert accelerator.unwrapped(wrapped) == source
    plain, inside = {}, {"recorded_differences": lambda claim_id: contextlib.nullcontext()}
    exec(source, plain)
    exec(wrapped, inside)
    assert [inside[k] for k in ("text", "label", "n")] == [plain[k] for k in ("text", "label", "n")]
    assert accelerator.unwrapped("print(1)\n") == "print(1)\n"


def test_the_notebook_wraps_the_recorded_blocks_and_imports_the_module_only_when_needed():
    page, device, data = recorded_page()
    records = differences.recorded(page, device, data, "0.12.0.1")
    notebook = build_notebook(page, records=records)
    setup, *cells = [c["source"] for c in notebook["cells"] if c["cell_type"] == "code"][1:]
    assert "'snippets/known_differences.py'" in setup and differences.IMPORT in setup
    assert repr(page.claims[0].id) in setup and "'platform': 'tpu'" in setup
    wrapped = [c for c in cells if c.startswith("with recorded_differences(")]
    assert [accelerator.unwrapped(c).strip() for c in wrapped] == [
        "assert total == 2",
        "print('fixed')",
    ]
    plain = build_notebook(page, records={})
    code = "".join(c["source"] for c in plain["cells"])
    assert "'snippets/known_differences.py'" in code and "RECORDED.update" not in code
    assert differences.IMPORT not in code  # bundled alike, so a record adds no file: imported not


@pytest.fixture
def on(monkeypatch):
    """Pretend the notebook runs on ``platform`` with JAX ``version``."""
    monkeypatch.setattr(known_differences, "RECORDED", {})

    def runtime(platform: str, version: str) -> None:
        monkeypatch.setattr(known_differences, "runtime", lambda: (platform, version))

    return runtime


RECORDS = [
    {"platform": "tpu", "on": "TPU v5e", "note": "The TPU fuses it.", "recorded": "1 kernel"},
    {"jax": "0.10", "on": "JAX 0.10.2 on a CPU", "recorded": "AssertionError"},
]


@pytest.mark.parametrize(("platform", "version"), [("tpu", "0.12.0.1"), ("cpu", "0.10.7")])
def test_a_recorded_failure_prints_what_differs_and_the_notebook_goes_on(
    on, capsys, platform, version
):
    on(platform, version)
    known_differences.RECORDED["c"] = RECORDS
    with known_differences.recorded_differences("c"):
        assert 1 == 2, "kernels: 1"
    printed = capsys.readouterr().out
    assert printed.startswith(f"⚠ {known_differences.HEADLINE} ({platform} with JAX {version})")
    assert "Here: AssertionError: kernels: 1" in printed
    assert ("Why: The TPU fuses it." in printed) == (platform == "tpu")


@pytest.mark.parametrize(("platform", "version"), [("cpu", "0.12.0.1"), ("gpu", "0.11.2")])
def test_anywhere_the_records_do_not_name_a_failure_stops_the_notebook(on, platform, version):
    on(platform, version)
    known_differences.RECORDED["c"] = RECORDS
    with pytest.raises(AssertionError), known_differences.recorded_differences("c"):
        raise AssertionError("fails as on the site")
    with pytest.raises(KeyboardInterrupt), known_differences.recorded_differences("c"):
        raise KeyboardInterrupt  # an interrupt is never a recorded difference
    with known_differences.recorded_differences("other"):
        total = 2  # a block that holds runs as it is
    assert total == 2


def test_the_recorder_counts_reports_by_the_words_a_notebook_prints():
    """engine/tools/notebook_runs.py counts the checks that reported a recorded difference by
    the headline known_differences prints; both must say the same."""
    from engine.tools import notebook_runs

    assert f"⚠ {known_differences.HEADLINE}" == notebook_runs.REPORTED
