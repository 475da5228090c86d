"""The downloadable notebooks: well formed, faithful to their page, and runnable top to bottom.

What a notebook must do: run top to bottom in a reader's Jupyter, from the one downloaded file,
with only what its first cell installs, every ❌ cell raising the error its page declares. The
proof comes in two parts, so that the chapters' code does not run a second time for most pages:

- **For every notebook, without running it** (``test_notebook_is_the_code_the_build_ran``): its
  code cells are the page's blocks, in the order the build ran them, after a setup cell that
  makes the build's namespace (the same four imports) and writes out the project files the
  build found on its path (``project_files``, the same import graph); every import in the cells
  and in those files resolves to the standard library, a package the install line names, or a
  bundled file; each ❌ cell is tagged with the error its block declares. The session's build
  ran those blocks in that order in that namespace and held each ❌ block to its error (a
  broken contract fails the build), and each example's test reports that run.
- **What that cannot see is run for real** (``test_notebook_runs_top_to_bottom``), with nbclient
  in an empty temporary folder, without the project on ``PYTHONPATH``, in a kernel from a
  **fresh venv** that holds only what the notebook's first cell installs (plus ipykernel, the
  reader's kernel): a notebook whose code reaches outside the Python namespace (processes it
  starts, the environment, files, dynamic imports, object lifetimes that IPython's output
  history changes: ``reaches_outside``), or whose cells run in another order than the
  page's (the workbook's appendix); then, if one is still missing, the cheapest notebook for
  each install line and each thing only a kernel does (``%%writefile``, an inline chart, a
  ``raises-exception`` cell). Notebooks with the same install line share one venv
  (``fresh_venvs``). No cell may raise except the ❌ cells, which must raise the very error
  their page declares. A page's timing claims are the build's to prove: it ran the same code
  on the same pinned JAX, alone. The run test exists for every notebook; outside REAL_RUNS it
  runs only when named, as `nox -s page` names its page's (``only_when_named``). The default
  tier runs a REAL_RUNS notebook when its page or the writer changed (tests/tiers.py), and
  every tier a made-up page's notebook (``KERNEL_FEATURES_PAGE``), from the same writer and
  run the same way, with each thing only a kernel does that a site notebook has, on cheap code.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from engine.page.model import ROOT
from engine.page.parser import read_page
from engine.page.policy import wants_notebook
from engine.run import accelerator
from engine.run.environment import locked_versions
from engine.run.execute import PRELUDE
from engine.run.imports import project_files
from engine.run.results import Outcome
from engine.run.timing import measures_time
from engine.site import differences
from engine.site.notebooks import (
    CHILDREN_ON_CPU,
    _runnable,
    build_notebook,
    dumps,
    notebook_uri,
    page_to_notebook,
)
from tests import tiers
from tests.helpers import fence, site_page
from tests.helpers import page as made_up_page

PAGES = sorted(
    p.relative_to(ROOT).as_posix()
    for p in (ROOT / "docs").rglob("*.md")
    if wants_notebook(p.relative_to(ROOT).as_posix())
)
CELL_TIMEOUT = 600  # seconds; the slowest blocks on the site take well under a minute


@pytest.mark.unit
def test_chapter_pages_and_the_workbook_get_notebooks():
    chapters = {
        p.relative_to(ROOT).as_posix()
        for part in ("course", "beyond")
        for p in (ROOT / "docs" / part).glob("*.md")
    }
    assert chapters <= set(PAGES)
    assert "docs/practice/exercises.md" in PAGES
    assert not wants_notebook("docs/practice/quiz.md")
    assert notebook_uri("docs/course/why-compile.md") == "course/why-compile.ipynb"


def kernel_env() -> dict[str, str]:
    """A reader's environment: without the project on the path, and writing bytecode."""
    return {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")
    }


def run_notebook(page_path: str, folder: Path, kernel: str = "python3") -> nbformat.NotebookNode:
    return execute(reader_copy(build_notebook(site_page(page_path))), folder, kernel)


