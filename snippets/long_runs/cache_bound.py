"""Fill a persistent cache folder with ten small programs, in a fresh process per setting, and
report what the folder holds afterwards.

Three settings of jax_compilation_cache_max_size: unset (-1, no bound), a bound of 12,000 bytes,
and the same bound in a process where the filelock package cannot be imported (as if it were
not installed: JAX needs it to evict entries).
"""

import json
import subprocess
import sys
import tempfile

FILL = """
import json, os, sys, warnings
if sys.argv[3] == "hide":
    sys.modules["filelock"] = None  # `import filelock` now fails, as without the package
import jax, jax.numpy as jnp, numpy as np

folder = sys.argv[1]
jax.config.update("jax_compilation_cache_dir", folder)
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
jax.config.update("jax_compilation_cache_max_size", int(sys.argv[2]))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    written = {}  # program number -> the entry it added
    for n in range(1, 11):
        before = set(os.listdir(folder))
        jax.jit(lambda v, n=n: jnp.tanh(v) * n)(np.ones(n, np.float32))  # ten programs
        added = [name for name in set(os.listdir(folder)) - before if name.endswith("-cache")]
        written.update({n: added[0]} if added else {})
entries = [name for name in os.listdir(folder) if name.endswith("-cache")]
size = sum(os.path.getsize(os.path.join(folder, name)) for name in entries)
kept = sorted(n for n, name in written.items() if name in entries)
print(json.dumps({"entries": len(entries), "bytes": size, "kept": kept,
                  "warnings": sorted({str(w.message).split(":")[-1].strip() for w in caught})}))
"""


def fill(max_size, filelock):
    done = subprocess.run(
        [sys.executable, "-c", FILL, tempfile.mkdtemp(), str(max_size), filelock],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode:
        raise RuntimeError(done.stderr)
    return json.loads(done.stdout)


runs = {
    "no bound (-1)": fill(-1, "keep"),
    "bound 12,000 B": fill(12_000, "keep"),
    "bound, no filelock": fill(12_000, "hide"),
}
print(f"{'setting':20} {'entries':>7} {'bytes':>7}  programs kept")
for name, run in runs.items():
    print(f"{name:20} {run['entries']:>7} {run['bytes']:>7,}  {run['kept']}")
print("warning without filelock:", runs["bound, no filelock"]["warnings"][0])
