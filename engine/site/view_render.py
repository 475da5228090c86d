"""The notebook views rendered by mkdocs-jupyter only when a view changed: importing it costs
about 0.7 s, and a custom template turns its own cache off. A view whose ``render_key`` is the
last build's is served from what that build stored.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.toc import get_toc

from engine.run.environment import installed_distributions
from engine.run.files import read_kept, write_if_changed
from engine.site import render
from engine.site.kept import toc_tokens
from engine.site.notebook_view import is_view
from engine.site.sections import wrap_sections

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
FORMAT = b"view-render-2"
INLINE_STYLE = re.compile(
    r"\s*<style>\s*\[.*?\]\s*</style>\s*$", re.DOTALL
)  # what a stored render holds; change it when that changes


def render_key(source: bytes, theme: str) -> str:
    """Everything a view's render depends on: the view notebook, the template, the options,
    the theme (mkdocs-jupyter adds a Mermaid loader to a theme other than Material), Python and
    the installed distributions, and Jupyter's path variables (where nbconvert finds templates).
    The stored render sits beside its notebook, so the notebook's path is fixed by it."""
    jupyter = sorted((k, v) for k, v in os.environ.items() if k.startswith("JUPYTER"))
    parts = [
        FORMAT,
        source,
        TEMPLATE.read_bytes(),
        json.dumps(OPTIONS, sort_keys=True).encode(),
        theme.encode(),
        installed_distributions(),
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
    """The views of one build: each served from its stored render, or rendered by mkdocs-jupyter
    (loaded at the first changed view) and stored. ``conversions`` counts the renders."""

    def __init__(self, plugin_loader=load_plugin) -> None:
        self.load_plugin = plugin_loader
        self.plugin = None
        self.renders: dict[str, dict] = {}  # a view's src_uri -> its render, stored or to store
        self.conversions = 0

    def _jupyter(self, config):
        if self.plugin is None:
            self.plugin = self.load_plugin(config)
        return self.plugin

    def on_pre_page(self, page, config, files):
        if not is_view(page):
            return page
        source = Path(page.file.abs_src_path)
        key = render_key(source.read_bytes(), config["theme"].name)
        stored = source.with_suffix(".html.json")
        render = read_kept(stored, _complete)
        if render.get("key") == key:
            self.renders[page.file.src_uri] = render
            page.render = _stored_render(render).__get__(page)
            return page
        plugin = self._jupyter(config)
        if not plugin.should_include(page.file):
            raise PluginError(f"{page.file.src_uri}: mkdocs-jupyter's options leave this view out")
        page = plugin.on_pre_page(page, config, files)
        self.renders[page.file.src_uri] = render = {"key": key}
        page.render = self._storing_render(page.render, render, stored).__get__(page)
        return page

    def on_page_read_source(self, page, config) -> str | None:
        """A view's front matter, from its notebook's metadata (mkdocs-jupyter reads it)."""
        render = self.renders.get(page.file.src_uri) if is_view(page) else None
        if render is None:
            return None
        if "source" not in render:
            render["source"] = self._jupyter(config).on_page_read_source(page, config)
        return render["source"]

    def _storing_render(self, convert, render: dict, stored: Path):
        def storing_render(page, config, files) -> None:
            convert(config, files)
            page.content = finished(page.content)
            self.conversions += 1
            render.update(
                content=page.content,
                toc=toc_tokens(page.toc.items),
                title=vars(page).get("title"),  # set only if the render titled the page
            )
            write_if_changed(stored, json.dumps(render, ensure_ascii=False))

        return storing_render


def finished(content: str) -> str:
    """The view's HTML as the site's pages have it: ❌/✅ drawn, in sections, and without the
    Pygments CSS mkdocs-jupyter appends (the view uses the site's code colours)."""
    content = INLINE_STYLE.sub("", content)
    return wrap_sections(render.draw_symbols(render.unwrap_plain_tokens(content)))


def _complete(render: dict) -> bool:
    return {"key", "content", "toc", "title"} <= render.keys()


def _stored_render(render: dict):
    def stored_render(page, config, files) -> None:
        page.content, page.toc = render["content"], get_toc(render["toc"])
        if render["title"] is not None:
            page.title = render["title"]

    return stored_render