def reader_copy(notebook: dict) -> nbformat.NotebookNode:
    """The notebook as a reader's Jupyter reads the downloaded file, checked against the schema."""
    copy = nbformat.reads(dumps(notebook), as_version=4)
    nbformat.validate(copy)
    return copy


def execute(notebook, folder: Path, kernel: str) -> nbformat.NotebookNode:
    """Run every cell in a new ``kernel`` started in ``folder``, as a reader's Jupyter does;
    raises CellExecutionError on any unexpected error."""
    resources = {"metadata": {"path": str(folder)}}
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name=kernel,
        resources=resources,
        shutdown_kernel="immediate",  # a graceful stop with JAX loaded takes 0.6-2.5 s
    )
    client.execute(env=kernel_env())
    return notebook


def install_line(notebook: dict) -> list[str]:
    """The packages the notebook's first cell installs on a CPU (its ``PINNED``)."""
    first = notebook["cells"][0]
    assert first["cell_type"] == "code" and "install" in first["metadata"]["tags"]
    (pinned,) = [line for line in first["source"].splitlines() if line.startswith("PINNED = ")]
    return [
        f"{name}=={pin}" for name, pin in ast.literal_eval(pinned.removeprefix("PINNED = ")).items()
    ]


# Code whose behaviour can differ between the build's run and a reader's kernel although the
# namespace is the same: what it starts, reads or finds outside the Python namespace (the build
# runs in the project folder with the project on PYTHONPATH; a kernel in an empty folder without
# it), objects kept alive or looked up by the interpreter (IPython keeps each echoed value in
# its output history), and what a kernel runs differently: its own streams, signal handlers,
# event loop (asyncio.run fails there), arguments, and __main__ (pickling, process pools).
OUTSIDE_MODULES = {
    *("subprocess", "os", "importlib", "runpy", "pathlib", "shutil", "glob", "tempfile", "io"),
    *("weakref", "gc", "linecache", "asyncio", "signal", "pickle", "multiprocessing"),
    *("concurrent", "ctypes", "socket", "threading", "atexit", "builtins"),
}
OUTSIDE_NAMES = {"open", "input", "__import__", "__file__", "__name__", "get_ipython", "exec"}
OUTSIDE_ATTRIBUTES = {
    *("executable", "argv", "path", "modules", "stdin", "stdout", "stderr", "getrefcount"),
    *("read_text", "read_bytes", "write_text", "write_bytes", "getsource", "getsourcelines"),
    *("getfile", "environ", "getenv", "system", "popen", "chdir", "getcwd", "listdir"),
}


def reaches_outside(source: str) -> set[str]:
    """What in ``source`` (a cell; magics left out) reaches outside the namespace."""
    code = "\n".join(line for line in source.splitlines() if not line.startswith(("%", "!")))
    found = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [alias.name for alias in node.names]
            modules = [node.module] if isinstance(node, ast.ImportFrom) else names
            found |= {f"import {m}" for m in modules if m and m.split(".")[0] in OUTSIDE_MODULES}
        elif isinstance(node, ast.Name) and node.id in OUTSIDE_NAMES:
            found.add(node.id)
        elif isinstance(node, ast.Attribute) and node.attr in OUTSIDE_ATTRIBUTES:
            found.add("." + node.attr)
    return found


@functools.cache
def notebook_of(page_path: str) -> dict:
    return build_notebook(site_page(page_path))


def code_cells(notebook: dict) -> list[dict]:
    """The code cells after the install and setup cells: the page's code."""
    return [cell for cell in notebook["cells"] if cell["cell_type"] == "code"][2:]


def kernel_features(page_path: str) -> set[str]:
    """What only a kernel does with this page's notebook (``features_of``)."""
    return features_of(notebook_of(page_path))


