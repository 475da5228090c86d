"""Run one jitted step in three fresh Python processes and hash each result's bytes.

Each process computes the step twice (to see that a second call repeats the first) and prints
the SHA-256 of the result. The third process is held to one core (os.sched_setaffinity) and
XLA's CPU backend to one thread, so a difference that depends on the thread count would show.
"""

import os
import subprocess
import sys

STEP = """
import hashlib, os, sys
if sys.argv[1] == "one core":
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
import jax, jax.numpy as jnp, numpy as np

x = jax.random.normal(jax.random.key(0), (1024, 1024))
step = jax.jit(lambda x: (jnp.tanh(x @ x.T) @ x).sum(axis=0))
first, second = np.asarray(step(x)), np.asarray(step(x))
print(first.tobytes() == second.tobytes(), hashlib.sha256(first.tobytes()).hexdigest()[:16])
"""


def run(kind):
    env = {key: value for key, value in os.environ.items() if key != "XLA_FLAGS"}
    done = subprocess.run(
        [sys.executable, "-c", STEP, kind], capture_output=True, text=True, timeout=300, env=env
    )
    if done.returncode:
        raise RuntimeError(done.stderr)
    same, digest = done.stdout.split()
    return same == "True", digest


kinds = ["process 1", "process 2", "one core"]
results = {kind: run(kind) for kind in kinds}
hashes = {kind: digest for kind, (_, digest) in results.items()}
repeated = {kind: same for kind, (same, _) in results.items()}
print(f"{'run':10} {'2nd call same':>13}  sha256 of the result")
for kind in kinds:
    print(f"{kind:10} {repeated[kind]!s:>13}  {hashes[kind]}")
