"""The mkdocs hook: run every page's code before the build, then render its real outputs.

One named function per transform, like mkdocs-material's own ``shortcodes.py`` hook; the page
syntax is in ``engine.page.markers``, the execution in ``engine.run.pages`` / ``.execute``.
"""

from __future__ import annotations

import hashlib
import html
import logging
import os
import posixpath
import re
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # mkdocs loads hooks by path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from engine.page.claims import by_block
from engine.page.markers import marker_table
from engine.page.model import BADGES, Block, Directive, MarkupError, Page, page_slug
from engine.page.parser import read_page
from engine.page.policy import policy
from engine.page.syntax import code_fence
from engine.run import record, terminal
from engine.run.pages import PageFailure, execute_pages
from engine.run.results import Outcome, PageResult
from engine.site import course_table, notebook_view, practice, setup_steps, version_notes
from engine.site.error_index import Index
from engine.site.kept import Conversions
from engine.site.notebooks import build_notebook, dumps, notebook_uri, wants_notebook
from engine.site.view_render import ViewRenderer

FRESH_VARIABLE = "JITDOCS_FRESH"  # set by `nox -s docs -- --fresh`: ignore the cache
CACHE_VARIABLE = "JITDOCS_CACHE_DIR"  # another cache, e.g. for a build against another JAX


@dataclass
class BuildState:
    """What ``on_files`` learns about every page, for the events that render them."""

    pages: dict[str, Page] = field(default_factory=dict)  # parsed once per build
    results: dict[str, PageResult] = field(default_factory=dict)
    figure_uris: dict[tuple[str, int, int], tuple[str, str]] = field(default_factory=dict)
    notebook_uris: dict[str, str] = field(default_factory=dict)
    coloured: dict[str, str] = field(default_factory=dict)  # render_output's key -> its HTML
    kept: Conversions = field(default_factory=Conversions)  # kept between builds
    failures: dict[str, str] = field(default_factory=dict)  # preview only: page -> its error
    course: list[tuple[str, str]] = field(default_factory=list)  # the nav's (title, page)
    practice: list[practice.Item] = field(default_factory=list)  # exercises, lessons, questions
    compatibility: dict = field(default_factory=dict)  # docs/data/compatibility.json
    errors: Index = field(default_factory=Index)  # from the ❌ blocks
    site_url: str = ""  # for the set-up page's download address


log = logging.getLogger("mkdocs.jitdocs")


# ---------------------------------------------------------------- events


class SiteHook:
    """The hook's events, as methods of one object. mkdocs imports a hook once per process and
    calls the functions it finds in it; the module binds them to one ``SiteHook`` (below). Each
    build, and each rebuild under ``mkdocs serve``, starts afresh in ``on_files``, which makes
    the ``BuildState`` the renderers are given."""

    def __init__(self, preview: bool = False) -> None:
        self.preview = preview  # `mkdocs serve`: a failing page shows its error, the server runs
        self.state = BuildState()
        self.views = ViewRenderer()

    def on_startup(self, command: str, dirty: bool) -> None:
        self.preview = command == "serve"

    def on_files(self, files: Files, config) -> Files:
        self.state = read_and_run(files, config, self.preview)
        self.views = ViewRenderer()
        return files

    def on_page_markdown(self, markdown: str, page, config, files) -> str:
        return render_page(self.state, markdown, page, config)

    def on_pre_page(self, page, config, files):
        return self.views.on_pre_page(page, config, files)  # a notebook view's render

    def on_page_read_source(self, page, config) -> str | None:
        return self.views.on_page_read_source(page, config)  # a notebook view's front matter

    def on_page_content(self, content: str, page, config, files) -> str:
        content = notebook_view.on_page_content(content, page, config, files)
        content = unwrap_plain_tokens(colour_outputs(self.state, content))
        return self.state.kept.sections(content)

    def on_env(self, env, config, files):
        return self.state.kept.templates(env)

    def on_post_build(self, config) -> None:
        self.state.kept.save()