def features_of(notebook: dict) -> set[str]:
    """What only a kernel does with ``notebook``: its install line, cell magics, charts."""
    sources = [cell["source"] for cell in code_cells(notebook)]
    tags = {tag for cell in code_cells(notebook) for tag in cell_tags(cell)}
    features = {"install " + " ".join(install_line(notebook))}
    features |= {"%%writefile"} if any(s.startswith("%%writefile") for s in sources) else set()
    features |= {"a chart"} if any("plt." in source for source in sources) else set()
    wraps = any(source.startswith(f"with {accelerator.WRAPPER}(") for source in sources)
    features |= {"a recorded difference"} if wraps else set()
    return features | ({"a raising cell"} if "raises-exception" in tags else set())


def cell_tags(cell: dict) -> list[str]:
    return cell["metadata"].get("tags", [])


def needs_a_kernel(page_path: str) -> str:
    """Why the proof without running cannot stand for this notebook ("" when it can)."""
    page, notebook = site_page(page_path), notebook_of(page_path)
    sources = [cell["source"] for cell in code_cells(notebook)]
    reaching = sorted(set().union(*map(reaches_outside, sources)))
    if reaching:
        return "its code reaches outside the namespace: " + ", ".join(reaching)
    if sources != [source for _, source in page_order(page)]:
        return "its cells run in another order than the page's"
    return ""


def real_runs(pages: list[str]) -> list[str]:
    """The notebooks run for real: those that need a kernel, then the cheapest (fewest code
    cells, no timing claim) for each kernel feature none of them has yet."""
    chosen = [page for page in pages if needs_a_kernel(page)]
    covered = set().union(*map(kernel_features, chosen))
    by_cost = sorted(
        pages, key=lambda p: (measures_time(site_page(p)), len(code_cells(notebook_of(p))))
    )
    for page in by_cost:
        if not kernel_features(page) <= covered:
            chosen.append(page)
            covered |= kernel_features(page)
    return sorted(chosen)


def page_order(page) -> list[tuple[int, str]]:
    """Each block the build runs, as its notebook cell's code, in page order."""
    return [
        (index, (f"# {block.filename}\n" if block.snippet else "") + _runnable(block).rstrip("\n"))
        for index, block in enumerate(page.blocks)
        if not block.skip
    ]


@functools.cache
def top_level_modules(distribution: str) -> frozenset[str]:
    """The modules a distribution installs (``matplotlib`` -> matplotlib, mpl_toolkits, ...)."""
    tops = set()
    for file in importlib.metadata.distribution(distribution).files or []:
        top = file.parts[0]
        if len(file.parts) > 1 and not top.endswith((".dist-info", ".data", "..")):
            tops.add(top)
        elif len(file.parts) == 1 and file.suffix == ".py":
            tops.add(file.stem)
    return frozenset(tops)


def imported_modules(source: str) -> set[str]:
    """The top-level names an (absolute) import in ``source`` needs; magics are not Python."""
    code = "\n".join(line for line in source.splitlines() if not line.startswith(("%", "!")))
    found = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


REAL_RUNS = real_runs(PAGES)


