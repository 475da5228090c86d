"""The downloadable notebooks: well formed, faithful to their page, and runnable top to bottom.

Each notebook the build serves (``engine.site.notebooks.build_notebook``, the function the hook
calls) is validated against the nbformat v4 schema and executed with nbclient in an empty
temporary folder, without the project on ``PYTHONPATH``, in a kernel from a **fresh venv**
that holds only what the notebook's own first cell installs (plus ipykernel, the reader's
kernel): exactly what a learner who downloads the one file has. Notebooks with the same install
line share one venv (``fresh_venvs``). No cell may raise except the ❌ cells, which must raise
the very error their page declares.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest
import timing_marks
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from engine.page.model import ROOT
from engine.page.parser import read_page
from engine.page.policy import wants_notebook
from engine.run.environment import locked_versions
from engine.run.imports import project_files
from engine.run.results import Outcome
from engine.site.notebooks import (
    build_notebook,
    dumps,
    notebook_uri,
    page_to_notebook,
)

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
    notebook = nbformat.reads(dumps(build_notebook(read_page(page_path))), as_version=4)
    nbformat.validate(notebook)
    return execute(notebook, folder, kernel)


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
    """The packages the notebook's first cell installs (its ``%pip install`` line)."""
    first = notebook["cells"][0]
    assert first["cell_type"] == "code" and "install" in first["metadata"]["tags"]
    lines = [line.strip() for line in first["source"].splitlines()]
    (pip,) = [line for line in lines if line.startswith("%pip install ")]
    return pip.removeprefix("%pip install ").split()


@pytest.mark.parametrize("page_path", timing_marks.pages(PAGES))
def test_notebook_runs_top_to_bottom(page_path: str, tmp_path: Path, fresh_venvs):
    """In a fresh venv made from the notebook's first cell alone: nothing else is installed."""
    kernel = fresh_venvs.kernel(install_line(build_notebook(read_page(page_path))))
    try:
        notebook = run_notebook(page_path, tmp_path, kernel)
    except CellExecutionError as error:
        # A page's timing assert can lose once to a busy machine; a real break fails twice.
        if "AssertionError" not in str(error):
            raise
        notebook = run_notebook(page_path, tmp_path, kernel)
    self_checks = [c for c in notebook.cells if c.source.startswith("self_check(")]
    assert len(self_checks) >= (4 if page_path.endswith("exercises.md") else 0)
    echoes = [c.source for c in self_checks for o in c.outputs if o.output_type == "execute_result"]
    assert not echoes, f"self-check cells echo a value: {echoes}"
    # everything the notebook needs was there, so its first cell installed nothing
    printed = "".join(out.get("text", "") for out in notebook.cells[0].outputs)
    assert printed == f"Ready: jax {locked_versions()['jax']}\n", printed

    for cell in notebook.cells:
        if cell.cell_type != "code" or "raises-exception" not in cell.metadata.get("tags", []):
            continue
        expected = cell.metadata["jitdocs"]["bad"].removeprefix("raises ")
        errors = [out for out in cell.outputs if out.output_type == "error"]
        assert errors, f"{page_path}: the ❌ cell did not raise {expected}:\n{cell.source}"
        assert errors[0].ename == expected.rsplit(".", 1)[-1], (
            f"{page_path}: expected {expected}, got {errors[0].ename}: {errors[0].evalue}"
        )


VERSIONS_CELL = """import importlib, importlib.metadata, json
for module in {modules!r}:
    importlib.import_module(module)
print(json.dumps({{name: importlib.metadata.version(name) for name in {names!r}}}))"""


def test_every_install_line_gives_a_kernel_with_the_locked_versions(tmp_path: Path, fresh_venvs):
    """Each notebook's install line, in a fresh venv, gives a kernel that imports those packages
    at the versions uv.lock pins. This runs with the tests that measure no time, so it also makes
    each venv, and the bytecode its first imports write, before the notebooks that run alone."""
    lines = {tuple(install_line(build_notebook(read_page(page)))) for page in PAGES}
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
    workbook = read_page("docs/practice/exercises.md")
    files = project_files([block.source for block in workbook.blocks])
    assert {"snippets/check_solution.py", "snippets/jitkit.py"} <= set(files)
    for exercise in ("tax_brackets", "newton_sqrt", "recompile_detective", "training_loop"):
        assert f"snippets/_checks/{exercise}.py" in files


@pytest.mark.unit
def test_notebook_text_is_stable_json():
    notebook = build_notebook(read_page("docs/course/why-compile.md"))
    text = dumps(notebook)
    assert json.loads(text) == notebook
    assert dumps(build_notebook(read_page("docs/course/why-compile.md"))) == text


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