_site = SiteHook()
on_startup = _site.on_startup
on_files = _site.on_files
on_page_markdown = _site.on_page_markdown
on_pre_page = _site.on_pre_page
on_page_read_source = _site.on_page_read_source
on_page_content = _site.on_page_content
on_env = _site.on_env
on_post_build = _site.on_post_build


def read_and_run(files: Files, config, preview: bool) -> BuildState:
    """Parse and execute every page up front, and add the charts they drew to the site."""
    root = Path(config["docs_dir"]).resolve().parent
    pages, failures = [], {}
    for file in files.documentation_pages():
        path = Path(file.abs_src_path).resolve().relative_to(root).as_posix()
        try:
            pages.append(read_page(path, root))
        except MarkupError as error:
            if not preview:
                raise PluginError(str(error)) from None
            failures[path] = str(error)
    try:
        fresh = os.environ.get(FRESH_VARIABLE) == "1"
        cache_dir = Path(os.environ.get(CACHE_VARIABLE) or root / policy(root).cache_dir)
        record_to = record.record_file()  # `nox -s tests`: its examples report this run
        keep = preview or record_to  # a failing page shows its error; the others go on
        keep_going = (lambda page, error: keep_failure(page, error, failures)) if keep else None
        results = execute_pages(pages, fresh, cache_dir, on_failure=keep_going, record_to=record_to)
    except PageFailure as error:
        raise PluginError(str(error)) from None
    state = BuildState(failures=failures, kept=Conversions(cache_dir, fresh, config))
    for page in pages:
        state.pages[page.path] = page
        if page.path in failures:
            continue
        state.results[page.path] = results[page.path]
        add_figure_files(state, page, results[page.path], files, config)
        add_notebook_file(state, page, results[page.path], files, config, root)
    add_robots_txt(files, config)
    # the exercise and lesson checker as one file, for readers without a clone
    checker = setup_steps.checker_script(root)
    files.append(File.generated(config, setup_steps.CHECKER_URI, content=checker))
    state.site_url = config.get("site_url") or ""
    state.course = course_table.course_nav(config.get("nav") or [])
    state.practice = practice.items(state.pages, [path for _, path in state.course])
    state.compatibility = version_notes.load(root / version_notes.DATA) or {}
    state.errors = Index.of(state.pages, state.results)
    log.info(version_notes.summary(pages, state.compatibility or None))
    return state


def render_page(state: BuildState, markdown: str, page, config) -> str:
    """The page's Markdown with each block's real outputs, its directives and its notes."""
    if notebook_view.is_view(page):  # rendered by mkdocs-jupyter from a notebook
        return markdown
    root = Path(config["docs_dir"]).resolve().parent
    path = Path(page.file.abs_src_path).resolve().relative_to(root).as_posix()
    if path in state.failures:
        return render_failure(state.failures[path]) + markdown
    parsed, result = state.pages[path], state.results[path]
    # mkdocs drops the blank lines after the front matter that the parsed text still has.
    shift = len(parsed.text) - len(markdown)
    if shift < 0 or parsed.text[shift:] != markdown:
        raise PluginError(f"{path}: page text changed between parsing and rendering")
    edits = [(d.start, d.end, render_directive(state, d, path)) for d in parsed.directives]
    ids = by_block(parsed)
    for index, (block, outcome) in enumerate(zip(parsed.blocks, result.outcomes, strict=True)):
        edits.append(
            (block.start, block.end, render_block(state, block, outcome, index, page, ids))
        )
    if path in state.notebook_uris:
        edits.append(render_download_link(state, parsed, state.notebook_uris[path], page))
    note = version_notes.page_note_edit(parsed, state.compatibility or None)
    edits += [note] if note else []
    if path in {chapter for _, chapter in state.course}:
        end = len(parsed.text)
        edits.append((end, end, "\n\n" + practice.box(path, state.practice)))
    text = parsed.text
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text[shift:] + render_provenance(result, build_environment(state))


# ---------------------------------------------------------------- transforms


