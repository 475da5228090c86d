"""The mkdocs hook: run every page's code before the build, then render its real outputs.

One named function per transform, like mkdocs-material's own ``shortcodes.py`` hook. The page
syntax lives in ``engine.markers``, the execution in ``engine.build`` / ``engine.execute``.
"""

from __future__ import annotations

import hashlib
import html
import os
import posixpath
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # mkdocs loads hooks by path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from engine import notebook_view
from engine.build import PageFailure, PageResult, execute_pages
from engine.markers import (
    Block,
    Directive,
    MarkupError,
    Page,
    page_slug,
    parse_page,
    read_page,
)
from engine.notebooks import build_notebook, dumps, notebook_uri, wants_notebook

FRESH_VARIABLE = "JITDOCS_FRESH"  # set by `nox -s docs -- --fresh`: ignore the cache
CACHE_VARIABLE = "JITDOCS_CACHE_DIR"  # another cache, e.g. for a build against another JAX
BADGE_TEXT = {"must-read": "Must read", "extra": "Optional extra"}

_pages: dict[str, Page] = {}
_results: dict[str, PageResult] = {}
_figure_uris: dict[tuple[str, int, int], tuple[str, str]] = {}
_notebook_uris: dict[str, str] = {}


# ---------------------------------------------------------------- events


@event_priority(50)  # before mkdocs-jupyter's: it must see the notebook views (notebook_view)
def on_files(files: Files, config) -> Files:
    """Parse and execute every page up front, and add the charts they drew to the site."""
    docs_dir = Path(config["docs_dir"]).resolve()
    root = docs_dir.parent
    pages = []
    for file in files.documentation_pages():
        try:
            path = Path(file.abs_src_path).resolve().relative_to(root).as_posix()
            pages.append(read_page(path, root))
        except MarkupError as error:
            raise PluginError(str(error)) from None
    try:
        fresh = os.environ.get(FRESH_VARIABLE) == "1"
        cache_dir = Path(os.environ.get(CACHE_VARIABLE) or root / ".cache" / "jitdocs")
        results = execute_pages(pages, fresh=fresh, cache_dir=cache_dir)
    except PageFailure as error:
        raise PluginError(str(error)) from None
    _pages.clear(), _results.clear(), _figure_uris.clear(), _notebook_uris.clear()
    for page in pages:
        _pages[page.path], _results[page.path] = page, results[page.path]
        add_figure_files(page, results[page.path], files, config)
        add_notebook_file(page, results[page.path], files, config, root)
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    if notebook_view.is_view(page):  # rendered by mkdocs-jupyter from a notebook
        return markdown
    root = Path(config["docs_dir"]).resolve().parent
    path = Path(page.file.abs_src_path).resolve().relative_to(root).as_posix()
    offset = _front_matter_lines(Path(page.file.abs_src_path), markdown)
    try:
        parsed = parse_page(path, markdown, offset, root)
    except MarkupError as error:
        raise PluginError(str(error)) from None
    result = _results[path]
    edits = [(d.start, d.end, render_directive(d, path)) for d in parsed.directives]
    ids = anchors(parsed)
    for index, (block, outcome) in enumerate(zip(parsed.blocks, result.outcomes, strict=True)):
        edits.append((block.start, block.end, render_block(block, outcome, index, page, ids)))
    if path in _notebook_uris:
        edits.append(render_download_link(markdown, parsed, _notebook_uris[path], page))
    for start, end, text in sorted(edits, reverse=True):
        markdown = markdown[:start] + text + markdown[end:]
    return markdown + render_provenance(result)


on_pre_page = notebook_view.on_pre_page  # renders an unchanged notebook view from its cache
on_page_content = notebook_view.on_page_content  # tidies the notebook views' HTML


# ---------------------------------------------------------------- transforms


