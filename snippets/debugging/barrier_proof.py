"""When does a debug callback run: before the call returns, or later? A handshake makes it exact."""

import threading

holding = threading.Event()  # set for the queued call only
release = threading.Event()
heard = []


def slow_listener(value):
    if holding.is_set():
        release.wait(timeout=5)  # hold on until the caller has looked
    heard.append(float(value))


def busy(a):
    for _ in range(5):
        a = jnp.tanh(a @ a)
    return a


@jax.jit
def double_and_listen(a):
    jax.debug.callback(slow_listener, a[0, 0])
    return a * 2


def heard_at_return(queue_work_first):
    """Call double_and_listen; return what its callback had recorded when the call returned."""
    release.clear()
    heard.clear()
    if queue_work_first:
        holding.set()
        busy_jit(square)  # matrix products: dispatched, still running
    result = double_and_listen(square)
    at_return = list(heard)
    release.set()  # let a held callback go on...
    jax.effects_barrier()  # ...and wait until every pending callback has run
    holding.clear()
    assert heard == [float(result[0, 0]) / 2]  # after the barrier, always there
    return at_return


square = jax.random.normal(jax.random.key(0), (600, 600)) / 25
busy_jit = jax.jit(busy)
busy_jit(square).block_until_ready()
double_and_listen(square)  # compile both first
jax.effects_barrier()

idle = heard_at_return(queue_work_first=False)
for _ in range(3):  # on a loaded machine the earlier work could, rarely, end first
    queued = heard_at_return(queue_work_first=True)
    if queued == []:
        break
print("values heard when the call returned | idle device:", len(idle), "| queued:", len(queued))
if jax.default_backend() == "cpu":  # what the page says of this JAX's CPU backend
    assert len(idle) == 1  # idle: the callback ran before the call returned
    assert queued == []  # queued: the call returned first; the barrier waited for the callback
