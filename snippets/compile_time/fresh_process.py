"""Run a small script in a new Python process, with extra environment variables, so that
XLA_FLAGS (read once, when JAX starts its backend) cannot reach the rest of this page."""

import os
import subprocess
import sys


def run_fresh(script, **env):
    """Run `script` with `python -c`; return (exit code, everything it printed)."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **env},
    )
    return done.returncode, done.stdout
