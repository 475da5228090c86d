"""The `file: NAME.py` marker: a block shown as a file the reader saves, which later blocks run.

Parsed (a bad name or a contradictory marker names the page and line), run (saved into the
page's temporary folder, running nothing itself), rendered (titled with its name) and turned
into a notebook cell (`%%writefile` into the same folder).
"""

from __future__ import annotations

import tempfile

import pytest

from engine.page.model import MarkupError
from engine.run.execute import execute_block
from engine.run.results import Outcome
from engine.site.notebooks import page_to_notebook
from engine.site.render import render_code
from tests.helpers import fence, page

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs

APP = "import sys\nprint('app ran with', sys.argv[1:])\n"
RUN_APP = (
    "import subprocess, sys, tempfile\n"
    "script = tempfile.gettempdir() + '/app.py'\n"
    "subprocess.run([sys.executable, script, 'x'], check=True)\n"
)
DEMO = "# Demo\n\n" + fence(APP, "file: app.py") + "\n" + fence(RUN_APP)


@pytest.mark.parametrize("name", ["dir/app.py", "app.txt", ".py", "app py.py"])
def test_a_file_name_that_is_not_a_plain_python_file_is_refused_at_its_line(name):
    with pytest.raises(MarkupError, match=r"test-page.md:3: .*needs a Python file's name"):
        page("# Demo\n\n" + fence(APP, f"file: {name}"))


@pytest.mark.parametrize("other", ["fact: it runs", "collapse-code", "bad: raises ValueError"])
def test_a_file_block_refuses_markers_that_would_run_or_hide_it(other):
    with pytest.raises(MarkupError, match=r"test-page.md:\d+: a 'file' block only saves a file"):
        page("# Demo\n\n" + fence("assert True\n", "file: app.py", other))


def test_running_a_file_block_saves_it_and_runs_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    saved = page(DEMO).blocks[0]
    outcome = execute_block(saved, {})  # a file block needs no imports
    assert (tmp_path / "app.py").read_text() == saved.source
    assert outcome.output == ""  # the print in APP did not run here


def test_a_file_block_is_shown_titled_with_its_name():
    saved, runner = page(DEMO).blocks
    assert 'title="app.py"' in render_code(saved)
    assert "title=" not in render_code(runner)


def test_in_the_notebook_a_file_block_writes_the_file_where_the_next_cell_looks():
    demo = page(DEMO)
    notebook = page_to_notebook(demo, outcomes=[Outcome() for _ in demo.blocks])
    sources = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]
    setup = next(source for source in sources if source.startswith("# Setup"))
    assert "import tempfile" in setup
    assert "%%writefile {tempfile.gettempdir()}/app.py\n" + APP.rstrip() in sources
    assert RUN_APP.rstrip() in sources
