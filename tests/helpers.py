"""What several test files use, defined once (tests/test_helpers_once.py keeps it so).

- The site's pages: ``site_page(path)`` reads one once a run (read only); ``mkdocs_config``
  and ``site_markdown``: mkdocs.yml, and the Markdown it configures (``rendered_h1s``).
- Made-up pages: ``page(text)`` parses one, ``fence`` writes a block, ``recording`` a block
  that records when its page ran.
- Throwaway projects built with the real hook: ``CONFIG_FOR``/``CONFIG`` (their mkdocs.yml),
  ``mkdocs_build`` (the command, in a folder), ``build_one_page`` (a project of one page).
- The checkers (``snippets/check_solution.py``): ``run_cli`` runs it as ``nox -s check`` does,
  and ``results_by_description`` (``engine.tools.solutions`` finds the solutions, and the check
  a wrong solution names).
- ``root_conftest``: the project's conftest.py as a module.

Standard library and engine only at import: tests/conftest.py's unit tests import this module
too, and must not start JAX.
"""

from __future__ import annotations

import fcntl
import functools
import importlib.util
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import markdown
import yaml

from check_solution import run_checks  # the learner runtime (pytest's pythonpath has snippets/)
from engine.page.model import ROOT
from engine.page.parser import page_paths, parse_page, read_page


@contextmanager
def exclusive(lock_file: Path) -> Iterator[None]:
    """Hold a lock on ``lock_file`` against every other process that asks for it (xdist's
    workers, sharing what one of them makes)."""
    with lock_file.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


# ---------------------------------------------------------------- the site's pages


@functools.cache
def site_page(path: str):
    """The page at ``path`` (from the project root), read once a test run: a dozen unit test
    files read every page, and reading each again was a fifth of `nox -s unit`. Shared, so
    read only: a test that edits a page parses its own (``page``)."""
    return read_page(path)


def site_pages() -> list:
    """Every page of the site, as ``read_pages([])`` reads them, each read once a run."""
    return [site_page(path) for path in page_paths()]


class _AnyTagLoader(yaml.SafeLoader):
    """mkdocs.yml's tags (`!ENV`) read as None: what is read here names no variable."""


_AnyTagLoader.add_multi_constructor("", lambda loader, suffix, node: None)


@functools.cache
def mkdocs_config() -> dict:
    """The project's mkdocs.yml as YAML, without MkDocs (read only)."""
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_AnyTagLoader)


def site_markdown() -> markdown.Markdown:
    """Python-Markdown with the site's extensions as mkdocs.yml lists them, but the engine's
    (which renders a page from its run): how the site reads a page's Markdown."""
    names, configs = [], {}
    for item in mkdocs_config()["markdown_extensions"]:
        name, options = next(iter(item.items())) if isinstance(item, dict) else (item, {})
        if not name.startswith("engine."):
            names.append(name)
            configs[name] = options or {}
    return markdown.Markdown(extensions=names, extension_configs=configs)


def rendered_h1s(text: str) -> int:
    """How many <h1> the site's Markdown makes of ``text``."""
    return len(re.findall(r"<h1[ >]", site_markdown().convert(text)))


# ---------------------------------------------------------------- made-up pages

DEMO_PAGE = "docs/demo/test-page.md"


def page(text: str, path: str = DEMO_PAGE, root=None):
    """A made-up page (``text`` dedented), parsed as if it were at ``path``."""
    kwargs = {"root": root} if root else {}
    return parse_page(path, textwrap.dedent(text), **kwargs)


def fence(code: str, *markers: str) -> str:
    """A Python block, each marker an HTML comment on a line of its own above it."""
    lines = [f"<!-- {m} -->" for m in markers]
    return "\n".join([*lines, "```python", textwrap.dedent(code).strip(), "```", ""])


PAIR_GOOD = fence("print('fixed')", "good")


RENDEZVOUS = """\
import json, os, pathlib, time
log, started = pathlib.Path({log_dir!r}), time.time()
(log / "{name}.started").write_text("")
deadline = time.monotonic() + 60
while not all((log / f"{{other}}.started").exists() for other in {wait_for!r}):
    assert time.monotonic() < deadline, "the other pages never ran beside this one"
    time.sleep(0.01)
"""


RECORD = """
record = {{"pid": os.getpid(), "start": started, "end": time.time()}}
(log / "{name}.json").write_text(json.dumps(record))
"""


def recording(log_dir, name: str, wait_for: tuple[str, ...] = (), then: str = "") -> str:
    """A block that records its process, its start and its end in ``log_dir/name.json``, after
    waiting until the pages named in ``wait_for`` have started: a rendezvous that completes only
    when they run at the same time (60 s without them fails the block)."""
    fields = {"log_dir": str(log_dir), "name": name, "wait_for": list(wait_for)}
    code = RENDEZVOUS.format(**fields) + textwrap.dedent(then) + RECORD.format(**fields)
    return fence(code)


# ---------------------------------------------------------------- throwaway projects

# A throwaway project's mkdocs.yml, with the hook of the engine at {hook}.
CONFIG_FOR = """
site_name: demo
strict: true
theme:
  name: material
  font: false
hooks:
  - {hook}
markdown_extensions:
  - admonition
  - attr_list
  - md_in_html
  - pymdownx.details
  - pymdownx.superfences
  - engine.site.extension
"""
CONFIG = CONFIG_FOR.format(hook=ROOT / "engine" / "site" / "hook.py")


def mkdocs_build(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` in ``folder``, as a reader's shell runs it; its output captured."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # it makes every `import jax` ~3x slower
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def build_one_page(folder: Path, text: str) -> tuple[subprocess.CompletedProcess, Path]:
    """A project in ``folder`` whose one page, docs/index.md, is ``text`` (dedented), built:
    the command's result, and where its HTML is."""
    (folder / "docs").mkdir()
    (folder / "mkdocs.yml").write_text(CONFIG)
    (folder / "docs" / "index.md").write_text(textwrap.dedent(text))
    return mkdocs_build(folder), folder / "site" / "index.html"


# ---------------------------------------------------------------- the checkers


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """`python snippets/check_solution.py ARGS` as `nox -s check` runs it: from the project root,
    with nothing added to PYTHONPATH."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")
    }
    return subprocess.run(
        [sys.executable, "snippets/check_solution.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def results_by_description(check_id: str, module, until: str | None = None) -> dict:
    """Each check's result for a solution module, by the check's description; with ``until``,
    only the checks up to that one (``run_checks``' ``until``), whose results are the full run's."""
    results = run_checks(check_id, module, until=until)
    return {result.description: result for result in results}


# ---------------------------------------------------------------- the project's conftest.py


def root_conftest():
    """The project's conftest.py, imported as a module of its own."""
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
