"""Run one page's code the way the build does and print each block's output.

python -m engine.tools.page_outputs docs/course/why-compile.md [--fresh]
"""

from __future__ import annotations

import sys

from engine.page.model import MarkupError
from engine.page.parser import read_pages
from engine.page.policy import wants_notebook
from engine.run.pages import execute_pages
from engine.run.results import PageFailure


def main(argv: list[str]) -> int:
    paths = [arg for arg in argv if not arg.startswith("--")]
    if "--tests" in argv:
        print("\n".join(page_tests(paths)))
        return 0
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        pages = read_pages(paths)
        results = execute_pages(pages, fresh="--fresh" in argv, report=print)
    except (MarkupError, PageFailure) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for page in pages:
        for block, outcome in zip(page.blocks, results[page.path].outcomes, strict=True):
            print(f"--- {block.where} ({block.filename}) {outcome.seconds:.2f} s")
            text = outcome.output + outcome.error
            print(text, end="" if text.endswith("\n") or not text else "\n")
            for figure in outcome.figures:
                print(f"[figure: {figure.alt}]")
    return 0


def page_tests(paths: list[str]) -> list[str]:
    """With ``--tests``: the pages' tests, one pytest node a line (what `nox -s page` runs), a
    page's examples (when it has code) and its notebook (when the page offers one)."""
    tests = []
    for page in read_pages(paths):
        if page.blocks:
            tests.append(page.path)
        if wants_notebook(page.path):
            tests.append(f"tests/test_notebooks.py::test_notebook_runs_top_to_bottom[{page.path}]")
    return tests


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
