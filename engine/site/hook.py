"""The mkdocs hook: start the run step, add its files, hand MkDocs what it read, and keep what
only MkDocs has (notebook views, kept renders and templates); the extension renders the pages.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # mkdocs loads hooks by path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.toc import get_toc
from mkdocs.utils import CountHandler

from engine.page.model import MarkupError
from engine.run.results import PageFailure
from engine.site import extension, notebook_view
from engine.site.kept import Conversions, Kept, toc_tokens
from engine.site.render import Site
from engine.site.run_step import run_site


class SiteHook:
    """The hook's events, bound below to one object; each build (and rebuild under ``mkdocs
    serve``) starts afresh in ``on_files``, which runs the pages and publishes the ``Site``."""

    def __init__(self, preview: bool = False) -> None:
        self.preview = preview  # `mkdocs serve`: a failing page shows its error, the server runs
        self.site = Site(Path.cwd())
        self.views = notebook_view.ViewRenderer()

    def on_startup(self, command: str, dirty: bool) -> None:
        self.preview = command == "serve"

    def on_files(self, files: Files, config) -> Files:
        self.site = read_and_run(files, config, self.preview)
        self.views = notebook_view.ViewRenderer(renders=self.site.kept.pages)
        extension.publish(self.site)
        say_ran(self.site)
        return files

    def on_page_read_source(self, page, config) -> str | None:
        """A page's text as the run step read it (one read of each file), or a notebook view's."""
        parsed = self.site.pages.get(page_path(page, config))
        return self.views.on_page_read_source(page, config) if parsed is None else parsed.text

    def on_page_markdown(self, markdown: str, page, config, files) -> str:
        parsed = self.site.pages.get(page_path(page, config))
        if parsed is not None:
            # What MkDocs renders is what was run: a plugin or hook that edits a page before the
            # Markdown extension sees it would leave the page unrendered.
            if self.site.page_of(markdown) != parsed.path:
                raise PluginError(f"{parsed.path}: page text changed between parsing and rendering")
            page.meta = dict(parsed.meta)  # the front matter, as the run step read it
            kept_render(self.site.kept.pages, page, self.site.markdown(parsed.path))
        return markdown

    def on_pre_page(self, page, config, files):
        return self.views.on_pre_page(page, config, files)  # a notebook view's render

    def on_env(self, env, config, files):
        return self.site.kept.templates(env)

    def on_post_build(self, config) -> None:
        self.site.kept.save()


_site = SiteHook()
on_startup = _site.on_startup
on_files = _site.on_files
on_page_markdown = _site.on_page_markdown
on_pre_page = _site.on_pre_page
on_page_read_source = _site.on_page_read_source
on_env = _site.on_env
on_post_build = _site.on_post_build


RAN_VARIABLE = "JITDOCS_RAN_FILE"  # `nox -s tests`: a file for say_ran to make


def say_ran(site: Site) -> None:
    """Make the file ``RAN_VARIABLE`` names once every page's run is in the run cache: `nox -s
    tests` then starts the Zensical build beside the render, and its run step runs nothing. Not
    after a failed page (only a preview or `nox -s tests` goes on after one): that page is not
    cached, so the Zensical build would run it again, beside the render."""
    named = os.environ.get(RAN_VARIABLE)
    if named and not site.failures:
        Path(named).write_text("ran\n", encoding="utf-8")


def read_and_run(files: Files, config, preview: bool) -> Site:
    """Run every page up front, and add the charts and notebooks it made to the site."""
    root = Path(config["docs_dir"]).resolve().parent
    paths = [page_path(file, config) for file in files.documentation_pages()]
    try:
        site = run_site(root, paths, config, preview, partial(Conversions, config=config), True)
    except (MarkupError, PageFailure) as error:
        raise PluginError(str(error)) from None
    for uri, content in site.files.items():
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, content=content))
    for path, notebook in site.notebooks.items():
        outcomes = site.results[path].outcomes
        notebook_view.add(site.pages[path], notebook, outcomes, files, config, root)
    return site


def page_path(page_or_file, config) -> str:
    """``docs/course/loops.md``: a page's path from the project root, as the run step has it."""
    file = getattr(page_or_file, "file", page_or_file)
    root = Path(config["docs_dir"]).resolve().parent
    return Path(file.abs_src_path).resolve().relative_to(root).as_posix()


def kept_render(pages: Kept, page, rendered: str) -> None:
    """MkDocs renders ``page`` (a ``Page`` whose body the extension renders to ``rendered``) from
    ``pages`` when the page, its place, every file's address and the Markdown options are those
    of a render kept before. A render is always read back from what is kept, so a cold build
    shows what a warm one will; one that logged a warning is not kept, so the next build warns."""
    convert = page.render

    def render(page, config, files) -> None:
        where = [page.file.src_uri, page.file.url, sorted((f.src_uri, f.url) for f in files)]
        options = [config[name] for name in ("markdown_extensions", "mdx_configs", "validation")]
        material = json.dumps([rendered, page.markdown, where, options], default=repr)
        warnings = CountHandler(level=logging.WARNING)
        logging.getLogger("mkdocs").addHandler(warnings)
        try:
            made = json.loads(pages(material, lambda _: _made(convert, page, config, files)))
        finally:
            logging.getLogger("mkdocs").removeHandler(warnings)
        if warnings.counts:
            pages.forget(material)
        page.content, page.toc = made["content"], get_toc(made["toc"])
        page._title_from_render, page.present_anchor_ids = made["title"], set(made["anchors"])
        links = made["links"]
        page.links_to_anchors = links and {files.get_file_from_path(u): links[u] for u in links}

    page.render = render.__get__(page)


def _made(convert, page, config, files) -> str:
    """What MkDocs' ``Page.render`` sets, as JSON."""
    convert(config, files)
    links = page.links_to_anchors
    made = {
        "content": page.content,
        "toc": toc_tokens(page.toc.items),
        "title": page._title_from_render,
        "anchors": sorted(page.present_anchor_ids),
        "links": links and {file.src_uri: anchors for file, anchors in links.items()},
    }
    return json.dumps(made, ensure_ascii=False)
