"""The key of what a build keeps of its renderers' output (engine/site/kept.py) names only the
distributions the renderers require, so that the docs venv and the tests venv share it. That is
sound only if the renderers import nothing else: here, in this venv (the tests', with more
installed beside the renderers), each conversion the build keeps runs in a fresh process, and
every distribution it imported must be in the key."""

from __future__ import annotations

import json
import subprocess
import sys

from engine.page.model import ROOT
from engine.run.environment import canonical
from engine.site import kept
from tests import tiers

CONVERSIONS = """
import importlib.metadata, json, sys
from pathlib import Path
started = set(sys.modules)  # Python's own start-up, before any renderer

import nbformat
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import meta

from engine.site import extension, kept, notebook_view
from engine.site.render import Site

out = Path(sys.argv[1])
docs = out / "docs"
docs.mkdir(parents=True)
config = load_config("mkdocs.yml", site_dir=str(out / "site"))  # the theme, the search plugin
config.plugins._current_plugin = None  # set by mkdocs while an event runs; File reads it
extension.publish(Site(Path.cwd()))  # no page of the site: its Markdown passes through

# a page with what the site's Markdown options render: code, an admonition, tabs, a table
text = (
    "# Demo\\n\\n!!! note\\n    A *note*.\\n\\n```python\\nimport jax\\nx = {'a': 1}\\n```\\n\\n"
    "=== \\"One\\"\\n\\n    `#!python len(x)`\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |\\n"
)
(docs / "demo.md").write_text(text)
files = Files([File("demo.md", str(docs), str(out / "site"), True)])
page = Page(None, files.get_file_from_path("demo.md"), config)
page.markdown = text
page.render(config, files)

# a notebook view, as the hook renders one with mkdocs-jupyter
cells = [
    nbformat.v4.new_markdown_cell("---\\ntitle: Demo\\n---\\n## A *view*"),  # as a view starts
    nbformat.v4.new_code_cell("print(1)\\n1 / 0", outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="1\\n"),
        nbformat.v4.new_output("error", ename="ZeroDivisionError", evalue="division by zero",
                               traceback=["\\x1b[31mZeroDivisionError\\x1b[0m"]),
    ]),
]
source = out / "notebook-view" / "course" / "demo.ipynb"  # where the hook writes a view
source.parent.mkdir(parents=True)
source.write_text(nbformat.writes(nbformat.v4.new_notebook(cells=cells)))
uri = "course/demo/notebook.ipynb"
view = notebook_view.ViewFile.generated(config, uri, abs_src_path=str(source))
files.append(view)
plugin = notebook_view.load_plugin(config)
page = Page(None, view, config)
page = plugin.on_pre_page(page, config, files)  # what the hook does, as mkdocs orders it
page.markdown, page.meta = meta.get_data(plugin.on_page_read_source(page, config))
page.render(config, files)
assert "jp-Notebook" in page.content, page.content[:200]

# Material's search entries of a page
search = config.plugins[kept.SEARCH_PLUGIN]
search.on_config(config)
search.search_index.add_entry_from_context(page)
assert search.search_index.entries

imported = {name.split(".")[0] for name in set(sys.modules) - started}
owners = importlib.metadata.packages_distributions()
print(json.dumps(sorted({dist for name in imported for dist in owners.get(name, [])})))
"""


# what the renderers are (the lock, mkdocs.yml's Markdown options, the view's options) and the key
@tiers.only_when_changed(
    "mkdocs.yml",
    "engine/site/notebook_view.py",
    "engine/site/kept.py",
    "engine/run/environment.py",
    "tests/test_kept_imports.py",
)
def test_the_renderers_import_only_distributions_in_the_key(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", CONVERSIONS, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    imported = {canonical(name) for name in json.loads(done.stdout)}
    key = kept.renderer_distributions(kept.RENDERERS, kept.PLUGIN_GROUPS).decode()
    named = {line.split("==")[0] for line in key.split("\n")[1:] if "==" in line}
    assert {"mkdocs-jupyter", "nbconvert", "pymdown-extensions", "mistune"} <= imported
    assert imported - named == set()
