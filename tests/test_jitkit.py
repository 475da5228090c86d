"""The helpers pages and learners use: compile counting, timing, speed assertions, errors."""

from __future__ import annotations

import re
import time

import jax
import jax.numpy as jnp
import pytest

import jitkit
from jitkit import assert_faster, count_compiles, show_error, time_it


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


def test_show_error_prints_type_and_first_line(capsys):
    with show_error(ValueError):
        raise ValueError("first line\nsecond line")
    assert capsys.readouterr().out == "ValueError: first line\n"


def test_show_error_insists_on_an_error():
    with pytest.raises(AssertionError, match="expected KeyError"):  # noqa: SIM117
        with show_error(KeyError):
            pass


def test_show_error_lets_other_errors_through():
    with pytest.raises(TypeError):  # noqa: SIM117
        with show_error(KeyError):
            raise TypeError("not the expected one")
