"""The words and places the site and its notebooks give to what a page declares: badge labels,
the ❌ box's headline and its notebook note, the table of markers, where a chart's SVGs go."""

from __future__ import annotations

import hashlib
import re
import textwrap
from typing import NamedTuple

from engine.page.markers import MARKERS
from engine.page.model import Expectation, page_slug
from engine.run import accelerator
from engine.run.results import Figure


class Badge(NamedTuple):
    label: str  # on the site
    emphasis: str  # Markdown emphasis in a notebook: "**" or "*"


BADGES = {"must-read": Badge("Must read", "**"), "extra": Badge("Optional extra", "*")}


def headline(bad: Expectation) -> str:
    """The ❌ box's title on the site and the version-notes row."""
    return "its asserts prove the problem" if bad.mode == "asserts" else bad.describe()


def cell_note(bad: Expectation) -> str:
    """The line above the ❌ cell in a notebook."""
    if bad.mode == "raises":
        return f"this cell must raise `{bad.name}` (the error is the point)."
    if bad.mode == "warns":
        return f"this cell must warn `{bad.name}`."
    return "this cell runs, and its asserts prove what goes wrong."


VIEW_OPT_IN = "notebook_view"  # the front-matter key of a page that wants its notebook view
VIEW_LINK_TEXT = "View as notebook"


def marker_table() -> str:
    """The Markdown table of every marker, for ``<!-- marker-table -->``."""
    rows = ["| Marker | Applies to | Effect |", "| --- | --- | --- |"]
    for spec in MARKERS.values():
        uses = spec.uses
        if spec.name == "badge":
            uses = [
                (f"badge: {kind}", f"A *{b.label}* badge, on the line after a heading.")
                for kind, b in BADGES.items()
            ]
        for written, meaning in uses:
            rows.append(f"| `<!-- {written} -->` | {spec.applies_to} | {meaning} |")
    return "\n".join(rows) + "\n"


def figure_uris(figure: Figure, page_path: str) -> tuple[str, str]:
    """The site paths of a chart's light and dark SVG, named by their content."""
    return tuple(
        f"figures/{page_slug(page_path)}/{hashlib.sha256(svg.encode()).hexdigest()[:12]}-{theme}.svg"
        for theme, svg in (("light", figure.light), ("dark", figure.dark))
    )


def figure_size(figure: Figure) -> tuple[int, int] | None:
    """The CSS pixel size of a chart, when its SVG root has width/height in pt or px (as
    matplotlib's has)."""
    root = re.search(r"<svg\b[^>]*>", figure.light)
    found = [
        re.search(rf'\s{name}="([\d.]+)(pt|px)?"', root[0] if root else "")
        for name in ("width", "height")
    ]
    if not all(found):
        return None
    width, height = (round(float(f[1]) * (4 / 3 if f[2] == "pt" else 1)) for f in found)
    return width, height


def indent(text: str, prefix: str = "    ") -> str:
    """``text`` indented, its blank lines left empty (Markdown's admonitions nest by this)."""
    return textwrap.indent(text, prefix, lambda line: bool(line.strip()))


def table_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def runs_on(runs: list[dict]) -> str:
    """Where a notebook was run top to bottom, after the pinned build's CPU: ``Runs top to
    bottom on a CPU, and on TPU v5e with JAX 0.12.0.1 and 0.10.2`` (a run that stopped says
    where)."""
    clean: dict[str, list[str]] = {}
    stopped = []
    for run in runs:
        device = accelerator.device_name(run)
        if run["stopped"]:
            first = run["stopped"][0].partition(":")[0]
            stopped.append(f"on {device} with JAX {run['versions']['jax']} it stops at {first}")
        else:
            clean.setdefault(device, []).append(run["versions"]["jax"])
    places = ["a CPU"] + [f"{d} with JAX {' and '.join(v)}" for d, v in clean.items()]
    words = f"Runs top to bottom on {', and on '.join(places)}"
    return "; ".join([words, *stopped]) + "."


def floor_words(record: dict) -> str:
    """The per-call floor of the machine that recorded a page, for the version notes: what an
    empty jitted call took there, or that it is not recorded (never a number it did not measure)."""
    found = accelerator.floor(record)
    if found is None:
        return "per-call floor not recorded yet"
    return f"per-call floor: an empty jitted call takes {found['empty_call_us']:,.0f} µs there"


def floor_note(record: dict, link: str = "") -> str:
    """The line under a timing a TPU printed: the floor under every call there, so that a time
    near it reads as the cost of a call, not of the work; ``link``: the page that explains it."""
    lead = f"[Floor on the recording machine]({link})" if link else "Floor on the recording machine"
    found = accelerator.floor(record)
    if found is None:
        return (
            f"{lead}: not recorded yet, so these times cannot be told apart from the fixed cost "
            "of a call there."
        )
    return (
        f"{lead}: an empty jitted call takes {found['empty_call_us']:,.0f} µs there "
        f"({found['call_returns_us']:,.0f} µs until the call returns), so a time near it is the "
        "cost of a call, not of the work."
    )


def checkers_words(device: dict) -> str:
    """What the accelerator said of the checkers: how many judged every solution right there."""
    found = device.get("checkers")
    if not found:
        return "The checkers have not been run on an accelerator yet."
    verdicts = found["verdicts"].values()
    right = sum(v["right"] for v in verdicts)
    wrong = sum(v["wrong_solutions"] for v in verdicts)
    return (
        f"The checkers (`nox -s check`, `check.py`, the notebooks' self-checks) on "
        f"{accelerator.device_name(found)} with JAX {found['versions']['jax']}, {found['date']}: "
        f"{right} of {len(verdicts)} accept their reference solution and reject each of their "
        f"{wrong} wrong solutions on the check it names."
    )
