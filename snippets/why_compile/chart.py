import matplotlib.pyplot as plt

fig, (ax_chain, ax_mm) = plt.subplots(1, 2, figsize=(7.5, 3.4))
panels = [
    (ax_chain, "ripple", 1e6, "µs", "60 small ops on 1,000 floats"),
    (ax_mm, "matmul", 1e3, "ms", "one 1024x1024 matmul"),
]
for ax, task, scale, unit, title in panels:
    eager, jitted = timings[(task, "eager")], timings[(task, "jit")]
    heights = [eager.median * scale, jitted.median * scale]
    # Error bars span the middle half of the runs (25th to 75th percentile).
    low, high = zip(
        *(np.percentile(t.runs, [25, 75]) * scale for t in (eager, jitted)), strict=True
    )
    errors = [np.subtract(heights, low), np.subtract(high, heights)]
    names = [f"eager\n{heights[0]:,.0f} {unit}", f"jax.jit\n{heights[1]:,.0f} {unit}"]
    ax.bar(names, heights, yerr=errors, capsize=6, color=["C0", "C1"])
    ax.set_ylim(bottom=0)  # bars start at zero
    ax.set_ylabel(f"time per call ({unit})")
    ax.set_title(f"{title}\neager/jit = {eager.median / jitted.median:.1f}", fontsize=10)
fig.suptitle(
    "Median time per call on the build machine (2-core CPU); error bars: 25th to 75th percentile",
    fontsize=9,
)


def fmt(task, scale, unit):
    eager, jitted = timings[(task, "eager")], timings[(task, "jit")]
    return (
        f"eager {eager.median * scale:,.0f} {unit}, jit {jitted.median * scale:,.0f} {unit} "
        f"(eager/jit {eager.median / jitted.median:.1f})"
    )


fig.set_label(
    "Two bar charts of median time per call, eager vs jax.jit, measured on the build machine. "
    f"Left, a chain of 60 small element-wise operations: {fmt('ripple', 1e6, 'µs')}. "
    f"Right, one 1024 by 1024 matrix multiply: {fmt('matmul', 1e3, 'ms')}. "
    "Error bars span the 25th to 75th percentile of the runs."
)
fig.tight_layout()
