"""Charts a block drew: each open matplotlib figure as a light and a dark SVG, with its alt text."""

from __future__ import annotations

import io
import re
import sys

from engine.page.model import Block
from engine.run.results import Figure

LIGHT_INK, DARK_INK = "#1f1f1f", "#e3e3e3"


class MissingAltText(ValueError):
    """A figure without a label; its argument is where the block makes the figure."""


def collect_figures(block: Block) -> list[Figure]:
    """Render every open matplotlib figure as light and dark SVG, then close it; a figure
    without alt text (its label) raises ``MissingAltText``."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return []
    figures = []
    for number in plt.get_fignums():
        fig = plt.figure(number)
        alt = fig.get_label().strip()
        plt.close(fig)
        if not alt:
            raise MissingAltText(_figure_origin(block))
        figures.append(Figure(alt=alt, light=_svg(fig, LIGHT_INK), dark=_svg(fig, DARK_INK)))
    return figures


def _figure_origin(block: Block) -> str:
    """Where the block creates its figure: the line to fix, in the snippet file or the page."""
    for number, line in enumerate(block.source.splitlines()):
        if re.search(r"\b(plt\.)?(subplots|figure)\(", line):
            return f"{block.filename}:{block.first_line + number}"
    return block.filename


def _svg(fig, ink: str) -> str:
    import matplotlib

    _recolor(fig, ink)
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "jitdocs"}):
        fig.savefig(
            buffer, format="svg", transparent=True, metadata={"Date": None}, bbox_inches="tight"
        )
    # Text falls back to the page's font stack instead of a font the reader may not have.
    return re.sub(r'font-family:[^;"]*', "font-family:system-ui, sans-serif", buffer.getvalue())


def _is_ink(color) -> bool:
    """True for the near-black / near-white greys matplotlib uses for text, axes and ticks."""
    from matplotlib.colors import to_rgba

    try:
        r, g, b, a = to_rgba(color)
    except (ValueError, TypeError):
        return False
    darkest, lightest = min(r, g, b), max(r, g, b)
    return a > 0 and lightest - darkest < 0.05 and (lightest < 0.35 or darkest > 0.8)


def _recolor(fig, ink: str) -> None:
    """Swap the greys of text, spines, ticks and error bars for ``ink`` (theme-aware output)."""
    for artist in fig.findobj():
        _recolor_artist(artist, ink)
    for ax in fig.axes:
        for spine in ax.spines.values():
            spine.set_edgecolor(ink)
        ax.tick_params(colors=ink, which="both")
        if (legend := ax.get_legend()) is not None:
            legend.get_frame().set_alpha(0)


def _recolor_artist(artist, ink: str) -> None:
    from matplotlib.collections import Collection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.text import Text

    if isinstance(artist, Text) and _is_ink(artist.get_color()):
        artist.set_color(ink)
    elif isinstance(artist, Line2D):
        if _is_ink(artist.get_color()):
            artist.set_color(ink)
        if _is_ink(artist.get_markeredgecolor()):
            artist.set_markeredgecolor(ink)
    elif isinstance(artist, Collection):
        colors = artist.get_edgecolor()
        if len(colors) and all(_is_ink(c) for c in colors):
            artist.set_edgecolor(ink)
    elif (
        isinstance(artist, Patch) and artist.get_fill() is False and _is_ink(artist.get_edgecolor())
    ):
        artist.set_edgecolor(ink)
