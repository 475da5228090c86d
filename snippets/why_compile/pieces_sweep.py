# Pieces (20 jitted calls from Python) vs the whole chain (one jitted call), from tiny to large
# inputs; time_it blocks on every result, so queued work is always counted.
import matplotlib.pyplot as plt

from jitkit import time_it

sizes = [16, 256, 4_096, 65_536, 1_048_576]
ratios = []
for size in sizes:
    vector = jax.random.uniform(jax.random.key(size), (size,))
    pieces_time = time_it(ripple_by_pieces, vector, runs=5)
    whole_time = time_it(ripple_jit, vector, runs=5)
    ratios.append(pieces_time.median / whole_time.median)
    print(f"{size:>9,} elements: pieces {pieces_time}, whole {whole_time}, ratio {ratios[-1]:.1f}")


# Asynchronous dispatch, shown without a stopwatch: on a million elements Python finishes
# queuing all 20 pieces before the device has finished computing them.
big = jax.random.uniform(jax.random.key(1), (1_048_576,))
queued = ripple_by_pieces(big)
assert not queued.is_ready()  # the Python loop returned before the last piece was computed
queued.block_until_ready()

fig, ax = plt.subplots(figsize=(6.4, 3.4))
ax.plot(sizes, ratios, marker="o")
ax.axhline(1.0, linestyle="--", color="0.5", linewidth=1)
ax.annotate(
    "no difference",
    (sizes[0], 1.0),
    textcoords="offset points",
    xytext=(0, 4),
    fontsize=8,
    color="0.5",
)
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("elements in the input (log scale)")
ax.set_ylabel("pieces time / whole-chain time (log)")
ax.set_title("Cost of 20 jitted pieces vs one jitted chain (build machine)", fontsize=10)
points = ", ".join(f"{r:.1f}x at {n:,} elements" for n, r in zip(sizes, ratios, strict=True))
fig.set_label(
    "Line chart, both axes on a log scale, of the time of 20 separately jitted pieces divided by "
    "the time of the whole jitted chain, against the input size, measured on the build machine: "
    + points
    + f". The ratio falls from {ratios[0]:.1f}x on the smallest input to {ratios[-1]:.1f}x on the "
    "largest, as the work per call grows."
)
fig.tight_layout()