@pytest.mark.unit
@pytest.mark.parametrize("page_path", PAGES)
def test_notebook_is_the_code_the_build_ran(page_path: str):
    """The proof for every notebook that runs none of them (the module's docstring says what it
    stands on); a notebook it cannot speak for is in REAL_RUNS."""
    page, notebook = site_page(page_path), notebook_of(page_path)
    cells = code_cells(notebook)
    # a claim recorded as not holding on a TPU or another JAX runs wrapped (test_differences.py)
    wrapped = differences.wrapped_blocks(page, differences.from_files(page, ROOT))
    unwrapped = {accelerator.unwrapped(cell["source"]).rstrip("\n"): cell for cell in cells}
    assert len(unwrapped) == len(cells)
    if page_path not in REAL_RUNS:
        assert list(unwrapped) == [source for _, source in page_order(page)]
    for index, source in page_order(page):
        want = accelerator.wrap(source, wrapped[index]) if index in wrapped else source
        assert unwrapped[source]["source"].rstrip("\n") == want.rstrip("\n"), source
    by_source = unwrapped
    for index, source in page_order(page):
        bad = page.blocks[index].bad
        raises = bad is not None and bad.mode == "raises"
        assert ("raises-exception" in cell_tags(by_source[source])) == raises, source
        if bad:
            assert by_source[source]["metadata"]["jitdocs"]["bad"] == bad.describe()

    setup = next(cell for cell in notebook["cells"] if "setup" in cell_tags(cell))["source"]
    assert PRELUDE in setup, "the setup cell must make the build's namespace"
    bundled = project_files([block.source for block in page.blocks])
    assert all(repr(name) in setup for name in bundled), "a file the build imports is missing"
    # importable as they unpack: from the folder and from its snippets/ (the setup cell's path)
    modules = {Path(name.removeprefix("snippets/")).parts[0] for name in bundled}
    modules = {module.removesuffix(".py") for module in modules}
    installed = set().union(
        *(top_level_modules(pin.split("==")[0]) for pin in install_line(notebook))
    )
    known = set(sys.stdlib_module_names) | {"__future__"} | installed | modules
    sources = [cell["source"] for cell in cells] + list(bundled.values())
    needed = set().union(*map(imported_modules, sources))
    assert needed <= known, f"imports neither installed, bundled nor standard: {needed - known}"


@pytest.mark.unit
def test_each_kernel_feature_and_every_notebook_that_needs_a_kernel_is_run():
    """The real runs cover each install line and each thing only a kernel does; a notebook that
    reaches outside the namespace is always among them, and most notebooks are not."""
    assert set().union(*map(kernel_features, PAGES)) == set().union(
        *map(kernel_features, REAL_RUNS)
    )
    assert all(page in REAL_RUNS for page in PAGES if needs_a_kernel(page))
    assert needs_a_kernel("docs/course/compile-once.md")  # starts Python processes
    assert "%%writefile" in kernel_features("docs/course/compile-once.md")
    assert len(REAL_RUNS) < len(PAGES)


@pytest.mark.unit
def test_the_made_up_notebook_has_every_kernel_only_feature_of_the_site():
    """The default tier's kernel run stands for the site's notebooks only while it shows each
    thing only a kernel does that one of them has: a notebook that gains a new one fails here."""
    site = set().union(*map(kernel_only, PAGES))
    made_up = only_a_kernel(features_of(kernel_features_notebook()))
    assert site, "no site notebook has a kernel-only feature: the made-up one stands for none"
    assert site <= made_up, f"add to KERNEL_FEATURES_PAGE: {sorted(site - made_up)}"


@pytest.mark.unit
def test_the_rule_sees_code_that_reaches_outside_and_imports_that_nothing_provides():
    assert reaches_outside("import subprocess\nsubprocess.run(['ls'])") == {"import subprocess"}
    assert reaches_outside("%%writefile x.py\nprint(open('x').read())") == {"open"}
    assert reaches_outside("from pathlib import Path\nPath('a').read_text()") == {
        "import pathlib",
        ".read_text",
    }
    assert reaches_outside("x = jnp.arange(3)\nprint(type(x).__name__, x.sum())") == set()
    assert imported_modules("import scipy.linalg\nfrom jax import lax\nfrom . import a") == {
        "scipy",
        "jax",
    }


def kernel_only(page_path: str) -> set[str]:
    return only_a_kernel(kernel_features(page_path))


def only_a_kernel(features: set[str]) -> set[str]:
    """Those of ``features`` that are things only a kernel does (install lines are left to
    test_every_install_line_gives_a_kernel_with_the_locked_versions, which runs whenever one
    can change)."""
    return {feature for feature in features if not feature.startswith("install ")}


