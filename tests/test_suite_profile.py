"""`nox -s profile`'s count of a browser test's CPU (benchmarks/suite_profile.py): the processes
still running under pytest count, as a browser's do while its tests run."""

from __future__ import annotations

import subprocess
import sys

from benchmarks.suite_profile import CLOCK_TICKS, running_cpu_seconds

SPIN_SECONDS = 0.3
# Spins for SPIN_SECONDS of CPU, says so, then waits for its input to close, still running.
SPINNER = f"""
import sys, time
start = time.process_time()
while time.process_time() - start < {SPIN_SECONDS}:
    pass
print("spun", flush=True)
sys.stdin.read()
"""


def test_a_running_child_s_cpu_is_counted_only_when_wanted():
    before = running_cpu_seconds()
    child = subprocess.Popen(
        [sys.executable, "-c", SPINNER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline() == "spun\n"
        counted = running_cpu_seconds() - before
        assert counted >= SPIN_SECONDS - 2 / CLOCK_TICKS, counted
        assert running_cpu_seconds(wanted=False) == 0.0
    finally:
        child.communicate("")
