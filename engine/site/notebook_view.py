"""The notebook view: a page's notebook shown as a site page (``notebook_view: true`` in its front
matter), made from the notebook the build made, with front matter, relative links and each chart
as the page's light and dark SVG. mkdocs-jupyter converts only files on disk, so the view is
written under ``.cache/notebook-view/``; it renders the view only when the view changed (its
import costs about 0.7 s): the render is kept with the pages' renders (``engine.site.kept``).
"""

from __future__ import annotations

import copy
import hashlib
import html
import json
import os
import posixpath
import re
from pathlib import Path

import nbformat
import yaml
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.toc import get_toc

from engine.page.model import Page, page_stem
from engine.page.policy import policy
from engine.run.files import write_if_changed
from engine.run.results import Figure, Outcome
from engine.site import render, setup_steps
from engine.site.kept import Kept, toc_tokens
from engine.site.labels import VIEW_OPT_IN, figure_size, figure_uris
from engine.site.notebooks import dumps, notebook_uri

VIEW_DIR = Path(policy().view_dir)  # under the project root; mkdocs.yml includes it
STYLESHEET = "assets/notebook-view.css"
# A data file the setup cell bundles (the TPU recording a chart reads: some 150 KB) is named in
# the view with its size; its text is in the downloaded notebook, not in a phone's page.
QUOTES = "'" * 3
BUNDLED_DATA = re.compile(
    rf"^    '(?P<name>[^'\n]+\.json)': (?:r{QUOTES}\n.*?\n{QUOTES}|'(?:[^'\\\n]|\\.)*'),$",
    re.S | re.M,
)


def _elide_data(source: str) -> str:
    def named(match: re.Match) -> str:
        size = len(match.group(0)) - len(match.group("name")) - 8
        return f"    '{match['name']}': ...,  # {size:,} characters, in the downloaded notebook"

    return BUNDLED_DATA.sub(named, source)


def view_uri(page_path: str) -> str:
    """``docs/course/why-compile.md`` -> ``course/why-compile/notebook.ipynb``, so the view is
    served at ``course/why-compile/notebook/``, under the page it mirrors."""
    return page_stem(page_path) + "/notebook.ipynb"


def add(page: Page, notebook: dict, outcomes: list[Outcome], files: Files, config, root: Path):
    """Write the view of ``page`` to disk and add it to the site, if the page asks for one."""
    if not page.meta.get(VIEW_OPT_IN):
        return
    uri = view_uri(page.path)
    here = posixpath.splitext(uri)[0]  # the view's URL folder (directory URLs)
    figures = {}
    for outcome in outcomes:
        for figure in outcome.figures:
            figures[figure.light] = figure_html(figure, page.path, here, files)
    front_matter = {
        "title": f"{page.title} (notebook)",
        "description": f"The notebook of the page '{page.title}': {page.meta['description']}",
        "search": {"exclude": True},  # the page itself is the search result
    }
    site_url = config.get("site_url") or ""
    view = view_notebook(notebook, figures, here=here, site_url=site_url, meta=front_matter)
    path = root / VIEW_DIR / notebook_uri(page.path)
    write_if_changed(path, dumps(view))  # as the downloadable notebook is laid out
    files.append(
        ViewFile.generated(config, uri, abs_src_path=str(path), inclusion=InclusionLevel.NOT_IN_NAV)
    )


class ViewFile(File):
    """A view notebook that is a page of the site, as mkdocs-jupyter's ``NotebookFile`` makes it
    (``course/loops/notebook.ipynb`` is served at ``course/loops/notebook/``); the hook makes it,
    so a build whose views are unchanged does not load mkdocs-jupyter at all."""

    def is_documentation_page(self) -> bool:
        return True


def view_notebook(notebook: dict, figures: dict[str, str], *, here: str, site_url: str, meta: dict):
    """The view of ``notebook``: the same cells and outputs, with ``meta`` as front matter, a
    links cell, site links made relative, and each chart (by its light SVG) as ``figures``' HTML.
    """
    view = copy.deepcopy(notebook)
    up = posixpath.relpath(".", here) + "/"
    site = setup_steps.public_url(site_url)  # a preview's links are relative already
    for cell in view["cells"]:
        if cell["cell_type"] == "markdown" and site:
            cell["source"] = cell["source"].replace(f"]({site}", f"]({up}")
        for output in cell.get("outputs", []):
            if (svg := output.get("data", {}).get("image/svg+xml")) is not None:
                output["data"] = {"text/html": figures[svg]}
        if "setup" in cell["metadata"].get("tags", []):
            cell["source"] = _elide_data(cell["source"])
    if "install" in view["cells"][0]["metadata"].get("tags", []):  # the title comes first
        view["cells"][:2] = view["cells"][1::-1]
    title = view["cells"][0]
    title["source"] = f"---\n{yaml.safe_dump(meta, sort_keys=False)}---\n{title['source']}"
    download = posixpath.relpath(posixpath.dirname(here) + ".ipynb", here)
    links = f"[Back to the page](../) · [Download this notebook]({download})"
    stylesheet = f'<link rel="stylesheet" href="{posixpath.relpath(STYLESHEET, here)}">'
    view["cells"][1:1] = [
        nbformat.v4.new_markdown_cell(links, id="view-links"),
        nbformat.v4.new_raw_cell(stylesheet, id="view-style", metadata={"format": "text/html"}),
    ]
    return view