# The default tier's kernel run: a made-up page whose notebook, written by the build's writer,
# has every thing only a kernel does that a site notebook has, on cheap code (a chapter's run
# took 23 s of a worker; test_the_made_up_notebook_has_every_kernel_only_feature_of_the_site
# keeps it complete). Its imports make its install line and bundle jitkit, as a chapter's do.
KERNEL_FEATURES_PAGE = """\
# Every kernel feature

A made-up page (tests/test_notebooks.py): each thing only a kernel does with a notebook.

<!-- file: jitdocs_kernel_features.py -->
```python
import sys

print("saved and run:", sys.argv[1])
```

```python
import subprocess
import sys
import tempfile
from pathlib import Path

SAVED = Path(tempfile.gettempdir(), "jitdocs_kernel_features.py")  # the cell above wrote it
done = subprocess.run([sys.executable, str(SAVED), "yes"], capture_output=True, text=True)
assert done.stdout == "saved and run: yes\\n", (done.stdout, done.stderr)
```

<!-- bad: raises TracerBoolConversionError -->
```python
@jax.jit
def magnitude(x):
    return x if x > 0 else -x


magnitude(-2.0)
```

<!-- good -->
```python
from jitkit import count_compiles


@jax.jit
def magnitude(x):
    return jnp.where(x > 0, x, -x)


with count_compiles() as compiles:
    assert magnitude(-2.0) == 2.0
assert compiles("magnitude") == 1
```

```python
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(2, 1.5))
ax.plot([0, 1, 2], [0, 1, 4])
fig.set_label("A line through three points.")
```

<!-- fact: The default backend is not the CPU. -->
```python
assert jax.default_backend() != "cpu", "the backend is the CPU"
```

```python
print("the cell after a recorded difference ran")
```
"""


@functools.cache
def kernel_features_notebook() -> dict:
    """Its last fact fails on a CPU, as recorded there: the notebook reports it and goes on."""
    page = made_up_page(KERNEL_FEATURES_PAGE, "docs/demo/kernel-features.md")
    cpu = {"platform": "cpu", "on": "a CPU", "recorded": "AssertionError: the backend is the CPU"}
    return build_notebook(page, records={page.claims[-1].id: [cpu]})


def real_run_params() -> list:
    """Every notebook; those outside REAL_RUNS only when named (`nox -s page` names its page's):
    test_notebook_is_the_code_the_build_ran proves them in every tier. Of REAL_RUNS the default
    tier runs the notebook of a page that changed (tests/tiers.py); the made-up notebook
    (test_a_notebook_with_every_kernel_only_feature_runs_top_to_bottom) stands for the rest."""
    return [
        tiers.sampled_param(
            pytest.param(
                page,
                marks=[
                    *([pytest.mark.timing] if measures_time(site_page(page)) else []),
                    *([] if page in REAL_RUNS else [pytest.mark.only_when_named]),
                ],
            ),
            [page, "engine/site/notebooks.py"],
            page not in REAL_RUNS,
        )
        for page in PAGES
    ]


@pytest.mark.parametrize("page_path", real_run_params())
def test_notebook_runs_top_to_bottom(page_path: str, tmp_path: Path, fresh_venvs):
    """In a fresh venv made from the notebook's first cell alone: nothing else is installed.
    In a full run only REAL_RUNS: test_notebook_is_the_code_the_build_ran proves the others."""
    kernel = fresh_venvs.kernel(install_line(notebook_of(page_path)))
    try:
        notebook = run_notebook(page_path, tmp_path, kernel)
    except CellExecutionError as error:
        # A page's timing assert can lose once to a busy machine; a real break fails twice.
        if "AssertionError" not in str(error):
            raise
        notebook = run_notebook(page_path, tmp_path, kernel)
    assert_ran_as_a_reader_needs(
        notebook, page_path, 4 if page_path.endswith("exercises.md") else 0
    )


