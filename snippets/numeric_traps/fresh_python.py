"""Run a small script in a new Python process, so that a setting made at its start (here
jax_enable_x64) cannot reach the rest of this page."""

import os
import subprocess
import sys


def run_fresh(script, **env):
    """Run `script` with `python -c`, extra environment variables in `env`; return its output."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
    )
    if done.returncode:
        raise RuntimeError(done.stdout)
    return done.stdout
