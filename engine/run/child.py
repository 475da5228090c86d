"""The build's child process: one page's blocks in order, in a process of its own (so a page
that turns on ``jax_enable_x64`` cannot change the next), leading its own session (so what its
code starts can be found and stopped), forked by ``engine.run.zygote`` where it can be. The
blocks arrive pickled on stdin; progress and results leave as JSON lines on the original stdout,
which user code cannot reach.
"""

from __future__ import annotations

import datetime
import json
import os
import pickle
import platform
import sys

from engine.run import terminal
from engine.run.execute import execute_block, new_namespace
from engine.run.results import PageFailure


def environment() -> dict:
    """Where the outputs come from, for the page footer."""
    import jax
    import jaxlib

    device = jax.devices()[0]
    return {
        "jax": jax.__version__,
        "jaxlib": jaxlib.__version__,
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "device": f"{device.platform} ({device.device_kind}, {jax.device_count()} device(s))",
        "produced": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


# Set by engine.tools.accelerator where the device admits one process: this page's.
ONE_PROCESS_VARIABLE = "JITDOCS_CHILDREN_ON_CPU"


def main() -> int:
    request = pickle.load(sys.stdin.buffer)  # from our own parent: run_page
    if os.environ.pop(ONE_PROCESS_VARIABLE, ""):
        import jax  # noqa: F401  (reads JAX_PLATFORMS now: this page gets the chip)

        os.environ["JAX_PLATFORMS"] = "cpu"  # what the page starts reads this one
    terminal.set_subreaper()  # a daemon a block starts stays findable, see execute_block
    protocol = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # C-level writes to fd 1 must not corrupt the protocol

    def send(**message) -> None:
        protocol.write(json.dumps(message) + "\n")

    namespace = new_namespace()
    for index, block in enumerate(request["blocks"]):
        send(event="start", index=index)
        try:
            outcome = execute_block(block, namespace, request["project"])
        except PageFailure as error:
            error.failure.index = index
            send(event="failed", index=index, failure=error.failure.to_dict())
            if not request.get("keep_going"):
                return 1
            continue
        send(event="done", index=index, outcome=outcome.to_dict())
    send(event="environment", environment=environment())
    return 0


if __name__ == "__main__":
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Without the interpreter's teardown, which takes ~0.5 s with JAX loaded: the page is done,
    # and the build waits for this process to end before the next page that must run alone.
    os._exit(status)
