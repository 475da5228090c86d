"""Run sharded_callback.py (saved by the page) in a fresh Python process, where it can still ask
for four CPU devices before JAX starts, and show what it printed."""

import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPT = Path(tempfile.gettempdir(), "sharded_callback.py")  # where the page saved it
done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=120)
if done.returncode:
    raise RuntimeError(done.stderr)
printed = done.stdout.splitlines()  # XLA's own warnings go to stderr, left out
print("\n".join(printed))
