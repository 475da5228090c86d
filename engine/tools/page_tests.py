"""Print the tests of the given pages, one pytest node a line (what `nox -s page` runs):

    python -m engine.tools.page_tests docs/course/why-compile.md

a page's examples (when it has code) and its notebook (when the page offers one).
"""

from __future__ import annotations

import sys

from engine.page.parser import read_pages
from engine.page.policy import wants_notebook


def page_tests(paths: list[str]) -> list[str]:
    tests = []
    for page in read_pages(paths):
        if page.blocks:
            tests.append(page.path)
        if wants_notebook(page.path):
            tests.append(f"tests/test_notebooks.py::test_notebook_runs_top_to_bottom[{page.path}]")
    return tests


if __name__ == "__main__":
    print("\n".join(page_tests(sys.argv[1:])))