def figure_html(figure: Figure, page_path: str, here: str, files: Files) -> str:
    """The chart's two renderings as the Markdown page shows them (Material hides the one that
    does not match the colour scheme); the SVG files are those the hook added to the site."""
    width, height = figure_size(figure)
    images = []
    for theme, uri in zip(("light", "dark"), figure_uris(figure, page_path), strict=True):
        if files.get_file_from_path(uri) is None:
            raise PluginError(f"notebook view: the chart {uri} is not on the site")
        images.append(
            f'<img src="{posixpath.relpath(uri, here)}#only-{theme}" '
            f'alt="{html.escape(figure.alt)}" class="jd-figure" width="{width}" '
            f'height="{height}" loading="lazy" decoding="async">'
        )
    return "\n".join(images)


# ---------------------------------------------------------------- its render

TEMPLATE = Path(__file__).with_name("notebook_view.html.j2")
# mkdocs-jupyter's options for the views: only the files the hook writes under .cache, from the
# outputs it recorded (nothing runs again), without the plugin's inline JupyterLab CSS or its
# MathJax/RequireJS/Mermaid loaders (the template and mathjax_version 2), so they stay slim and
# make no request off the site. Its own cache is off: the custom template turns it off anyway.
OPTIONS = {
    "include": ["notebook-view/*/*.ipynb"],
    "ignore": ["*.md"],
    "execute": False,
    "no_prompt": True,
    "mathjax_version": 2,
    "custom_template": str(TEMPLATE),
    "cache": False,
}
# the Pygments CSS mkdocs-jupyter appends: the view uses the site's code colours
INLINE_STYLE = re.compile(r"\s*<style>\s*\[.*?\]\s*</style>\s*$", re.DOTALL)


def render_key(source: bytes, theme: str) -> str:
    """What a view's render depends on besides the code and the renderers' distributions (the
    key of the pages' kept renders): the view notebook, the template, the options, the theme
    (mkdocs-jupyter adds a Mermaid loader to a theme other than Material), and Jupyter's path
    variables (where nbconvert finds templates)."""
    jupyter = sorted((k, v) for k, v in os.environ.items() if k.startswith("JUPYTER"))
    parts = [
        source,
        TEMPLATE.read_bytes(),
        json.dumps(OPTIONS, sort_keys=True).encode(),
        theme.encode(),
        json.dumps(jupyter).encode(),
    ]
    return hashlib.sha256(b"\0".join(hashlib.sha256(part).digest() for part in parts)).hexdigest()


def load_plugin(config):
    """mkdocs-jupyter's plugin with ``OPTIONS``, as mkdocs would load it from mkdocs.yml."""
    from mkdocs_jupyter.plugin import Plugin  # a slow import: only when a view changed

    plugin = Plugin()
    errors, _ = plugin.load_config(OPTIONS, config.config_file_path)
    if errors:
        raise PluginError(f"mkdocs-jupyter options: {errors}")
    plugin.on_config(config)
    return plugin


class ViewRenderer:
    """The views of one build: each rendered from what ``renders`` (the pages' kept renders) keeps
    by its ``render_key``, else by mkdocs-jupyter, loaded at the first changed view.
    ``conversions`` counts mkdocs-jupyter's renders."""

    def __init__(self, plugin_loader=load_plugin, renders: Kept | None = None) -> None:
        self.load_plugin = plugin_loader
        self.plugin = None
        self.renders = renders or Kept(None, "")
        self.views: dict[str, dict] = {}  # a view's src_uri -> its render, kept or to keep
        self.conversions = 0

    def _jupyter(self, config):
        if self.plugin is None:
            self.plugin = self.load_plugin(config)
        return self.plugin

    def on_pre_page(self, page, config, files):
        if not page.file.src_uri.endswith("/notebook.ipynb"):  # not a view
            return page
        key = render_key(Path(page.file.abs_src_path).read_bytes(), config["theme"].name)
        self.views[page.file.src_uri] = made = json.loads(self.renders.kept(key) or "{}")
        convert = None
        if not made:  # mkdocs-jupyter's render of a view that changed, as its on_pre_page sets it
            plugin = self._jupyter(config)
            if not plugin.should_include(page.file):
                uri = page.file.src_uri
                raise PluginError(f"{uri}: mkdocs-jupyter's options leave this view out")
            convert = plugin.on_pre_page(page, config, files).render
        page.render = self._render(convert, key, made).__get__(page)
        return page

    def on_page_read_source(self, page, config) -> str | None:
        """A view's front matter, from its notebook's metadata (mkdocs-jupyter reads it)."""
        made = self.views.get(page.file.src_uri)  # None for a page that is no view
        if made is None:
            return None
        if "source" not in made:
            made["source"] = self._jupyter(config).on_page_read_source(page, config)
        return made["source"]

    def _render(self, convert, key: str, made: dict):
        def kept_render(page, config, files) -> None:
            def converted(_) -> str:
                """mkdocs-jupyter's render, finished, with its front matter, as JSON."""
                convert(config, files)
                self.conversions += 1
                made_now = {
                    "source": made["source"],
                    "content": render.finished(INLINE_STYLE.sub("", page.content)),
                    "toc": toc_tokens(page.toc.items),
                    "title": vars(page).get("title"),  # set only if the render titled the page
                }
                return json.dumps(made_now, ensure_ascii=False)

            made.update(json.loads(self.renders(key, converted)))
            page.content, page.toc = made["content"], get_toc(made["toc"])
            if made["title"] is not None:
                page.title = made["title"]

        return kept_render
