"""`nox -s drift`: masking run-to-run noise, classifying broken contracts, continuing past them."""

from __future__ import annotations

import dataclasses

import pytest

from engine.run import execute
from engine.run.cache import cache_key, store
from engine.run.environment import environment_fingerprint
from engine.run.execute import execute_block, new_namespace
from engine.run.pages import run_page
from engine.run.results import Failure, Kind, Outcome, PageFailure, PageResult
from engine.tools import drift
from tests.helpers import fence, page

DRIFT_PAGE = "docs/demo/drift-page.md"


@pytest.mark.unit
def test_mask_hides_timings_ratios_and_alignment_but_not_facts():
    pinned = "eager: 1.35 ms ± 224 µs\njit is 13.6x faster\n  10      41.2 ms   compilations: 1"
    now = "eager: 2.70 ms ± 1.1 ms\njit is 9.5x faster\n  10     172.0 ms   compilations: 1"
    assert drift.mask(pinned) == drift.mask(now)
    assert drift.mask("compilations: 1 in 3.2 ms") != drift.mask("compilations: 2 in 3.2 ms")
    assert drift.mask("between 38 and 117 ms") == drift.mask("between 76 and 161 ms")
    assert drift.mask("100x100 input") == "100x100 input"  # a shape, not a ratio
    assert drift.mask("jit / matmul: 0.48 (fastest runs)") == drift.mask(
        "jit / matmul: 1.04 (fastest runs)"
    )
    assert drift.mask("jax 0.12.0.1") != drift.mask("jax 0.11.2")


def test_failures_are_classified_and_the_page_continues_past_them():
    blocks = [  # a blank line apart, as on a page: the lines below count it
        fence("x = 1", "bad: raises ValueError"),  # no longer raises: a broken ❌ contract
        fence("print('fixed')", "good"),
        fence("assert 1 + 1 == 3, 'arithmetic changed'"),  # a broken asserted fact
        fence("raise KeyError('gone')", "bad: raises KeyError"),
        fence("{}['gone']", "good"),  # a ✅ block that now raises
        fence("print('still reached', x)"),
    ]
    demo = page("\n".join(blocks), DRIFT_PAGE)
    result, failures, relaxed = drift.run_continuing(demo)
    summaries = [(f.kind, f.where, f.follows) for f in failures]
    assert summaries == [
        ("contract", "docs/demo/drift-page.md:2", False),
        ("fact", "docs/demo/drift-page.md:11", True),
        ("contract", "docs/demo/drift-page.md:21", True),
    ]
    assert "should raise ValueError, but it ran without error" in failures[0].summary
    assert failures[1].summary == "assertion no longer holds: AssertionError: arithmetic changed"
    assert failures[2].summary.startswith("✅ block now raises KeyError")
    assert relaxed == {0, 2, 4}
    assert result.outcomes[5].output == "still reached 1\n"  # later blocks still ran


def test_a_bad_asserts_block_whose_assertions_fail_is_a_broken_fact():
    demo = page(fence("assert 2 > 3", "bad: asserts") + fence("print(1)", "good"), DRIFT_PAGE)
    _, failures, _ = drift.run_continuing(demo)
    assert [(f.kind, f.summary) for f in failures] == [
        ("fact", "❌ asserts no longer hold: AssertionError at `assert 2 > 3`")
    ]


def test_outputs_are_compared_with_the_pinned_cache(tmp_path):
    blocks = [fence("print('same, in 3.1 ms')"), fence("print('new text')")]
    demo = page("\n".join(blocks), DRIFT_PAGE)  # a blank line apart: the second opens on line 5
    fingerprint = environment_fingerprint()  # the pinned JAX here, so the pinned key matches
    pinned = [Outcome("same, in 9.9 ms\n", seconds=0.1), Outcome("old text\n", seconds=0.1)]
    store(demo, cache_key(demo, fingerprint), PageResult(pinned, {}), tmp_path / "pinned")
    report = drift.check_page(demo, tmp_path / "drift", tmp_path / "pinned", fingerprint)
    assert report.compared == 2 and not report.failures
    assert report.changed == [("docs/demo/drift-page.md:5", "old text", "new text")]
    assert (tmp_path / "drift").is_dir()  # a clean page is cached for the next drift run

    text = drift.render([report], {"jax": "9.9"}, {"jax": "0.1"}, "jax==9.9")
    assert "Broken ❌/✅ contracts (0)" in text and "1 output block(s) would change" in text


def test_a_stale_pinned_cache_is_reported_not_compared(tmp_path):
    demo = page(fence("print(1)"), DRIFT_PAGE)
    report = drift.check_page(
        demo, tmp_path / "drift", tmp_path / "pinned", environment_fingerprint()
    )
    assert report.compared == 0 and "no pinned output" in report.note


def test_relaxed_block_cannot_stop_the_page():
    demo = page(fence("value = 3\nraise RuntimeError('x')"), DRIFT_PAGE)
    relaxed = drift.relax(demo.blocks[0])
    result = run_page(dataclasses.replace(demo, blocks=[relaxed]))
    assert result.outcomes[0].error == ""


@pytest.mark.unit
def test_a_failing_doctest_is_relaxed_to_a_skip():
    """Its ``>>>`` lines do not compile inside try/except, so it is skipped instead."""
    demo = page(fence(">>> 1 + 1\n3"), DRIFT_PAGE)
    assert demo.blocks[0].is_doctest
    assert drift.relax(demo.blocks[0]).skip == "drift: failed in this JAX"


def test_a_broken_fact_is_reported_with_its_statement():
    statement = "A Python if on a tracer raises TracerBoolConversionError"
    demo = page(fence("assert 1 == 2, 'now false'", f"fact: {statement}"), DRIFT_PAGE)
    _, failures, _ = drift.run_continuing(demo)
    assert [(f.kind, f.summary) for f in failures] == [
        ("fact", f"fact '{statement}' no longer holds: AssertionError: now false")
    ]


def test_reworded_messages_are_classified_the_same(monkeypatch):
    """Drift sorts failures by their kind, so rewording the engine's messages changes nothing."""
    demo = page(
        fence("x = 1", "bad: raises ValueError")
        + fence("print('fixed')", "good")
        + fence("assert 1 == 2", "fact: one is two")
        + fence("{}['gone']"),
        DRIFT_PAGE,
    )

    def kinds_of_failures() -> list[tuple[str, int | None]]:
        found, namespace = [], new_namespace()
        for index, block in enumerate(demo.blocks):
            try:
                execute_block(block, namespace)
            except PageFailure as error:
                error.failure.index = index
                finding = drift.classify(error.failure, demo)
                found.append((finding.kind, finding.index))
        return found

    expected = [("contract", 0), ("fact", 2), ("contract", 3)]
    assert kinds_of_failures() == expected
    original = execute._failure

    def reworded(block, kind, summary, **details):
        return original(block, kind, "Something unexpected happened.", **details)

    monkeypatch.setattr(execute, "_failure", reworded)
    assert kinds_of_failures() == expected
    failure = drift.classify(
        Failure(Kind.ASSERTION, demo.path, 11, 2, "AssertionError", message="Oops."), demo
    )
    assert failure.summary == "fact 'one is two' no longer holds: AssertionError"
