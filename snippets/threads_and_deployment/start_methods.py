"""Run workers.py (saved by the page) once per start method, each time in a fresh Python process,
and print what each run reported: the pool's results and the warning categories it raised."""

import subprocess
import sys
import tempfile
from pathlib import Path

WORKERS = Path(tempfile.gettempdir(), "workers.py")  # where the page saved it


def run_workers(method):
    done = subprocess.run(
        [sys.executable, str(WORKERS), method], capture_output=True, text=True, timeout=120
    )
    if done.returncode:
        raise RuntimeError(done.stderr)
    return done.stdout.strip()


reports = {method: run_workers(method) for method in ("fork", "spawn")}
for report in reports.values():
    print(report)