def add_robots_txt(files: Files, config) -> None:
    """robots.txt names the sitemap by its full address, so it follows ``site_url``."""
    site_url = (config.get("site_url") or "").rstrip("/")
    sitemap = [f"Sitemap: {site_url}/sitemap.xml"] if site_url else []
    lines = ["User-agent: *", "Allow: /", *sitemap]
    files.append(File.generated(config, "robots.txt", content="\n".join(lines) + "\n"))


def keep_failure(page: Page, error: PageFailure, failures: dict[str, str]) -> None:
    """Preview and `nox -s tests` only: remember the error for the page, and say so loudly (at
    INFO: mkdocs' strict mode turns any warning into a stopped server, or a stopped test run
    that would not report the failing examples)."""
    failures[page.path] = str(error)
    log.info("jitdocs: PAGE FAILED, its error is shown on the page:\n%s", error)


def render_failure(message: str) -> str:
    """An admonition with the failure (file, line, message) above the page's own text."""
    title = "This page's code failed (preview only: `nox -s docs` stops on it)"
    message = terminal.strip_colour(terminal.clean(message))
    return f'!!! failure "{title}"\n\n{_indent(code_fence("text", message))}\n\n'


def add_figure_files(state: BuildState, page: Page, result: PageResult, files: Files, config):
    """Register each chart's light and dark SVG as a generated file of the site."""
    for index, outcome in enumerate(result.outcomes):
        for number, figure in enumerate(outcome.figures):
            uris = figure.uris(page_slug(page.path))
            for uri, svg in zip(uris, (figure.light, figure.dark), strict=True):
                if files.get_file_from_path(uri) is None:
                    files.append(File.generated(config, uri, content=svg))
            state.figure_uris[(page.path, index, number)] = uris


def add_notebook_file(
    state: BuildState, page: Page, result: PageResult, files: Files, config, root: Path
) -> None:
    """Offer a chapter page (or the exercise workbook) as a Jupyter notebook next to it, with
    the outputs this build recorded (so a cached page needs no new run for its notebook)."""
    if not wants_notebook(page.path):
        return
    site_url = config.get("site_url") or ""
    notebook = build_notebook(
        page, outcomes=result.outcomes, environment=result.environment, site_url=site_url, root=root
    )
    uri = notebook_uri(page.path)
    files.append(File.generated(config, uri, content=dumps(notebook)))
    state.notebook_uris[page.path] = uri
    notebook_view.add(page, notebook, result.outcomes, files, config, root)


def render_download_link(state: BuildState, parsed: Page, uri: str, page) -> tuple[int, int, str]:
    """An edit that puts the notebook's download link on the line after the page's H1."""
    at = parsed.title_end
    target = posixpath.relpath(uri, posixpath.dirname(page.file.src_uri) or ".")
    name = posixpath.basename(uri)
    setup = posixpath.relpath(setup_steps.SETUP_DOC, posixpath.dirname(page.file.src_uri) or ".")
    has_setup = f"docs/{setup_steps.SETUP_DOC}" in state.pages  # a test site may have none
    link = (
        f"\n[Download this page as a Jupyter notebook]({target})"
        f'{{ .jd-download download="{name}" }}{notebook_view.link(page)}'
        + (f" · [How to run it]({setup}#notebooks){{ .jd-setup }}" if has_setup else "")
        + "\n"
    )
    return at, at, link


def render_block(
    state: BuildState, block: Block, outcome: Outcome, index: int, page, ids: dict
) -> str:
    parts = [render_code(block)]
    if outcome.skipped:
        parts.append(f'!!! note "Not run"\n\n    {html.escape(block.skip)}')
    if outcome.output:
        parts.append(render_output(state, outcome.output, "Output"))
    if outcome.error_type:
        parts.append(render_output(state, outcome.error, f"Raises {outcome.error_type}"))
        parts += state.errors.link(block)
    for number, figure in enumerate(outcome.figures):
        uris = state.figure_uris[(block.page, index, number)]
        parts.append(render_figure(figure.alt, uris, page, figure.size))
    if block.fact and not block.check:
        fact_id = ids[(index, "fact")].anchor
        parts.append(f"✔ Checked on every build: {block.fact}\n{{: #{fact_id} .jd-fact }}")
    body = "\n\n".join(parts)
    if block.check:
        body = render_check(block.check, ids[(index, "fact")].anchor, body)
    elif block.bad:
        title = f"❌ Don't: {block.bad.headline()}"
        pair_id = ids[(index, "contract")].anchor
        body = (
            f'<div class="jd-pair" id="{pair_id}" markdown>\n\n'
            f'!!! failure "{title}"\n\n{_indent(body)}'
        )
    elif block.good:
        body = f'!!! success "✅ Do instead"\n\n{_indent(body)}\n\n</div>'
    return _indent(body + "\n", block.indent) + "\n"


