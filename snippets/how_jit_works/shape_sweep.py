import time

import matplotlib.pyplot as plt

from jitkit import count_compiles, time_it

sizes = [32, 64, 128, 256, 512]
sweep_keys = jax.random.split(jax.random.key(21), len(sizes))
matrices = {n: jax.random.normal(k, (n, n)) for n, k in zip(sizes, sweep_keys, strict=True)}

first_ms, cached_ms = [], []
for n in sizes:
    with count_compiles() as compiles:
        start = time.perf_counter()
        mix_rows_jit(matrices[n]).block_until_ready()
        first_ms.append((time.perf_counter() - start) * 1e3)
        cached_ms.append(time_it(mix_rows_jit, matrices[n], runs=5).median * 1e3)
    assert compiles("mix_rows") == 1  # one compilation per new shape, none for the repeats
    print(f"{n:>3}x{n:<3}  first call {first_ms[-1]:7.2f} ms   cached call {cached_ms[-1]:7.2f} ms")

with count_compiles() as compiles:
    for n in sizes:
        mix_rows_jit(matrices[n])
assert compiles("mix_rows") == 0  # every shape has its own cache entry now
overhead = [first / cached for first, cached in zip(first_ms, cached_ms, strict=True)]

fig, ax = plt.subplots(figsize=(6.4, 3.6))
ax.plot(sizes, first_ms, marker="o", label="first call (trace + compile + run)")
ax.plot(sizes, cached_ms, marker="s", label="cached call (run only, median of 5)")
ax.set_xscale("log", base=2)
ax.set_yscale("log")
ax.set_xticks(sizes, [f"{n}\u00d7{n}" for n in sizes])
ax.set_xlabel("input matrix shape (each one new to the jitted function)")
ax.set_ylabel("time per call (ms, log scale)")
ax.set_title("First call vs cached call, per shape (build machine, 2-core CPU)")
ax.legend()
fig.set_label(
    "Line chart, log scale, of the time per call of one jitted function for square inputs from "
    f"{sizes[0]} to {sizes[-1]} rows, measured on the build machine. First calls took "
    f"{min(first_ms):.0f} to {max(first_ms):.0f} ms; cached calls took {min(cached_ms):.2f} to "
    f"{max(cached_ms):.1f} ms, so the compile overhead matters most for the small shapes."
)
fig.tight_layout()
