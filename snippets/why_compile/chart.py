import matplotlib.pyplot as plt
from accelerator_record import device_label, floor_label, recorded_output, seconds_after

fig = plt.figure(figsize=(7.5, 6.4))
grid = fig.add_gridspec(2, 2)
ax_chain, ax_mm = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])
ax_gain = fig.add_subplot(grid[1, :])
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

# The same timing block, as a TPU printed it when the pages were recorded there: its medians.
tpu_text, tpu_record = recorded_output("course/why-compile", "ripple eager:", "matmul jit")
tpu = f"{device_label(tpu_record)}; {floor_label(tpu_record)}"
gains = {
    "this build's CPU": [
        timings[(t, "eager")].median / timings[(t, "jit")].median for t in ("ripple", "matmul")
    ],
    tpu: [
        seconds_after(tpu_text, f"{t:6} eager:") / seconds_after(tpu_text, f"{t:6} jit  :")
        for t in ("ripple", "matmul")
    ],
}
places = np.arange(2)
# Other colours than the eager and jit bars above: these bars are machines, not modes.
for offset, colour, (machine, ratios) in zip((-0.2, 0.2), ("C2", "C4"), gains.items(), strict=True):
    bars = ax_gain.bar(places + offset, ratios, width=0.4, label=machine, color=colour)
    ax_gain.bar_label(bars, labels=[f"{r:.1f}x" for r in ratios], fontsize=9)
ax_gain.axhline(1.0, color="grey", linestyle="--", linewidth=1)  # 1x: jit gains nothing
ax_gain.set_xticks(places, ["60 small ops on 1,000 floats", "one 1024x1024 matmul"])
ax_gain.set_ylim(0, 1.2 * max(max(r) for r in gains.values()))  # from zero, room for labels
ax_gain.set_ylabel("eager time / jit time")
ax_gain.set_title("Speed-up from jax.jit (median eager / median jit); dashed line: 1x", fontsize=10)
ax_gain.legend(fontsize=9, frameon=False)
fig.suptitle(
    "Top: median time per call on the build machine (2-core CPU); error bars: 25th to 75th "
    "percentile",
    fontsize=9,
)


def fmt(task, scale, unit):
    eager, jitted = timings[(task, "eager")], timings[(task, "jit")]
    return (
        f"eager {eager.median * scale:,.0f} {unit}, jit {jitted.median * scale:,.0f} {unit} "
        f"(eager/jit {eager.median / jitted.median:.1f})"
    )


cpu_gain, tpu_gain = gains.values()
fig.set_label(
    "Three bar charts. Top, median time per call, eager vs jax.jit, measured on the build "
    f"machine: left, a chain of 60 small element-wise operations: {fmt('ripple', 1e6, 'µs')}; "
    f"right, one 1024 by 1024 matrix multiply: {fmt('matmul', 1e3, 'ms')}; error bars span the "
    "25th to 75th percentile of the runs. Bottom, the speed-up eager time / jit time on this "
    f"build's CPU beside {tpu}: chain {cpu_gain[0]:.1f}x vs {tpu_gain[0]:.1f}x, "
    f"matmul {cpu_gain[1]:.1f}x vs {tpu_gain[1]:.1f}x."
)
fig.tight_layout()