def add_figure_files(page: Page, result: PageResult, files: Files, config) -> None:
    """Register each chart's light and dark SVG as a generated file of the site."""
    slug = page_slug(page.path)
    for index, outcome in enumerate(result.outcomes):
        for number, figure in enumerate(outcome["figures"]):
            uris = []
            for theme in ("light", "dark"):
                digest = hashlib.sha256(figure[theme].encode()).hexdigest()[:12]
                uri = f"figures/{slug}/{digest}-{theme}.svg"
                if files.get_file_from_path(uri) is None:
                    files.append(File.generated(config, uri, content=figure[theme]))
                uris.append(uri)
            _figure_uris[(page.path, index, number)] = (uris[0], uris[1])


def add_notebook_file(page: Page, result: PageResult, files: Files, config, root: Path) -> None:
    """Offer a chapter page (or the exercise workbook) as a Jupyter notebook next to it, with
    the outputs this build recorded (so a cached page needs no new run for its notebook)."""
    if not wants_notebook(page.path):
        return
    notebook = build_notebook(
        page.path,
        outcomes=result.outcomes,
        environment=result.environment,
        site_url=config.get("site_url") or "",
        root=root,
    )
    uri = notebook_uri(page.path)
    files.append(File.generated(config, uri, content=dumps(notebook)))
    _notebook_uris[page.path] = uri
    notebook_view.add(page, notebook, result.outcomes, files, config, root)


def render_download_link(markdown: str, parsed: Page, uri: str, page) -> tuple[int, int, str]:
    """An edit that puts the notebook's download link on the line after the page's H1."""
    limit = parsed.blocks[0].start if parsed.blocks else len(markdown)
    title = re.search(r"^# .*\n", markdown[:limit], re.MULTILINE)
    at = title.end() if title else 0
    target = posixpath.relpath(uri, posixpath.dirname(page.file.src_uri) or ".")
    name = posixpath.basename(uri)
    link = (
        f"\n[Download this page as a Jupyter notebook]({target})"
        f'{{ .jd-download download="{name}" }}{notebook_view.link(page)}\n'
    )
    return at, at, link


def anchors(page: Page) -> dict[tuple[int, str], str]:
    """Stable ids for each ❌ block (contract-N) and fact (fact-N), for links to their proof."""
    ids, contracts, facts = {}, 0, 0
    for index, block in enumerate(page.blocks):
        if block.bad:
            contracts += 1
            ids[(index, "contract")] = f"contract-{contracts}"
        if block.fact:
            facts += 1
            ids[(index, "fact")] = f"fact-{facts}"
    return ids


def render_block(block: Block, outcome: dict, index: int, page, ids: dict) -> str:
    parts = [render_code(block)]
    if outcome["skipped"]:
        parts.append(f'!!! note "Not run"\n\n    {html.escape(block.skip)}')
    if outcome["output"]:
        parts.append(fence("text", outcome["output"], 'title="Output"'))
    if outcome["error"]:
        name = outcome["error"].split(":", 1)[0]
        parts.append(fence("text", outcome["error"], f'title="Raises {name}"'))
    for number, figure in enumerate(outcome["figures"]):
        uris = _figure_uris[(block.page, index, number)]
        parts.append(render_figure(figure["alt"], uris, page, svg_size(figure["light"])))
    if block.fact:
        fact_id = ids[(index, "fact")]
        parts.append(f"✔ Checked on every build: {block.fact}\n{{: #{fact_id} .jd-fact }}")
    body = "\n\n".join(parts)
    if block.bad:
        title = f"❌ Don't: {_describe(block)}"
        pair_id = ids[(index, "contract")]
        body = (
            f'<div class="jd-pair" id="{pair_id}" markdown>\n\n'
            f'!!! failure "{title}"\n\n{_indent(body)}'
        )
    elif block.good:
        body = f'!!! success "✅ Do instead"\n\n{_indent(body)}\n\n</div>'
    return _indent(body + "\n", block.indent) + "\n"


