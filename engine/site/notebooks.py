"""A page as a Jupyter notebook (nbformat v4) that runs top to bottom on its own: an install
cell, a setup cell that unpacks the project files its code imports, the prose as Markdown cells,
each block as a code cell with the build's outputs (a ❌ that raises tagged ``raises-exception``),
and the reference solutions in an appendix."""

from __future__ import annotations

import doctest
import itertools
import json
import posixpath
from functools import partial
from pathlib import Path

import nbformat

from engine.page.model import ROOT, Block, Page, page_stem
from engine.page.outline import Node, outline, prose_lines
from engine.page.syntax import code_fence, is_absolute_url
from engine.run import accelerator
from engine.run.execute import PRELUDE
from engine.run.imports import project_files
from engine.run.results import Outcome, first_line
from engine.site import differences, setup_steps
from engine.site.labels import BADGES, cell_note

APPENDIX_TITLE = "Reference solution"  # collapsed boxes with this title go to the appendix
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def notebook_uri(page_path: str) -> str:
    """``docs/course/why-compile.md`` -> ``course/why-compile.ipynb`` (next to the page)."""
    return page_stem(page_path) + ".ipynb"


def site_link(site: str, page_path: str, target: str) -> str:
    """A link on page ``page_path`` as an absolute URL on ``site`` (``""``: left as it is)."""
    if is_absolute_url(target) or not site:
        return target  # absolute (https:, mailto:) or nowhere to point to
    here = posixpath.dirname(page_stem(page_path))
    path, _, anchor = target.partition("#")
    linked = posixpath.normpath(posixpath.join(here, path)) if path else page_path  # "#a": here
    url = site + (page_url(linked) if linked.endswith(".md") else linked)
    return f"{url}#{anchor}" if anchor else url


def page_url(page_path: str) -> str:
    """The page's URL path on the site (directory URLs): ``course/why-compile/``."""
    stem = page_stem(page_path)
    if stem == "index" or stem.endswith("/index"):
        stem = stem[: -len("index")].rstrip("/")
    return f"{stem}/" if stem else ""


# ---------------------------------------------------------------- the notebook


# The notebook is first a list of parts: Markdown text (consecutive texts share a cell), code
# cells, and CELL_BREAK, which ends a Markdown cell early.
CELL_BREAK = None


def _code_cell(source: str, metadata: dict | None = None, outputs=None) -> dict:
    """Cells and outputs are dicts, unchecked: ``page_to_notebook`` validates the notebook once."""
    return dict(
        id="",
        cell_type="code",
        metadata=metadata or {},
        execution_count=None,
        source=source.rstrip("\n"),
        outputs=outputs or [],
    )


def _cells(parts: list) -> list:
    """The notebook's cells: runs of Markdown parts joined into one cell each."""
    cells = []
    for is_text, run in itertools.groupby(parts, lambda part: isinstance(part, str)):
        if not is_text:
            cells += [part for part in run if part is not CELL_BREAK]
        elif text := "\n\n".join(t.strip("\n") for t in run if t.strip()).strip():
            cells.append(dict(id="", cell_type="markdown", metadata={}, source=text))
    return cells


def _is_appendix(node: Node) -> bool:
    return node.collapsible and node.title.startswith(APPENDIX_TITLE) and node.has_blocks()


def _appendix(nodes: list[Node]):
    """The collapsed solution boxes, wherever they sit, in page order."""
    for node in nodes:
        if _is_appendix(node):
            yield node
        if node.kind == "box" and node.has_blocks():
            yield from _appendix(node.children)


def _render(nodes: list[Node], page: Page, outcomes, prose, wrapped: dict[int, str]) -> list:
    parts: list = []
    for node in nodes:
        if node.kind == "text":
            parts.append(prose(node.lines))
        elif node.kind == "block":
            outcome = outcomes[node.index] if outcomes else None
            parts += _block(page.blocks[node.index], outcome, wrapped.get(node.index))
        elif _is_appendix(node):
            parts.append(f"*{node.title}: in the appendix at the end of this notebook.*")
        elif not node.has_blocks():
            parts.append(_box_markdown(node, prose))
        else:  # a box holding code: its code cells cannot be folded, so show it open
            parts.append(f"**{node.title or node.box_type.capitalize()}**")
            parts += _render(node.children, page, outcomes, prose, wrapped)
    return parts


def _block(block: Block, outcome: Outcome | None, claim_id: str | None = None) -> list:
    parts: list = []
    if block.bad:
        parts.append(f"❌ **Don't:** {cell_note(block.bad)}")
    elif block.good:
        parts.append("✅ **Do instead:**")
    if block.skip:
        source = code_fence("python", _runnable(block))
        return [*parts, f"{source}\n\n*Not run: {block.skip}*"]
    source = _cell_source(block, claim_id)
    metadata: dict = {}
    if block.bad and block.bad.mode == "raises":
        metadata["tags"] = ["raises-exception"]
    if block.bad:
        metadata["jitdocs"] = {"bad": block.bad.describe()}
    if block.collapse_code or block.check:
        metadata["jupyter"] = {"source_hidden": True}
    if block.check:  # labelled, and folded: the cell above is the lesson, this one its proof
        parts.append(f"✔ *Check (folded: open the cell to see its code):* {block.check}")
        metadata["tags"] = ["check"]
    parts.append(_code_cell(source, metadata, _outputs(outcome) if outcome else []))
    if block.fact and not block.check:
        parts.append(f"✔ *Checked on every build:* {block.fact}")
    return parts


