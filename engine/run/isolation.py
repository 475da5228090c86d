"""Global settings a page may change, saved and restored between pages in one process."""

from __future__ import annotations

import logging
import warnings


def snapshot_state() -> dict:
    """Global settings a page may change: JAX's config, matplotlib's rcParams, the jax logger.

    The build gets isolation for free (one process per page); the tests run every page in one
    process, so they snapshot before a page and ``restore_state`` after it.
    """
    import jax
    import matplotlib

    jax_logger = logging.getLogger("jax")
    return {
        "jax": dict(jax.config.values),
        "rc": dict(matplotlib.rcParams),
        "logger": (jax_logger.level, jax_logger.propagate, list(jax_logger.handlers)),
    }


def restore_state(state: dict) -> None:
    import jax
    import matplotlib
    import matplotlib.pyplot as plt

    for name, value in state["jax"].items():
        if jax.config.values.get(name) != value:
            jax.config.update(name, value)
    plt.close("all")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rcParams includes deprecated keys
        matplotlib.rcParams.update(state["rc"])
    jax_logger = logging.getLogger("jax")
    jax_logger.level, jax_logger.propagate, jax_logger.handlers[:] = state["logger"]