def assert_ran_as_a_reader_needs(notebook, name: str, self_checks_at_least: int = 0) -> None:
    """After a run without an unexpected error: no self-check cell echoes a value, the first
    cell installed nothing, and each ❌ cell raised the error its page declares."""
    self_checks = [c for c in notebook.cells if c.source.startswith("self_check(")]
    assert len(self_checks) >= self_checks_at_least
    echoes = [c.source for c in self_checks for o in c.outputs if o.output_type == "execute_result"]
    assert not echoes, f"self-check cells echo a value: {echoes}"
    # everything the notebook needs was there, so its first cell installed nothing
    printed = "".join(out.get("text", "") for out in notebook.cells[0].outputs)
    assert printed == f"Ready: jax {locked_versions()['jax']}, as the site was built.\n", printed

    for cell in notebook.cells:
        if cell.cell_type != "code" or "raises-exception" not in cell.metadata.get("tags", []):
            continue
        expected = cell.metadata["jitdocs"]["bad"].removeprefix("raises ")
        errors = [out for out in cell.outputs if out.output_type == "error"]
        assert errors, f"{name}: the ❌ cell did not raise {expected}:\n{cell.source}"
        assert errors[0].ename == expected.rsplit(".", 1)[-1], (
            f"{name}: expected {expected}, got {errors[0].ename}: {errors[0].evalue}"
        )


def test_a_notebook_with_every_kernel_only_feature_runs_top_to_bottom(tmp_path: Path, fresh_venvs):
    """The kernel-only features, run as a chapter's notebook runs (a fresh venv from its install
    line, an empty folder, a reader's environment): a %%writefile cell saves a file the next
    cell runs, a ❌ cell raises and the run goes on, bundled jitkit imports, a chart shows, a
    check recorded as not holding on this runtime reports it and the next cell runs."""
    notebook = reader_copy(kernel_features_notebook())
    execute(notebook, tmp_path, fresh_venvs.kernel(install_line(notebook)))
    assert_ran_as_a_reader_needs(notebook, "KERNEL_FEATURES_PAGE")
    assert any(cell_tags(cell) == ["raises-exception"] for cell in notebook.cells)
    (chart,) = [cell for cell in notebook.cells if "plt." in cell.source]
    shown = [out for out in chart.outputs if out.output_type == "display_data"]
    assert shown and "image/png" in shown[0].data, chart.outputs
    wrapped, after = [c for c in notebook.cells if c.cell_type == "code"][-2:]
    printed = ["".join(out.get("text", "") for out in c.outputs) for c in (wrapped, after)]
    assert wrapped.source.startswith(f"with {accelerator.WRAPPER}("), wrapped.source
    assert printed[0].startswith("⚠ This check is recorded as not holding here (cpu"), printed
    assert printed[1] == "the cell after a recorded difference ran\n"


VERSIONS_CELL = """import importlib, importlib.metadata, json
for module in {modules!r}:
    importlib.import_module(module)
print(json.dumps({{name: importlib.metadata.version(name) for name in {names!r}}}))"""


# Its inputs: the install lines (the notebook writer, the pages' imports) and uv.lock; the sampled
# kernels above make the venvs they need themselves.
@tiers.only_when_changed(
    "docs/", "snippets/", "engine/site/notebooks.py", "tests/test_notebooks.py"
)
def test_every_install_line_gives_a_kernel_with_the_locked_versions(tmp_path: Path, fresh_venvs):
    """Each notebook's install line, in a fresh venv, gives a kernel that imports those packages
    at the versions uv.lock pins. This runs with the tests that measure no time, so it also makes
    each venv, and the bytecode its first imports write, before the notebooks that run alone."""
    lines = {tuple(install_line(build_notebook(site_page(page)))) for page in PAGES}
    assert lines, "no notebook has an install line"
    for packages in sorted(lines):
        pins = dict(package.split("==") for package in packages)
        modules = [*pins, *(["matplotlib.pyplot"] if "matplotlib" in pins else [])]
        cell = nbformat.v4.new_code_cell(VERSIONS_CELL.format(modules=modules, names=list(pins)))
        notebook = nbformat.v4.new_notebook(cells=[cell])
        execute(notebook, tmp_path, fresh_venvs.kernel(list(packages)))
        printed = "".join(out.get("text", "") for out in notebook.cells[0].outputs)
        assert json.loads(printed) == pins, (packages, printed)


