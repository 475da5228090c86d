"""Render a page from its run (the ``Site`` the run step makes): the page's pieces with each
block's real outputs, its directives and its notes, as Markdown; then its HTML's finishing.
"""

from __future__ import annotations

import hashlib
import html
import posixpath
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from engine.page.claims import by_block
from engine.page.model import AFTER_TITLE, Block, Directive, Page, page_stem
from engine.page.syntax import code_fence
from engine.run import accelerator, terminal
from engine.run.results import Figure, Outcome, PageResult
from engine.site import practice, questions, setup_steps, version_notes
from engine.site.error_index import Index
from engine.site.kept import Conversions
from engine.site.labels import (
    BADGES,
    VIEW_LINK_TEXT,
    VIEW_OPT_IN,
    figure_size,
    figure_uris,
    floor_note,
    headline,
    indent,
    marker_table,
    runs_on,
)
from engine.site.notebooks import notebook_uri
from engine.site.sections import wrap_sections


@dataclass
class Site:
    """What rendering needs from the run step: every page, its results, and the site's parts."""

    root: Path
    pages: dict[str, Page] = field(default_factory=dict)  # parsed once per build
    results: dict[str, PageResult] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)  # preview only: page -> its error
    files: dict[str, str] = field(default_factory=dict)  # what the site adds: uri -> content
    notebooks: dict[str, dict] = field(default_factory=dict)  # page -> its notebook
    views: bool = False  # notebook views are built: MkDocs' hook builds them, Zensical cannot
    course: list[tuple[str, str]] = field(default_factory=list)  # the nav's (title, page)
    practice: list[practice.Item] = field(default_factory=list)  # exercises, lessons, questions
    compatibility: dict = field(default_factory=dict)  # docs/data/compatibility.json
    device: dict = field(default_factory=dict)  # docs/data/accelerator.json
    errors: Index = field(default_factory=Index)  # from the ❌ blocks
    site_url: str = ""  # for the set-up page's download address
    kept: Conversions = field(default_factory=Conversions)  # kept between builds
    coloured: dict[str, str] = field(default_factory=dict)  # an output's key -> its text
    rendered: dict[str, str] = field(default_factory=dict)  # page -> its Markdown, once a build

    def page_of(self, text: str) -> str | None:
        """The page whose body ``text`` is (builders strip the front matter, and some the
        blank lines around it); None for Markdown that is no page of the site."""
        return self._by_text.get(text.strip())

    @cached_property
    def _by_text(self) -> dict[str, str | None]:
        """Each page by its body, read once the run step is done; two pages alike are None."""
        found: dict[str, str | None] = {}
        for path, page in self.pages.items():
            body = page.text.strip()
            found[body] = None if body in found else path
        return found

    def markdown(self, path: str) -> str:
        """``render_page``, once a build: MkDocs' hook keys the page's kept render by it."""
        if path not in self.rendered:
            self.rendered[path] = render_page(self, path)
        return self.rendered[path]

    def environment(self) -> dict:
        """Where this build ran its pages (the cache key holds the versions, so they agree): its
        newest run, whatever order the builder listed the pages in. (The first page's run made
        a code-less page's footer differ between MkDocs, which lists each folder's index first,
        and Zensical's run step, which sorts, whenever those two pages ran minutes apart.)"""
        ran = {path: r.environment for path, r in self.results.items() if r.environment}
        newest = max(ran, key=lambda path: (ran[path].get("produced", ""), path), default=None)
        return ran[newest] if newest else {}


# ---------------------------------------------------------------- a page


def render_page(site: Site, path: str) -> str:
    """The page's Markdown with each block's real outputs, its directives and its notes."""
    page = site.pages[path]
    if path in site.failures:
        return render_failure(site.failures[path]) + page.text
    result = site.results[path]
    ids = by_block(page)
    parts = []
    for piece in page.pieces():
        if isinstance(piece, Block):
            index = piece.number - 1
            parts.append(render_block(site, piece, result.outcomes[index], index, ids))
        elif isinstance(piece, Directive):
            parts.append(render_directive(site, piece, path))
        elif piece is AFTER_TITLE:
            parts.append(render_download_link(site, page))
            parts.append(version_notes.title_badge(page, site.compatibility or None, site.device))
        else:
            parts.append(piece)
    if path in {chapter for _, chapter in site.course}:
        parts.append("\n\n" + practice.box(path, site.practice))
    return "".join(parts) + render_provenance(result, site.environment())


