"""Checks for the exercise "shrink_the_trace": ``spring(position, velocity, steps)``.

The expected states come from the same semi-implicit Euler step written in float64 NumPy here,
not from the learner's spring_unrolled. Program size is measured as the number of jaxpr
equations, counting those of nested jaxprs too (a jitted inner function, a loop body), so a
Python loop hidden inside a jax.jit is still seen.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from check_solution import check

DT, STIFFNESS, DAMPING = 0.05, 4.0, 0.5
START_POSITION = np.array([1.0, -0.5, 0.25, 2.0], dtype=np.float32)
START_VELOCITY = np.array([0.0, 0.3, -1.0, 0.5], dtype=np.float32)
SHORT, LONG = 10, 1_000


def _spring(module):
    fn = getattr(module, "spring", None)
    assert callable(fn), "expected a function named spring at module scope, got none"
    return fn


def _reference(steps):
    position = START_POSITION.astype(np.float64)
    velocity = START_VELOCITY.astype(np.float64)
    for _ in range(steps):
        velocity = velocity - DT * (STIFFNESS * position + DAMPING * velocity)
        position = position + DT * velocity
    return position, velocity


def _show(values):
    """Values rounded for a message: float64 first, so 0.3 does not print as 0.30000001."""
    return np.round(np.asarray(values, dtype=np.float64), 5).tolist()


def _state(out):
    assert isinstance(out, tuple | list) and len(out) == 2, (
        f"expected spring to return a pair (position, velocity), got {type(out).__name__}"
    )
    return np.asarray(out[0], dtype=np.float64), np.asarray(out[1], dtype=np.float64)


def _equations(jaxpr) -> int:
    """Equations of a jaxpr, with those of every jaxpr nested in their parameters."""
    total = 0
    for eqn in jaxpr.eqns:
        total += 1
        for value in eqn.params.values():
            for item in value if isinstance(value, tuple | list) else (value,):
                inner = getattr(item, "jaxpr", item)  # a ClosedJaxpr holds a Jaxpr
                if hasattr(inner, "eqns"):
                    total += _equations(inner)
    return total


def _size(module, steps):
    traced = jax.make_jaxpr(_spring(module), static_argnums=2)(
        jnp.asarray(START_POSITION), jnp.asarray(START_VELOCITY), steps
    )
    return _equations(traced.jaxpr)


@check("spring matches a step-by-step reference after 1, 7 and 60 steps (to 1e-4)")
def matches_reference(module):
    fn = _spring(module)
    for steps in (1, 7, 60):
        got_position, got_velocity = _state(
            fn(jnp.asarray(START_POSITION), jnp.asarray(START_VELOCITY), steps)
        )
        want_position, want_velocity = _reference(steps)
        assert np.allclose(got_position, want_position, atol=1e-4) and np.allclose(
            got_velocity, want_velocity, atol=1e-4
        ), (
            f"after {steps} step(s): expected position {_show(want_position)} "
            f"and velocity {_show(want_velocity)}, got position "
            f"{_show(got_position)} and velocity "
            f"{_show(got_velocity)} (update the velocity first, then move the "
            "position with the new velocity)"
        )


@check("spring with steps=0 returns the starting position and velocity unchanged")
def zero_steps_change_nothing(module):
    got_position, got_velocity = _state(
        _spring(module)(jnp.asarray(START_POSITION), jnp.asarray(START_VELOCITY), 0)
    )
    assert np.array_equal(got_position, START_POSITION) and np.array_equal(
        got_velocity, START_VELOCITY
    ), (
        f"with steps=0: expected the start, position {_show(START_POSITION)} and velocity "
        f"{_show(START_VELOCITY)}, got position {_show(got_position)} and velocity "
        f"{_show(got_velocity)}: every step belongs inside the loop"
    )


@check(
    f"spring's jaxpr has as many equations for {LONG:,} steps as for {SHORT} (nested ones counted)"
)
def program_does_not_grow(module):
    short, long = _size(module, SHORT), _size(module, LONG)
    assert short == long, (
        f"expected the same number of equations for {SHORT} and {LONG:,} steps, got {short:,} "
        f"and {long:,}: the loop is copied into the program once per step; put the step in the "
        "body of lax.fori_loop or lax.scan"
    )