def render_check(statement: str, anchor: str, body: str) -> str:
    """A check, folded under the statement it proves: the reader sees that it ran, and can open
    its code."""
    title = html.escape(f"Checked on every build: {statement}")  # the admonition has the tick
    return (
        f'<div class="jd-check" id="{anchor}" markdown>\n\n'
        f'??? success "{title}"\n\n{_indent(body)}\n\n</div>'
    )


def render_output(state: BuildState, text: str, title: str) -> str:
    """A block's output as a titled code block. Terminal colours are drawn by ``colour_outputs``
    once the page is HTML: here the fence holds the text without them, after a line with the
    key of its coloured HTML (raw HTML would not survive inside an admonition)."""
    if not terminal.has_colour(text):
        return code_fence("text", text, f'title="{title}"')
    key = f"{COLOUR_KEY}{hashlib.sha256(text.encode()).hexdigest()[:16]}"
    state.coloured[key] = state.kept.colours(text.rstrip("\n")) + "\n"
    return code_fence("text", f"{key}\n{terminal.strip_colour(text)}", f'title="{title}"')


COLOUR_KEY = "jitdocs-colour-"
COLOURED_CODE = re.compile(rf"(<code[^>]*>)({COLOUR_KEY}[0-9a-f]{{16}})\n.*?(</code>)", re.DOTALL)


def colour_outputs(state: BuildState, content: str) -> str:
    """Swap each coloured output's placeholder text for its HTML (nbconvert's ``ansi-*`` spans,
    as the notebook view has; docs/assets/jitdocs.css colours them in light and dark)."""
    return COLOURED_CODE.sub(lambda m: m[1] + state.coloured[m[2]] + m[3], content)


def render_code(block: Block) -> str:
    title = f'title="{block.filename}"' if block.snippet else ""
    code = code_fence("pycon" if block.is_doctest else "python", block.source, title)
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


def render_directive(state: BuildState, directive: Directive, page_path: str) -> str:
    if directive.name == "version-notes":
        data = state.compatibility or None
        return version_notes.render(state.pages, data, build_environment(state), page_path)
    if directive.name == "marker-table":
        return marker_table()
    if directive.name == "install":
        steps = setup_steps.render(directive.value, state.site_url)
        return textwrap.indent(steps, directive.indent, lambda line: bool(line.strip()))
    if directive.name == "course-table":
        return course_table.render(state.course, state.pages, page_path)
    if directive.name == "practice-counts":
        return practice.counts(state.practice) + "\n"
    if directive.name == "error-index":
        return state.errors.render(page_path, state.compatibility or None)
    label = BADGES[directive.value].label
    badge = f'<span class="jd-badge jd-badge--{directive.value}">{label}</span>'
    return f"{directive.indent}{badge}\n"


# Pygments' name and whitespace tokens look like plain code text (tests/test_site.py checks
# Material's CSS), yet were a quarter of a long page's elements for a phone to style at start-up.
PLAIN_TOKEN = re.compile(r'<span class="[nw]">([^<]*)</span>')


def unwrap_plain_tokens(content: str) -> str:
    return PLAIN_TOKEN.sub(r"\1", content)


def build_environment(state: BuildState) -> dict:
    """Where this build ran its pages (the cache key holds the versions, so they all agree)."""
    return next((r.environment for r in state.results.values() if r.environment), {})


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


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line.strip() else line for line in text.split("\n"))
