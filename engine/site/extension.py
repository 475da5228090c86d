"""The Python-Markdown extension that renders every page of the site from its run, under any
builder that runs Markdown extensions (MkDocs, Zensical). It knows a page by its text; other
Markdown passes through.
"""

from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import Element, SubElement

from markdown import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from engine.page.model import MarkupError
from engine.page.syntax import MARKER_LINE
from engine.site import render
from engine.site.render import Site

_published: list[Site] = []  # the run step's Site for this build: one at a time


def publish(site: Site) -> None:
    _published[:] = [site]


def published() -> Site:
    """This build's Site; without a hook to publish it, the run step's, from the project in the
    working folder (where a builder reads mkdocs.yml)."""
    if not _published:
        from engine.site.run_step import standalone  # imports the engine's run layer

        publish(standalone(Path.cwd()))
    return _published[0]


class JitDocsExtension(Extension):
    def __init__(self, **kwargs) -> None:
        # Unused here: Zensical's cache key (engine.site.run_step.rendered_digest says why).
        self.config = {"outputs": ["", "digest of the rendered pages (Zensical's cache key)"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md) -> None:
        # before normalize_whitespace (30): the text is still the page's as the builder gave it
        md.preprocessors.register(PagePreprocessor(md), "jitdocs", 35)
        md.postprocessors.register(PageHtml(md), "jitdocs-html", 5)  # after raw HTML is back
        md.treeprocessors.register(WrappedTables(md), "jitdocs-tables", 5)


def makeExtension(**kwargs) -> JitDocsExtension:
    return JitDocsExtension(**kwargs)


class PagePreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        site = published()
        path = site.page_of("\n".join(lines))
        if path is None and any(MARKER_LINE.match(line) for line in lines):
            raise MarkupError(
                "a page with jitdocs markers that the run step did not read (did it change "
                f"during the build?): {next((line for line in lines if line.strip()), '')!r}"
            )
        self.md.jitdocs_page = path  # for the postprocessor
        return site.markdown(path).split("\n") if path else lines


class PageHtml(Postprocessor):
    def run(self, text: str) -> str:
        if not getattr(self.md, "jitdocs_page", None):
            return text
        return render.finished(render.colour_outputs(published(), text))


class WrappedTables(Treeprocessor):
    """Each table arrives wrapped as Material's script would wrap it after loading: its swap
    repainted a table-led page late (the cheat sheet's mobile LCP 3.2 s, 1.5 s wrapped here).
    The class keeps the script off; jitdocs.css gives ``table.jd-table`` Material's look."""

    def run(self, root: Element) -> None:
        for parent in list(root.iter()):
            for index, table in enumerate(list(parent)):
                if table.tag == "table" and "class" not in table.attrib:
                    parent.remove(table)
                    outer = Element("div", {"class": "md-typeset__scrollwrap"})
                    SubElement(outer, "div", {"class": "md-typeset__table"}).append(table)
                    outer.tail, table.tail = table.tail, None
                    table.set("class", "jd-table")
                    parent.insert(index, outer)