# ---------------------------------------------------------------- the conversion itself

SAMPLE = """---
description: A sample page.
---

# Sample page

Intro with a [link](other-page.md#some-part) and an [anchor](#below).

## A section { #below }
<!-- badge: extra -->

```python
value = 2 + 3
print(value)
assert value == 5
```

<!-- bad: raises ZeroDivisionError -->
```python
1 / 0
```

<!-- good -->
<!-- fact: Five is five. -->
```python
assert value == 5
```

!!! tip "Takeaway"
    Short and **bold**.

??? hint "A hint"
    Think first.

??? success "Reference solution"

    <!-- snippet: helper -->

    ```python
    print(helper())
    ```

<!-- collapse-code -->
```python
from jitkit import count_compiles
```

```python
>>> print(value * 2)
10
```
"""


@pytest.fixture
def sample(tmp_path: Path):
    (tmp_path / "docs" / "course").mkdir(parents=True)
    (tmp_path / "docs" / "course" / "sample.md").write_text(SAMPLE, encoding="utf-8")
    (tmp_path / "snippets" / "sample").mkdir(parents=True)
    (tmp_path / "snippets" / "sample" / "helper.py").write_text(
        "def helper():\n    return 'ok'\n", encoding="utf-8"
    )
    (tmp_path / "snippets" / "jitkit.py").write_text("count_compiles = None\n", encoding="utf-8")
    return tmp_path