def render_failure(message: str) -> str:
    """An admonition with the failure (file, line, message) above the page's own text."""
    title = "This page's code failed (preview only: `nox -s docs` stops on it)"
    message = terminal.strip_ansi(terminal.clean(message))
    return f'!!! failure "{title}"\n\n{indent(code_fence("text", message))}\n\n'


def render_download_link(site: Site, page: Page) -> str:
    """The notebook's download link on the line after the page's H1, then its notebook view's
    (when it asks for one) and the set-up page's."""
    if page.path not in site.notebooks:
        return ""
    here = posixpath.dirname(page_stem(page.path)) or "."
    uri = notebook_uri(page.path)
    download = f"[Download this page as a Jupyter notebook]({posixpath.relpath(uri, here)})"
    links = [f'{download}{{ .jd-download download="{posixpath.basename(uri)}" }}']
    if site.views and page.meta.get(VIEW_OPT_IN):
        links.append(f"[{VIEW_LINK_TEXT}]({Path(page.path).stem}/notebook.ipynb){{ .jd-view }}")
    if f"docs/{setup_steps.SETUP_DOC}" in site.pages:  # a test site may have none
        setup = posixpath.relpath(setup_steps.SETUP_DOC, here)
        links.append(f"[How to run it]({setup}#notebooks){{ .jd-setup }}")
    runs = accelerator.notebook_runs(site.device, page, site.notebooks[page.path])
    return "\n" + " · ".join(links) + f" · *{runs_on(runs)}*\n"


def render_block(site: Site, block: Block, outcome: Outcome, index: int, ids: dict) -> str:
    parts = [render_code(block)]
    recorded = accelerator.output(site.device, site.pages[block.page], index)
    if outcome.skipped:
        parts.append(f'!!! note "Not run"\n\n    {html.escape(block.skip)}')
    if recorded:
        parts.append(render_devices(site, block, outcome, *recorded))
    elif outcome.output:
        parts.append(render_output(site, outcome.output, "Output"))
    if outcome.error_type and not recorded:  # (a device block shows its error in its tabs)
        parts.append(render_output(site, outcome.error, f"Raises {outcome.error_type}"))
    if outcome.error_type:
        parts += site.errors.link(block)
    parts += [render_figure(figure, block.page) for figure in outcome.figures]
    note = render_device_note(site, block, index, ids)  # a ❌'s inside it: a pair stays a pair
    parts += [] if block.check else note
    if block.fact and not block.check:
        fact_id = ids[(index, "fact")].anchor
        parts.append(f"✔ Checked on every build: {block.fact}\n{{: #{fact_id} .jd-fact }}")
    body = "\n\n".join(parts)
    if block.check:  # folded under the statement it proves: it ran, and its code can be opened
        title = html.escape(f"Checked on every build: {block.check}")  # the admonition has the tick
        body = (
            f'<div class="jd-check" id="{ids[(index, "fact")].anchor}" markdown>\n\n'
            f'??? success "{title}"\n\n{indent(body)}\n\n</div>'
        )
    elif block.bad:
        title = f"❌ Don't: {headline(block.bad)}"
        pair_id = ids[(index, "contract")].anchor
        body = (
            f'<div class="jd-pair" id="{pair_id}" markdown>\n\n'
            f'!!! failure "{title}"\n\n{indent(body)}'
        )
    elif block.good:
        body = f'!!! success "✅ Do instead"\n\n{indent(body)}\n\n</div>'
    body = "\n\n".join([body, *note]) if block.check else body  # a check's note: not folded
    return indent(body + "\n", block.indent) + "\n"


