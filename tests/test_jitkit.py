"""The helpers pages and learners use: compile counting, timing, speed assertions, errors."""

from __future__ import annotations

import re
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest
from timing_marks import clockless

import jitkit
from jitkit import assert_faster, claim_ratio, count_compiles, show_error, time_it


def test_count_compiles_counts_each_function_and_shape():
    def scale(x):
        return x * 3

    scaled = jax.jit(scale)
    small, large = jnp.ones(3), jnp.ones(5)
    with count_compiles() as compiles:
        scaled(small)
        scaled(small)  # cached
        scaled(large)  # new shape
    assert compiles("scale") == 2
    assert compiles.total >= 2
    assert any("jit(scale)" in line for line in compiles.log_lines)


def test_count_compiles_keeps_the_log_out_of_stderr(capsys):
    with count_compiles():
        jax.jit(lambda v: v - 1)(jnp.ones(2))
    assert "Compiling" not in capsys.readouterr().err


def test_count_compiles_fails_loudly_if_the_log_format_changes(monkeypatch):
    monkeypatch.setattr(jitkit, "_COMPILE_LINE", re.compile(r"^a format JAX never prints"))
    with pytest.raises(RuntimeError, match="log format has probably changed"):  # noqa: SIM117
        with count_compiles():
            jax.jit(lambda v: v + 2)(jnp.ones(4))


def test_time_it_blocks_on_the_whole_result(monkeypatch):
    """A tuple result must be handed to block_until_ready whole, not skipped as 'not an array'."""
    waited_on = []
    real = jax.block_until_ready
    monkeypatch.setattr(jax, "block_until_ready", lambda tree: waited_on.append(tree) or real(tree))
    pair = jax.jit(lambda m: (m, m @ m))
    timing = time_it(pair, jnp.ones((8, 8)), warmup=1, runs=3, number=2)
    assert len(waited_on) == 1 + 3 * 2
    assert all(isinstance(tree, tuple) and len(tree) == 2 for tree in waited_on)
    assert len(timing.runs) == 3 and timing.median > 0
    assert str(timing).count("±") == 1


def test_time_it_rejects_zero_runs():
    with pytest.raises(ValueError):
        time_it(lambda: None, runs=0)


def test_assert_faster_returns_the_ratio():
    def slow():
        time.sleep(0.01)

    def fast():
        time.sleep(0.001)

    assert assert_faster(fast, slow, runs=3) > 2


def test_assert_faster_fails_with_every_measurement():
    def slow():
        time.sleep(0.002)

    with pytest.raises(AssertionError, match=r"at least 1.0x, measured: slow .*; slow .*"):
        assert_faster(slow, lambda: None, retries=2, runs=3)


def test_show_error_prints_type_and_the_whole_message(capsys):
    """JAX's messages explain themselves after their first line ("...but they differ:")."""
    with show_error(ValueError):
        raise ValueError("first line\nsecond line")
    assert capsys.readouterr().out == "ValueError: first line\nsecond line\n"


def test_show_error_insists_on_an_error():
    with pytest.raises(AssertionError, match="expected KeyError"):  # noqa: SIM117
        with show_error(KeyError):
            pass


def test_show_error_lets_other_errors_through():
    with pytest.raises(TypeError):  # noqa: SIM117
        with show_error(KeyError):
            raise TypeError("not the expected one")


# ---------------------------------------------------------------- timing claims as data


@clockless
def test_claim_ratio_records_what_was_claimed_and_where():
    jitkit.TIMING_CLAIMS.clear()
    line = _line_of_next_statement()
    assert claim_ratio("warm vs cold", 12.0, at_least=4) == 12.0
    (claim,) = jitkit.TIMING_CLAIMS
    assert (claim.label, claim.measured, claim.at_least, claim.at_most) == (
        "warm vs cold",
        12.0,
        4,
        None,
    )
    assert (Path(claim.filename).name, claim.line) == ("test_jitkit.py", line)
    assert claim.margin == 3.0 and claim.required == "at least 4x"


@clockless
def test_claim_ratio_checks_both_ends_of_a_band():
    jitkit.TIMING_CLAIMS.clear()
    claim_ratio("a draw", 1.5, at_least=1 / 3, at_most=3)
    with pytest.raises(AssertionError, match=r"a draw: measured 4.00x, required between 0.33"):
        claim_ratio("a draw", 4.0, at_least=1 / 3, at_most=3)
    margins = [claim.margin for claim in jitkit.TIMING_CLAIMS]
    assert margins == [2.0, 0.75]  # the failed claim is recorded too, with its margin below 1
    with pytest.raises(ValueError, match="needs at_least, at_most or both"):
        claim_ratio("nothing required", 1.0)


def test_assert_faster_records_its_best_attempt_with_a_label():
    jitkit.TIMING_CLAIMS.clear()

    def slow():
        time.sleep(0.01)

    ratio = assert_faster(lambda: None, slow, runs=3, min_ratio=2, label="sleep vs nothing")
    (claim,) = jitkit.TIMING_CLAIMS
    assert claim.label == "sleep vs nothing" and claim.measured == ratio and claim.at_least == 2
    assert Path(claim.filename).name == "test_jitkit.py"


def _line_of_next_statement() -> int:
    import sys

    return sys._getframe(1).f_lineno + 1
