"""The site's notebooks written on their own, without running the pages (so without outputs):
``python -m engine.site.write_notebooks FOLDER --data FILE``. The accelerator recorder runs it
after recording the pages (engine/tools/accelerator_record.sh), so that each notebook it then runs
wraps the claims that the new records say do not hold there (``differences.py``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.page.model import ROOT
from engine.page.parser import read_pages
from engine.page.policy import wants_notebook
from engine.run import accelerator, compatibility
from engine.run.environment import locked_versions
from engine.run.files import write_if_changed
from engine.site import differences
from engine.site.notebooks import build_notebook, dumps, notebook_uri


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="where the .ipynb files go, as under site/")
    parser.add_argument("--data", type=Path, default=ROOT / accelerator.DATA)
    args = parser.parse_args(argv)
    device = accelerator.load(args.data)
    releases = compatibility.load(ROOT / compatibility.DATA)
    pinned = locked_versions()["jax"]
    for page in (p for p in read_pages([]) if wants_notebook(p.path)):
        records = differences.recorded(page, device, releases, pinned)
        path = args.folder / notebook_uri(page.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_if_changed(path, dumps(build_notebook(page, records=records)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