def _cell_source(block: Block, claim_id: str | None) -> str:
    """The cell's code: the block's, headed by its file's name if it is a snippet, and wrapped
    when its claim is recorded as not holding on a TPU or another JAX (differences.py)."""
    source = _runnable(block)
    if block.snippet:
        source = f"# {block.filename}\n{source}"
    return accelerator.wrap(source, claim_id) if claim_id else source


def _prose(lines: list[str], site: str, page_path: str) -> str:
    def marker(name: str, args: str) -> str:
        if name == "badge":
            badge = BADGES[args]
            return f"{badge.emphasis}{badge.label}.{badge.emphasis}"
        if name == "version-notes":
            return f"*The table of version notes is on [the site]({site}).*"
        return ""

    return "\n".join(prose_lines(lines, marker, partial(site_link, site, page_path)))


def _box_markdown(node: Node, prose) -> str:
    """A box without code as Markdown any reader shows: collapsible, a bold title, or a quote."""
    inner = "\n\n".join(
        _box_markdown(c, prose) if c.kind == "box" else prose(c.lines) for c in node.children
    ).strip()
    title = node.title or node.box_type.capitalize()
    if node.collapsible:
        return f"<details><summary>{title}</summary>\n\n{inner}\n\n</details>"
    if node.box == "===":  # a tab
        return f"**{title}**\n\n{inner}"
    quoted = "\n".join(f"> {line}".rstrip() for line in inner.splitlines())
    return f"> **{title}**\n>\n{quoted}"


def page_to_notebook(
    page: Page,
    *,
    outcomes: list[Outcome] | None = None,
    environment: dict | None = None,
    site_url: str = "",
    files: dict[str, str] | None = None,
    install: str = "",
    records: dict[str, list[dict]] | None = None,
) -> dict:
    """The notebook for ``page``, validated: ``outcomes`` (one per block) become its outputs,
    ``files`` are unpacked by its setup cell, ``install`` is its first cell, ``records`` say
    which claims do not hold where (``differences.recorded``). A preview address as
    ``site_url`` is ignored: nothing a reader downloads links there."""
    if outcomes is not None and len(outcomes) != len(page.blocks):
        raise ValueError(f"{page.path}: {len(outcomes)} outcomes for {len(page.blocks)} blocks")
    site = setup_steps.public_url(site_url)
    prose = partial(_prose, site=site, page_path=page.path)
    nodes = outline(page, drop_title=True)  # the title cell already says it
    wrapped = differences.wrapped_blocks(page, records or {})
    parts = [
        *([_code_cell(install, {"tags": ["install"]})] if install else []),
        _title_cell(page, environment or {}, site),
        _code_cell(_setup_source(files or {}, page, records or {}), {"tags": ["setup"]}),
        *_render(nodes, page, outcomes, prose, wrapped),
    ]
    if solutions := list(_appendix(nodes)):
        parts += [
            CELL_BREAK,
            "## Appendix: reference solutions\n\nRunning these cells replaces your own "
            "definitions with the reference ones, so try the exercises first.",
        ]
    for node in solutions:
        section = page.blocks[next(node.block_indexes())].section
        parts.append(f"### {section}: {node.title.lower()}")
        solution = _render(node.children, page, outcomes, prose, wrapped)
        for cell in (part for part in solution if not isinstance(part, str)):
            cell["metadata"].setdefault("tags", []).append("solution")  # the view folds it
        parts += solution
    cells = nbformat.from_dict(_cells(parts))  # NotebookNodes, as nbformat reads a notebook
    for number, cell in enumerate(cells, start=1):
        cell["id"] = f"cell-{number}"  # deterministic, so a rebuild writes the same file
    metadata = {
        "kernelspec": dict(KERNELSPEC),
        "language_info": {"name": "python"},
        "jitdocs": {"page": page.path, "environment": environment or {}},
    }
    # nbformat's v4 notebook, validated: the one schema check of the notebook and all its cells
    return nbformat.v4.new_notebook(metadata=nbformat.from_dict(metadata), cells=cells)


def build_notebook(
    page: Page, *, site_url: str = "", root: Path = ROOT, records: dict | None = None, **outputs
) -> dict:
    """The notebook the build serves, with its project files bundled and a first cell that
    installs the packages its code imports, pinned as in ``uv.lock``; ``records``: where its
    claims do not hold (read from the data files when not given); ``outputs``: the
    ``outcomes`` and ``environment`` of its run."""
    if records is None:
        records = differences.from_files(page, root)
    sources = [block.source for block in page.blocks]
    sources.append(differences.IMPORT)  # bundled in every notebook: a new record adds no file
    files = project_files(sources, root)
    pins = setup_steps.requirements([*sources, *files.values()], root)
    setup_url = (site := setup_steps.public_url(site_url)) and site + setup_steps.SETUP_PAGE
    install = setup_steps.install_cell(pins, setup_url)
    return page_to_notebook(
        page, site_url=site_url, files=files, install=install, records=records, **outputs
    )