def render_devices(site: Site, block: Block, outcome: Outcome, text: str, record: dict) -> str:
    """This build's output beside the one recorded on the accelerator: two fences that CSS sets
    side by side on a wide screen (raw HTML around them would not survive inside an admonition);
    under a recorded timing, the recording machine's per-call floor."""
    where = site.environment().get("device", "").partition(" ")[0].upper() or "machine"
    mine = outcome.output or outcome.error or "(nothing printed)"
    what = f"Raises {outcome.error_type}" if outcome.error and not outcome.output else "Output"
    name, jax = accelerator.device_name(record), record["versions"]["jax"]
    parts = [
        render_output(site, mine, f"{what} on this build's {where}", ".jd-here"),
        render_output(
            site, text, f"On a {name} (recorded {record['date']}, JAX {jax})", ".jd-there"
        ),
    ]
    if accelerator.holds_timing(text):
        here = posixpath.dirname(page_stem(block.page)) or "."
        link = f"{posixpath.relpath(FLOOR_PAGE, here)}#{FLOOR_ANCHOR}"
        link = link if f"docs/{FLOOR_PAGE}" in site.pages else ""  # a test site may lack it
        parts.append(floor_note(record, link) + "\n{: .jd-floor }")
    return "\n\n".join(parts)


FLOOR_PAGE, FLOOR_ANCHOR = "beyond/accelerators.md", "recording-machine"  # says what the floor is


def render_device_note(site: Site, block: Block, index: int, ids: dict) -> list[str]:
    """Under a claim that fails on the recorded accelerator: why (its ``device-note``), and
    what failed there."""
    record = accelerator.page_record(site.device, site.pages[block.page]) or {}
    claim = ids.get((index, "contract")) or ids.get((index, "fact"))
    found = record.get("verdicts", {}).get(claim.id if claim else "", {})
    if not block.device_note or found.get("verdict") != "broken":
        return []
    title = f"On a {accelerator.device_name(record)} this claim does not hold"
    error = html.escape(found["error"])
    return [
        f'!!! warning "{title}"\n\n    {html.escape(block.device_note)} '
        f"Recorded there ({record['date']}, JAX {record['versions']['jax']}): {error}"
    ]


def render_output(site: Site, text: str, title: str, kind: str = "") -> str:
    """A block's output as a titled code block. Terminal colours are drawn by ``colour_outputs``
    once the page is HTML: here the fence holds the text without them, after a line with the
    key of its coloured HTML (raw HTML would not survive inside an admonition)."""
    language, attributes = (
        ("", f'{{.text {kind} title="{title}"}}') if kind else ("text", f'title="{title}"')
    )
    if "\x1b[" not in text:  # no colour code
        return code_fence(language, text, attributes)
    key = f"{COLOUR_KEY}{hashlib.sha256(text.encode()).hexdigest()[:16]}"
    site.coloured[key] = text.rstrip("\n")
    return code_fence(language, f"{key}\n{terminal.strip_ansi(text)}", attributes)


COLOUR_KEY = "jitdocs-colour-"
COLOURED_CODE = re.compile(rf"(<code[^>]*>)({COLOUR_KEY}[0-9a-f]{{16}})\n.*?(</code>)", re.DOTALL)


def colour_outputs(site: Site, content: str) -> str:
    """Swap each coloured output's placeholder text for its HTML (nbconvert's ``ansi-*`` spans,
    as the notebook view has; docs/assets/jitdocs.css colours them in light and dark)."""
    return COLOURED_CODE.sub(lambda m: m[1] + to_html(site.coloured[m[2]]) + "\n" + m[3], content)


def to_html(text: str) -> str:
    """Escaped HTML of an output (``engine.run.terminal.clean``), colour codes as nbconvert's
    ``ansi-*`` classes (the same converter and classes as the notebook view)."""
    from nbconvert.filters.ansi import ansi2html  # a slow import: only for a page rendered anew

    return str(ansi2html(text))


