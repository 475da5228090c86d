"""Load the serialized executable the page saved into a fresh Python process, call it, and
report whether that process compiled anything (jax_log_compiles on)."""

import subprocess
import sys

LOAD = """
import pickle, sys
import jax, numpy as np
from jax.experimental import serialize_executable

jax.config.update("jax_log_compiles", True)
with open(sys.argv[1], "rb") as file:
    payload, in_tree, out_tree = pickle.load(file)
loaded = serialize_executable.deserialize_and_load(payload, in_tree, out_tree)
result = np.asarray(loaded(np.ones((3, 2), np.float32), np.ones((5, 3), np.float32)))
print(f"result sum {result.sum():.4f}")
"""

done = subprocess.run(
    [sys.executable, "-c", LOAD, saved_path], capture_output=True, text=True, timeout=120
)
if done.returncode:
    raise RuntimeError(done.stderr)
new_process = {"printed": done.stdout.strip(), "compiles": done.stderr.count("Compiling ")}
print("new process:", new_process["printed"], "| programs compiled:", new_process["compiles"])
