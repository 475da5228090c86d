"""Run a small program in a new Python process and read its compile log.

`run(program, *args, **env)` starts `python -c program args...` with extra environment
variables, waits for it and returns what it printed (stdout and stderr together). The programs on
this page print a line `CALL <label>` before each call they make, and set `jax_log_compiles`, so
`per_call(output, name)` can count, call by call, how often `name` was traced and compiled.
"""

import os
import subprocess
import sys


def run(program, *args, check=True, **env):
    """Run `program` in a new Python process; return its output (stdout and stderr)."""
    done = subprocess.run(
        [sys.executable, "-c", program, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
    )
    if check and done.returncode:
        raise RuntimeError(done.stdout)
    return done.stdout


def per_call(output, name):
    """{label: (traces, compiles)} of jit(name) for each `CALL label` line in `output`."""
    counts, label = {}, None
    for line in output.splitlines():
        if line.startswith("CALL "):
            label = line[len("CALL ") :]
            counts[label] = (0, 0)
        elif label is not None:
            traces, compiles = counts[label]
            traces += line.startswith(f"Finished tracing {name} ")
            compiles += line.startswith(f"Finished XLA compilation of jit({name}) ")
            counts[label] = (traces, compiles)
    return counts


def show(counts):
    """Print a per_call result as a small table."""
    width = max(len(label) for label in counts)
    print(f"{'call':{width}}  traced  compiled")
    for label, (traces, compiles) in counts.items():
        print(f"{label:{width}}  {traces:6}  {compiles:8}")
