"""The recording machine's per-call floor: ``python -m engine.tools.per_call_floor`` prints as
JSON what an empty jitted call takes on this machine's default device, until its result is
ready and until the call returns.

The recorder (``engine.tools.accelerator``) runs it in a process of its own before the pages (the
chip admits one process at a time) and keeps it with each page it records; the site prints it
under every timing a TPU recorded, since no call there takes less.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from engine.page.model import ROOT

RUNS, NUMBER = 7, 100  # jitkit.time_it's runs, each the median's sample of NUMBER calls


def measure(runs: int = RUNS, number: int = NUMBER) -> dict:
    """An empty jitted call timed as the pages' helper times one (``jitkit.time_it``: a warm-up,
    ``block_until_ready`` on each result, the median of ``runs``), and the median time until the
    call returns, before its result is ready; in µs, with the device it ran on."""
    sys.path.insert(0, str(ROOT / "snippets"))
    import jax  # here, not above: importing this module starts no JAX
    import jax.numpy as jnp

    from jitkit import time_it

    empty = jax.jit(lambda x: x)  # the loop-speed page's empty function
    x = jnp.float32(0.3)
    ready = time_it(empty, x, runs=runs, number=number).median
    returned = []
    for _ in range(runs * number):
        start = time.perf_counter()
        result = empty(x)
        returned.append(time.perf_counter() - start)
        result.block_until_ready()
    device = jax.devices()[0]
    return {
        "empty_call_us": round(ready * 1e6, 1),
        "call_returns_us": round(statistics.median(returned) * 1e6, 1),
        "device": f"{device.platform} ({device.device_kind})",
        "timed": f"jitkit.time_it(jax.jit(lambda x: x), float32 scalar, runs={runs}, "
        f"number={number}).median",
    }


if __name__ == "__main__":
    print(json.dumps(measure()))
