import matplotlib.pyplot as plt

TIMES = "\u00d7"  # the multiplication sign
labels = [f"one 1024{TIMES}1024 matmul", f"25 {TIMES} (cos, *, +)\non {vec.size:,} numbers"]
ratios = [matmul_ratio, chain_ratio]

fig, ax = plt.subplots(figsize=(6, 3.4))
bars = ax.bar(labels, ratios, color=["C0", "C1"])
ax.bar_label(bars, fmt="%.1f" + TIMES)
ax.axhline(1.0, color="C7", linestyle="--", linewidth=1, label=f"1{TIMES} = no speed-up")
ax.legend(loc="upper left")
ax.set_ylim(0, max(ratios) * 1.2)
ax.set_ylabel("speed-up of jit over eager\n(eager time / jit time)")
ax.set_title("Cached jit calls vs eager calls (build machine, 2-core CPU)")
fig.set_label(
    f"Bar chart of how many times faster cached jit calls were than eager calls on the build "
    f"machine: {matmul_ratio:.1f}x for one 1024 by 1024 matrix multiply and {chain_ratio:.1f}x "
    f"for a chain of 75 small element-wise operations; a dashed line marks 1x, no speed-up."
)
fig.tight_layout()
