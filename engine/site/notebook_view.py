"""The notebook view: a page's notebook shown as a site page (``notebook_view: true`` in its front
matter), made from the notebook the build made, with front matter, relative links and each chart
as the page's light and dark SVG. mkdocs-jupyter converts only files on disk, so the view is
written under ``.cache/notebook-view/``; ``engine.site.view_render`` renders it.
"""

from __future__ import annotations

import copy
import html
import posixpath
from pathlib import Path

import nbformat
import yaml
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel

from engine.page.model import Page, page_slug
from engine.page.policy import policy
from engine.run.files import write_if_changed
from engine.run.results import Figure, Outcome
from engine.site.labels import VIEW_OPT_IN, figure_size, figure_uris
from engine.site.notebooks import dumps

VIEW_DIR = Path(policy().view_dir)  # under the project root; mkdocs.yml includes it
STYLESHEET = "assets/notebook-view.css"


def view_uri(page_path: str) -> str:
    """``docs/course/why-compile.md`` -> ``course/why-compile/notebook.ipynb``, so the view is
    served at ``course/why-compile/notebook/``, under the page it mirrors."""
    return posixpath.splitext(page_path.removeprefix("docs/"))[0] + "/notebook.ipynb"


def add(page: Page, notebook: dict, outcomes: list[Outcome], files: Files, config, root: Path):
    """Write the view of ``page`` to disk and add it to the site, if the page asks for one."""
    if not page.meta.get(VIEW_OPT_IN):
        return
    uri = view_uri(page.path)
    here = posixpath.splitext(uri)[0]  # the view's URL folder (directory URLs)
    figures = {}
    for outcome in outcomes:
        for figure in outcome.figures:
            figures[figure.light] = figure_html(figure, page_slug(page.path), here, files)
    front_matter = {
        "title": f"{page.title} (notebook)",
        "description": f"The notebook of the page '{page.title}': {page.meta['description']}",
        "search": {"exclude": True},  # the page itself is the search result
    }
    site_url = config.get("site_url") or ""
    view = view_notebook(notebook, figures, here=here, site_url=site_url, meta=front_matter)
    path = root / VIEW_DIR / (page.path.removeprefix("docs/").removesuffix(".md") + ".ipynb")
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
    site = site_url.rstrip("/") + "/" if site_url else None
    for cell in view["cells"]:
        if cell["cell_type"] == "markdown" and site:
            cell["source"] = cell["source"].replace(f"]({site}", f"]({up}")
        for output in cell.get("outputs", []):
            if (svg := output.get("data", {}).get("image/svg+xml")) is not None:
                output["data"] = {"text/html": figures[svg]}
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


def figure_html(figure: Figure, slug: str, here: str, files: Files) -> str:
    """The chart's two renderings as the Markdown page shows them (Material hides the one that
    does not match the colour scheme); the SVG files are those the hook added to the site."""
    width, height = figure_size(figure)
    images = []
    for theme, uri in zip(("light", "dark"), figure_uris(figure, slug), strict=True):
        if files.get_file_from_path(uri) is None:
            raise PluginError(f"notebook view: the chart {uri} is not on the site")
        images.append(
            f'<img src="{posixpath.relpath(uri, here)}#only-{theme}" '
            f'alt="{html.escape(figure.alt)}" class="jd-figure" width="{width}" '
            f'height="{height}" loading="lazy" decoding="async">'
        )
    return "\n".join(images)


def is_view(page) -> bool:
    return page.file.src_uri.endswith("/notebook.ipynb")