@pytest.mark.unit
def test_page_to_notebook_converts_prose_blocks_and_contracts(sample: Path):
    page = read_page("docs/course/sample.md", sample)
    outcomes = [Outcome() for _ in page.blocks]
    outcomes[0].output = "5\n"
    outcomes[1].error_type, outcomes[1].error_message = "ZeroDivisionError", "division by zero"
    notebook = page_to_notebook(
        page,
        outcomes=outcomes,
        environment={"jax": "9.9", "jaxlib": "9.9", "python": "3.12", "device": "cpu"},
        site_url="https://example.org/docs/",
        files=project_files([block.source for block in page.blocks], sample),
    )
    nbformat.validate(nbformat.from_dict(notebook))
    cells = notebook["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    prose = "\n\n".join(c["source"] for c in cells if c["cell_type"] == "markdown")

    assert cells[0]["source"].startswith("# Sample page\n\n*A sample page.*")
    assert "JAX 9.9" in cells[0]["source"]
    assert "# Sample page" not in prose.split("\n", 1)[1]  # the H1 is not repeated
    setup = code[0]["source"]
    assert code[0]["metadata"]["tags"] == ["setup"] and "'snippets/jitkit.py'" in setup
    assert "import jax.numpy as jnp\nimport numpy as np\nfrom jax import lax\n" in setup

    # links point at the site; attribute lists and markers are gone
    assert "(https://example.org/docs/course/other-page/#some-part)" in prose
    assert "(https://example.org/docs/course/sample/#below)" in prose
    assert "{ #below }" not in prose and "<!--" not in prose
    assert "*Optional extra.*" in prose

    first, bad, good = code[1], code[2], code[3]
    assert first["outputs"] == [{"output_type": "stream", "name": "stdout", "text": "5\n"}]
    assert bad["metadata"]["tags"] == ["raises-exception"]
    assert bad["metadata"]["jitdocs"] == {"bad": "raises ZeroDivisionError"}
    assert bad["outputs"][0]["ename"] == "ZeroDivisionError"
    assert "tags" not in good["metadata"]
    assert "❌ **Don't:**" in prose and "✅ **Do instead:**" in prose
    assert "Five is five." in prose

    # admonitions: a quote, a <details>; the reference solution moves to the appendix
    assert "> **Takeaway**\n>\n> Short and **bold**." in prose
    assert "<details><summary>A hint</summary>\n\nThink first.\n\n</details>" in prose
    assert "Reference solution: in the appendix" in prose
    helper_cell = next(c for c in code if c["source"].startswith("# snippets/sample/helper.py"))
    assert cells.index(helper_cell) > cells.index(
        next(c for c in cells if c["source"].startswith("## Appendix"))
    )
    solutions = [c["source"] for c in code if "solution" in c["metadata"].get("tags", [])]
    assert solutions == [helper_cell["source"], "print(helper())"]  # the notebook view folds them
    assert any(c["source"] == "print(value * 2)" for c in code)  # the doctest, without prompts
    assert next(c for c in code if "count_compiles" in c["source"] and c is not code[0])[
        "metadata"
    ]["jupyter"] == {"source_hidden": True}
    assert [c["id"] for c in cells] == [f"cell-{n}" for n in range(1, len(cells) + 1)]


@pytest.mark.unit
def test_workbook_bundles_the_checker_and_the_checks_it_names():
    workbook = site_page("docs/practice/exercises.md")
    files = project_files([block.source for block in workbook.blocks])
    assert {"snippets/check_solution.py", "snippets/jitkit.py"} <= set(files)
    for exercise in ("tax_brackets", "newton_sqrt", "recompile_detective", "training_loop"):
        assert f"snippets/_checks/{exercise}.py" in files


@pytest.mark.unit
def test_notebook_text_is_stable_json():
    notebook = build_notebook(site_page("docs/course/why-compile.md"))
    text = dumps(notebook)
    assert json.loads(text) == notebook
    assert dumps(build_notebook(read_page("docs/course/why-compile.md"))) == text  # read again


@pytest.mark.unit
def test_a_notebook_is_checked_against_the_schema_once_with_every_cell_and_output(
    sample: Path, monkeypatch
):
    """Cells and outputs are made without nbformat's check of each one (most of a warm
    rebuild's notebook time); the one check of the finished notebook still sees all of them."""
    checked = []
    check = nbformat.validate
    monkeypatch.setattr(
        nbformat, "validate", lambda node, **kw: checked.append(node) or check(node, **kw)
    )
    page = read_page("docs/course/sample.md", sample)
    outcomes = [Outcome() for _ in page.blocks]
    outcomes[0].output = "5\n"
    outcomes[1].error_type, outcomes[1].error_message = "ZeroDivisionError", "division by zero"
    notebook = page_to_notebook(page, outcomes=outcomes, files={})
    assert checked == [notebook]
    outputs = [output for cell in notebook.cells for output in cell.get("outputs", [])]
    assert {output.output_type for output in outputs} == {"stream", "error"}

    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    code[-1].outputs.append(nbformat.from_dict({"output_type": "stream"}))  # no name, no text
    with pytest.raises(nbformat.ValidationError):
        check(notebook)


def test_a_notebook_that_starts_python_sends_it_to_the_cpu_and_keeps_its_own_device():
    """On a TPU the notebook's kernel holds the chip and a second process cannot start JAX on it
    (recorded: every such cell failed there), so the setup cell sets JAX_PLATFORMS for the
    programs it starts, after `import jax`, which has read it for the kernel already."""
    starts = made_up_page(
        "# Demo\n\n" + fence("import subprocess\nsubprocess.run([sys.executable])")
    )
    plain = made_up_page("# Demo\n\n" + fence("print(1)"))
    setup = page_to_notebook(starts)["cells"][1]["source"]
    assert CHILDREN_ON_CPU[-1] not in page_to_notebook(plain)["cells"][1]["source"]
    assert setup.index("import jax\n") < setup.index(CHILDREN_ON_CPU[-1])
    probe = "import jax\nprint(repr(jax.config.jax_platforms))"
    done = subprocess.run(
        [sys.executable, "-c", setup + "\n" + probe],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "JAX_PLATFORMS"},
        check=True,
    )
    assert done.stdout.splitlines()[-1] in ("None", "''")  # the kernel still picks its device
