"""Run train.py (saved by the page) twice, each time in a fresh Python process, on one folder.

A small probe runs before train.py in each process: it listens to JAX's monitoring events
(jax.monitoring) and prints them as JSON when the process ends. jax_log_compiles is on through
the environment, so each process's log lines are kept too.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

TRAIN = Path(tempfile.gettempdir(), "train.py")  # where the page saved it

PROBE = """
import atexit, json
import jax

seen = {"events": [], "seconds": {}}
jax.monitoring.register_event_listener(lambda name, **kw: seen["events"].append(name))
jax.monitoring.register_event_duration_secs_listener(
    lambda name, secs, **kw: seen["seconds"].setdefault(name.rsplit("/", 1)[-1], []).append(secs))
atexit.register(lambda: print("PROBE " + json.dumps(seen)))

import runpy, sys
sys.argv = sys.argv[1:]  # as if run as `python train.py FOLDER`
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def run_train(folder):
    """Run train.py once on `folder`: what it printed, its log, the probe's record, the files."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(TRAIN), folder],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "JAX_LOG_COMPILES": "1"},
    )
    if done.returncode:
        raise RuntimeError(done.stderr)
    lines = done.stdout.splitlines()
    probe = json.loads(next(line for line in lines if line.startswith("PROBE "))[6:])
    printed = [line for line in lines if not line.startswith("PROBE ")]
    return {"printed": printed, "log": done.stderr, **probe, "files": sorted(os.listdir(folder))}


cache_dir = tempfile.mkdtemp()
runs = {"1: empty folder": run_train(cache_dir), "2: same folder": run_train(cache_dir)}

print(f"{'process':16} {'traced':>6} {'written':>7} {'loaded':>6} {'files':>5}")
for name, run in runs.items():
    print(
        f"{name:16} {run['printed'][0].split()[-1]:>6} "
        f"{run['events'].count('/jax/compilation_cache/cache_misses'):>7} "
        f"{run['events'].count('/jax/compilation_cache/cache_hits'):>6} {len(run['files']):>5}"
    )
print("process 2 logged:")
for line in runs["2: same folder"]["log"].splitlines():
    if "cache hit" in line:
        print("  ", line.split("] ", 1)[-1][:110])