def render_code(block: Block) -> str:
    title = f'title="{block.filename}"' if block.snippet else ""
    code = fence("pycon" if block.is_doctest else "python", block.source, title)
    if block.collapse_code:
        return f'??? abstract "Show the code"\n\n{_indent(code)}'
    return code


def render_figure(
    alt: str, uris: tuple[str, str], page, size: tuple[int, int] | None = None
) -> str:
    here = posixpath.dirname(page.file.src_uri)
    alt_text = alt.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    light, dark = (posixpath.relpath(uri, here or ".") for uri in uris)
    # width/height reserve the chart's box before it loads (no layout shift; CSS scales it);
    # lazy loading means the variant hidden by the colour scheme is never downloaded.
    attrs = ".jd-figure" + (f' width="{size[0]}" height="{size[1]}"' if size else "")
    attrs += ' loading="lazy" decoding="async"'
    return (
        f"![{alt_text}]({light}#only-light){{ {attrs} }}\n"
        f"![{alt_text}]({dark}#only-dark){{ {attrs} }}"
    )


def svg_size(svg: str) -> tuple[int, int] | None:
    """The CSS pixel size of an SVG whose root has width/height in pt or px (as matplotlib's)."""
    root = re.search(r"<svg\b[^>]*>", svg)
    if root is None:
        return None
    sizes = []
    for name in ("width", "height"):
        found = re.search(rf'\s{name}="([\d.]+)(pt|px)?"', root[0])
        if found is None:
            return None
        value = float(found[1]) * (4 / 3 if found[2] == "pt" else 1)
        sizes.append(round(value))
    return sizes[0], sizes[1]


def render_directive(directive: Directive, page_path: str) -> str:
    if directive.name == "version-notes":
        return render_version_notes(page_path)
    label = BADGE_TEXT[directive.value]
    badge = f'<span class="jd-badge jd-badge--{directive.value}">{label}</span>'
    return f"{directive.indent}{badge}\n"


def render_version_notes(page_path: str) -> str:
    """A table of every ❌/✅ contract and every fact on the site, generated from the pages."""
    rows = []
    here = posixpath.dirname(page_path)
    for path, parsed in sorted(_pages.items()):
        env = _results[path].environment
        verified = f"JAX {env['jax']}" if env else "not run"
        ids = anchors(parsed)
        for index, block in enumerate(parsed.blocks):
            target = posixpath.relpath(path, here)
            title = _cell(parsed.title or path)
            if block.bad:
                link = f"[{title}]({target}#{ids[(index, 'contract')]})"
                claim = f"❌ {_describe(block)} ({_cell(block.section)})"
                rows.append(f"| {link} | {claim} | {verified} |")
            if block.fact:
                link = f"[{title}]({target}#{ids[(index, 'fact')]})"
                rows.append(f"| {link} | {_cell(block.fact)} | {verified} |")
    if not rows:
        return "No contracts or facts on the site yet.\n"
    header = "| Proof | What the build checks | Verified with |\n| --- | --- | --- |\n"
    return header + "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_provenance(result: PageResult) -> str:
    env = result.environment or next(
        (r.environment for r in _results.values() if r.environment), {}
    )
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


def fence(language: str, text: str, attributes: str = "") -> str:
    """A fenced block that no backtick run inside ``text`` can close early."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    info = f"{language} {attributes}".strip()
    return f"{ticks}{info}\n{text.rstrip()}\n{ticks}"


def _describe(block: Block) -> str:
    expect = block.bad
    if expect.mode == "raises":
        return f"raises {expect.name}"
    if expect.mode == "warns":
        return f"warns {expect.name}"
    return "its asserts prove the problem"


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line.strip() else line for line in text.split("\n"))


def _front_matter_lines(source: Path, markdown: str) -> int:
    raw = source.read_text(encoding="utf-8")
    if not raw.endswith(markdown):
        raise PluginError(f"{source}: page text changed between parsing and rendering")
    return raw[: len(raw) - len(markdown)].count("\n")