def render_code(block: Block) -> str:
    name = block.filename if block.snippet else block.file
    title = f'title="{name}"' if name else ""
    code = code_fence("pycon" if block.is_doctest else "python", block.source, title)
    if block.collapse_code:
        return f'??? abstract "Show the code"\n\n{indent(code)}'
    return code


def render_figure(figure: Figure, page_path: str) -> str:
    here = posixpath.dirname(page_stem(page_path))
    alt_text = figure.alt.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    light, dark = (posixpath.relpath(uri, here or ".") for uri in figure_uris(figure, page_path))
    size = figure_size(figure)
    # width/height reserve the chart's box before it loads (no layout shift; CSS scales it);
    # lazy loading means the variant hidden by the colour scheme is never downloaded.
    attrs = ".jd-figure" + (f' width="{size[0]}" height="{size[1]}"' if size else "")
    attrs += ' loading="lazy" decoding="async"'
    return (
        f"![{alt_text}]({light}#only-light){{ {attrs} }}\n"
        f"![{alt_text}]({dark}#only-dark){{ {attrs} }}"
    )


def render_directive(site: Site, directive: Directive, page_path: str) -> str:
    if directive.name == "version-notes":
        data = site.compatibility or None
        return version_notes.render(site.pages, data, site.environment(), page_path, site.device)
    if directive.name == "marker-table":
        return marker_table()
    if directive.name == "install":
        steps = setup_steps.render(directive.value, site.site_url)
        return indent(steps, directive.indent)
    if directive.name == "course-table":
        return practice.course_table(site.course, site.pages, page_path)
    if directive.name == "practice-counts":
        return practice.counts(site.practice) + "\n"
    if directive.name == "error-index":
        return site.errors.render(page_path, site.compatibility or None)
    if directive.name == "questions":
        return questions.render(questions.load(site.root), site.pages, page_path)
    label = BADGES[directive.value].label
    badge = f'<span class="jd-badge jd-badge--{directive.value}">{label}</span>'
    return f"{directive.indent}{badge}\n"


# ❌ and ✅ as elements that CSS draws (docs/assets/jitdocs.css), named for screen readers: as
# characters they need an emoji font, and show as empty boxes without one.
SYMBOLS = {"❌": ("wrong", "Wrong"), "✅": ("right", "Right")}
SYMBOL = re.compile("([❌✅])\ufe0f?")
TEXT_OR_MARKUP = re.compile(r"(<pre\b.*?</pre>|<code\b.*?</code>|<[^>]*>)", re.DOTALL)
# Pygments' name and whitespace tokens look like plain code text (tests/test_site.py checks
# Material's CSS), yet were a quarter of a long page's elements for a phone to style at start-up.
PLAIN_TOKEN = re.compile(r'<span class="[nw]">([^<]*)</span>')


def finished(content: str) -> str:
    """A page's HTML as the site serves it: Pygments' plain tokens unwrapped, each ❌ and ✅ in its
    text (not in its code or inside a tag) drawn, and laid out in sections."""
    pieces = TEXT_OR_MARKUP.split(PLAIN_TOKEN.sub(r"\1", content))
    for i in range(0, len(pieces), 2):  # the text between the markup
        pieces[i] = SYMBOL.sub(_symbol, pieces[i])
    return wrap_sections("".join(pieces))


def _symbol(match: re.Match) -> str:
    kind, name = SYMBOLS[match[1]]
    return f'<span class="jd-symbol jd-symbol--{kind}" role="img" aria-label="{name}"></span>'


def render_provenance(result: PageResult, build_env: dict) -> str:
    env = result.environment or build_env
    if not env:
        return ""
    what = "Outputs on this page were produced" if result.outcomes else "This site was built"
    return (
        '\n\n<div class="jd-provenance" markdown>\n\n'
        f"{what} by running its code with **JAX {env['jax']}** (jaxlib {env['jaxlib']}), "
        f"Python {env['python']} on {env['platform']}, device {env['device']}, "
        f"on {env['produced']}. Timings were measured on that build machine. "
        "Every example starts from `import jax`, `import jax.numpy as jnp`, "
        "`import numpy as np` and `from jax import lax`.\n\n</div>\n"
    )
