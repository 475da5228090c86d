"""Checks for the exercise "tax_brackets": ``tax_switch(income)`` and ``tax_vectorized(income)``.

Every expected tax comes from a bracket-by-bracket reference in float64 NumPy, written
independently of the reference solution: each bracket taxes only the slice of the income
that falls inside it.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from check_solution import check

EDGES = (0.0, 12_000.0, 45_000.0, 110_000.0)
RATES = (0.0, 0.15, 0.25, 0.35)
# At, just below and just above every edge, plus a few incomes well inside each bracket.
AROUND_EDGES = sorted({e + d for e in EDGES[1:] for d in (-1.0, -0.5, 0.0, 0.5, 1.0)})
INCOMES = [0.0, 7_500.0, *AROUND_EDGES, 30_000.0, 80_000.0, 250_000.0, 1_000_000.0]
# float32 carries about 7 significant digits: 1,000,000 in, ~300,000 out, so allow a few cents.
ATOL, RTOL = 0.05, 1e-6


def reference_tax(income: float) -> float:
    uppers = (*EDGES[1:], np.inf)
    return float(
        sum(
            max(0.0, min(income, high) - low) * rate
            for low, high, rate in zip(EDGES, uppers, RATES, strict=True)
        )
    )


EXPECTED = np.array([reference_tax(v) for v in INCOMES])


def _function(module, name):
    fn = getattr(module, name, None)
    assert callable(fn), f"expected a function named {name} at module scope, got none"
    return fn


def _traced(fn, name, *args):
    """Call ``fn`` under jit, turning a tracer error into advice."""
    try:
        return jax.jit(fn)(*args)
    except jax.errors.JAXTypeError as error:
        first = str(error).strip().splitlines()[0]
        raise AssertionError(
            f"expected {name} to run under jax.jit, got {type(error).__name__}: {first} "
            "(a Python if/elif cannot test a traced income: let lax.switch or jnp.select choose)"
        ) from None


def _compare(got, name):
    got = np.asarray(got, dtype=np.float64)
    wrong = [
        f"income {income:,.1f}: expected {want:,.2f}, got {value:,.2f}"
        for income, want, value in zip(INCOMES, EXPECTED, got, strict=True)
        if not np.isclose(value, want, rtol=RTOL, atol=ATOL)
    ]
    assert not wrong, f"{name}: {len(wrong)} wrong of {len(INCOMES)}; " + "; ".join(wrong[:4])


@check("tax_switch runs under jax.jit (no Python if on the traced income)")
def switch_runs_under_jit(module):
    _traced(_function(module, "tax_switch"), "tax_switch", jnp.float32(50_000.0))


@check("tax_switch uses lax.switch: its jaxpr contains a cond")
def switch_has_cond(module):
    fn = _function(module, "tax_switch")
    _traced(fn, "tax_switch", jnp.float32(50_000.0))
    program = str(jax.make_jaxpr(fn)(jnp.float32(50_000.0)))
    assert "cond[" in program, (
        "expected a cond in the jaxpr of tax_switch (lax.switch becomes one), got none: "
        "jnp.where/jnp.select compute every bracket; this version should pick one branch"
    )


@check("tax_switch matches a bracket-by-bracket NumPy reference at, below and above each edge")
def switch_matches_reference(module):
    fn = jax.jit(_function(module, "tax_switch"))
    got = []
    for income in INCOMES:
        value = jnp.asarray(_traced(fn, "tax_switch", jnp.float32(income)))
        assert value.size == 1, (
            f"income {income:,.1f}: expected one number, got shape {value.shape}"
        )
        got.append(float(value.reshape(())))
    _compare(got, "tax_switch")


@check("tax_vectorized matches the reference on a whole vector of incomes, under jax.jit")
def vectorized_matches_reference(module):
    fn = _function(module, "tax_vectorized")
    got = jnp.asarray(_traced(fn, "tax_vectorized", jnp.asarray(INCOMES, jnp.float32)))
    assert got.shape == (len(INCOMES),), (
        f"expected one tax per income, shape ({len(INCOMES)},), got shape {got.shape}"
    )
    _compare(got, "tax_vectorized")


@check("tax_vectorized keeps the input's shape: 3x4 incomes in, 3x4 taxes out")
def vectorized_keeps_shape(module):
    """Only the shape: the values are the check above's business."""
    fn = _function(module, "tax_vectorized")
    grid = jnp.asarray(INCOMES[:12], jnp.float32).reshape(3, 4)
    got = jnp.asarray(_traced(fn, "tax_vectorized", grid))
    assert got.shape == (3, 4), (
        f"expected shape (3, 4), got shape {got.shape}: work element-wise, without "
        "flattening or reducing the input"
    )
