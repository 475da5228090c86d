"""Does a thread that waits for a jitted result let the other threads run?

A worker thread starts a big jitted computation and then waits for it. Python's switch interval is
raised to 30 s for the probe, so the interpreter takes the GIL away from a running thread only
after 30 s: before that, the main thread runs again only if the worker lets go of the GIL itself.
The main thread then looks whether the result is ready yet.
"""

import sys
import threading


@jax.jit
def heavy(m):
    return lax.fori_loop(0, 60, lambda i, a: jnp.tanh(a @ m), m)


big = jax.random.normal(jax.random.key(1), (512, 512)) / 30
heavy(big).block_until_ready()  # compile first: the probe times nothing


def ready_when_main_runs(wait):
    """Whether the result was already ready when the main thread got the GIL back."""
    results, dispatched = [], threading.Event()

    def worker():
        result = heavy(big)  # returns at once: the program runs on XLA's threads
        results.append(result)
        dispatched.set()
        wait(result)

    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(30.0)
    try:
        thread = threading.Thread(target=worker)
        thread.start()
        dispatched.wait()  # the main thread sleeps here, without the GIL
        ready = results[0].is_ready()  # ...and runs this line once it has the GIL again
        thread.join()
    finally:
        sys.setswitchinterval(old_interval)
    return ready


def poll(result):
    while not result.is_ready():  # a Python loop: keeps the GIL
        pass


waiting = {
    "result.block_until_ready()": ready_when_main_runs(lambda result: result.block_until_ready()),
    "a Python loop polling is_ready()": ready_when_main_runs(poll),
}
for how, ready in waiting.items():
    print(f"worker waits with {how:33} -> main thread ran before the result was ready: {not ready}")
