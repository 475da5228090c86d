import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

first_path = [
    "call\nf(x)",
    "trace with\ntracers",
    "jaxpr",
    "lower to\nStableHLO",
    "XLA\ncompile",
    "store in\ncache",
    "run",
]
box_w, box_h, step = 1.25, 0.8, 1.6
top_y, bottom_y = 2.2, 0.4

fig, ax = plt.subplots(figsize=(10, 3.3))


def box(x, y, text, colour):
    ax.add_patch(
        FancyBboxPatch(
            (x - box_w / 2, y - box_h / 2),
            box_w,
            box_h,
            boxstyle="round,pad=0.05",
            facecolor="none",
            edgecolor=colour,
            linewidth=2,
        )
    )
    ax.text(x, y, text, ha="center", va="center", fontsize=10)


def arrow(x0, y0, x1, y1, colour, style="-"):
    ax.add_patch(
        FancyArrowPatch(
            (x0, y0),
            (x1, y1),
            arrowstyle="-|>",
            mutation_scale=14,
            color=colour,
            linewidth=1.5,
            linestyle=style,
        )
    )


# First call with a new signature: every stage runs.
for i, label in enumerate(first_path):
    box(i * step, top_y, label, "C0")
    if i:
        arrow((i - 1) * step + box_w / 2 + 0.05, top_y, i * step - box_w / 2 - 0.05, top_y, "C0")

# Later call with a seen signature: look the program up and run it.
cache_x, run_x = 5 * step, 6 * step
box(0, bottom_y, "call\nf(x)", "C2")
box(cache_x, bottom_y, "find in\ncache", "C2")
box(run_x, bottom_y, "run", "C2")
arrow(box_w / 2 + 0.05, bottom_y, cache_x - box_w / 2 - 0.05, bottom_y, "C2")
arrow(cache_x + box_w / 2 + 0.05, bottom_y, run_x - box_w / 2 - 0.05, bottom_y, "C2")
ax.text(
    cache_x / 2,
    bottom_y + 0.12,
    "skips the Python body, tracing and compiling",
    ha="center",
    va="bottom",
    fontsize=9,
    color="C2",
)
# The cache entry written by the first call is what the later call finds.
arrow(cache_x, top_y - box_h / 2 - 0.05, cache_x, bottom_y + box_h / 2 + 0.05, "C7", style="--")

ax.text(
    -box_w / 2,
    top_y + box_h / 2 + 0.15,
    "first call with a new signature (shapes, dtypes, ...)",
    ha="left",
    va="bottom",
    fontsize=10,
    color="C0",
)
ax.text(
    -box_w / 2,
    bottom_y - box_h / 2 - 0.15,
    "later call with a signature seen before",
    ha="left",
    va="top",
    fontsize=10,
    color="C2",
)
ax.set_xlim(-box_w / 2 - 0.1, run_x + box_w / 2 + 0.1)
ax.set_ylim(bottom_y - box_h / 2 - 0.55, top_y + box_h / 2 + 0.55)
ax.set_aspect("equal")
ax.axis("off")
fig.set_label(
    "Diagram of a jitted call. First call with a new signature: call, trace with tracers, jaxpr, "
    "lower to StableHLO, XLA compile, store in cache, run. Later call with a signature seen "
    "before: call, find in cache, run, skipping the Python body, tracing and compiling."
)
fig.tight_layout()
