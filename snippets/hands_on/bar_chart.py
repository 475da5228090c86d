import matplotlib.pyplot as plt

labels = ["eager", "jax.jit", "matmul alone\n(jit)"]
timings = [eager_t, jit_t, matmul_t]
medians_ms = [t.median * 1e3 for t in timings]
spreads_ms = [t.spread * 1e3 for t in timings]

fig, ax = plt.subplots(figsize=(5.6, 3.6))
bars = ax.bar(labels, medians_ms, yerr=spreads_ms, capsize=5, width=0.55, color=["C0", "C1", "C2"])
for bar, median, spread in zip(bars, medians_ms, spreads_ms, strict=True):
    ax.annotate(
        f"{median:.2f} ms",
        (bar.get_x() + bar.get_width() / 2, median + spread),
        xytext=(0, 4),
        textcoords="offset points",
        ha="center",
    )
ax.set_ylim(0, max(m + s for m, s in zip(medians_ms, spreads_ms, strict=True)) * 1.2)
ax.set_ylabel("time per call (ms, median)")
ax.set_title("heavy_score: eager vs jax.jit (2-core CPU)")
ax.spines[["top", "right"]].set_visible(False)
fig.tight_layout()
fig.set_label(
    "Bar chart of time per call, median of 15 runs with error bars showing the spread: "
    f"eager {medians_ms[0]:.2f} ms, jax.jit {medians_ms[1]:.2f} ms, "
    f"the matrix multiplication alone {medians_ms[2]:.2f} ms."
)