def dumps(notebook: dict) -> str:
    """The ``.ipynb`` text, laid out as Jupyter writes it (stable, so builds are reproducible)."""
    return json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- helpers


def _title_cell(page: Page, environment: dict, site: str) -> str:
    lines = [f"# {page.title}"]
    if page.description:
        lines.append(f"*{page.description}*")
    where = f"[this page of the site]({site}{page_url(page.path)})" if site else "a page"
    made = (
        f"with JAX {environment['jax']} (jaxlib {environment['jaxlib']}), Python "
        f"{environment['python']}, on {environment['device']}"
        if environment
        else "when the site was built"
    )
    lines.append(
        f"This notebook is {where}, cell for cell. The outputs you see were produced {made}; "
        "timings are from that machine and will differ on yours. **Run the install cell and "
        "the setup cell first**: one installs what the notebook needs, the other sets it up. "
        "Cells marked ❌ show a mistake: the ones that raise are tagged `raises-exception`, so "
        "*Run All* continues past them."
    )
    if any(block.snippet and block.snippet.endswith("_starter") for block in page.blocks):
        lines.append(
            "**This is the exercise workbook.** Write each answer in its skeleton cell, then "
            "run the self-check cell below it. The reference solutions wait in the appendix."
        )
    return "\n\n".join(lines)


CHILD = "sys.executable"  # how a page starts a Python program of its own
# Set after `import jax`, which has read JAX_PLATFORMS for this process already; as the build's
# page processes do (engine.run.child), so the notebook runs what the site recorded.
CHILDREN_ON_CPU = [
    "",
    "# This notebook's process holds the accelerator (a TPU admits only one), so the Python",
    "# programs that cells below start run on the CPU; on a CPU-only machine nothing changes.",
    "import os",
    "",
    'os.environ["JAX_PLATFORMS"] = "cpu"',
]


def _setup_source(files: dict[str, str], page: Page, records: dict[str, list[dict]]) -> str:
    lines = ["# Setup: run this cell first."]
    saves = any(block.file for block in page.blocks)
    if files:
        names = ", ".join(sorted(files))
        lines += [
            "# It writes the project files this notebook imports to a temporary folder and",
            "# puts that folder on sys.path, so nothing but the packages above is needed:",
            f"# {names}",
            "",
            "",
            "def _unpack_project_files(project_files):",
            "    import sys",
            "    import tempfile",
            "    from pathlib import Path",
            "",
            '    folder = Path(tempfile.mkdtemp(prefix="jitdocs-"))',
            "    for name, text in project_files.items():",
            "        (folder / name).parent.mkdir(parents=True, exist_ok=True)",
            '        (folder / name).write_text(text.removeprefix("\\n"), encoding="utf-8")',
            '    sys.path[:0] = [str(folder), str(folder / "snippets")]',
            "",
            "",
            "_unpack_project_files({",
        ]
        for name, text in files.items():
            lines.append(f"    {name!r}: {_literal(text)},")
        lines += ["})", "del _unpack_project_files", ""]
    starts_python = any(
        CHILD in text for text in [*files.values(), *(b.source for b in page.blocks)]
    )
    lines += [
        "# Every example on the site starts from these four imports.",
        PRELUDE.rstrip(),
        *(["import tempfile  # the %%writefile cells save into its folder"] if saves else []),
        *(CHILDREN_ON_CPU if starts_python else []),
        "",
        "# Jupyter would colour printed jaxprs; pages compare their plain text, as on the site.",
        'jax.config.update("jax_pprint_use_color", False)',
        *differences.setup_lines(records),
    ]
    return "\n".join(lines) + "\n"


def _literal(text: str) -> str:
    """A readable Python literal for a file's text: a raw triple-quoted string when possible."""
    text = text if text.endswith("\n") else text + "\n"
    return repr(text) if "'''" in text else "r'''\n" + text + "'''"


def _runnable(block: Block) -> str:
    """The code to put in a cell: doctest examples lose their prompts and expected output."""
    if block.file:  # the page's harness finds it in the temporary folder, as on the site
        return f"%%writefile {{tempfile.gettempdir()}}/{block.file}\n{block.source}"
    if not block.is_doctest:
        return block.source
    examples = doctest.DocTestParser().get_examples(block.source)
    return "".join(example.source for example in examples)


def _outputs(outcome: Outcome) -> list[dict]:
    outputs: list[dict] = []
    if outcome.output:
        outputs.append(dict(output_type="stream", name="stdout", text=outcome.output))
    for figure in outcome.figures:
        data = {"image/svg+xml": figure.light, "text/plain": figure.alt}
        outputs.append(dict(output_type="display_data", metadata={}, data=data))
    if outcome.error_type:
        first, traceback = first_line(outcome.error_message), outcome.error.splitlines()
        outputs.append(
            dict(output_type="error", ename=outcome.error_type, evalue=first, traceback=traceback)
        )
    return outputs
