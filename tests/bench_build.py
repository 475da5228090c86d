"""Benchmark the build (`nox -s bench`), measured side by side in one run.

1. baseline: every page's code run once as a plain script, one fresh interpreter per page;
2. cold build: `mkdocs build` with the cache ignored;
3. warm rebuild: nothing changed;
4. prose edit: one page's prose changed (must execute nothing);
5. snippet edit: one snippet changed (must execute only its page).

Goals (issue "The executable-docs engine"): cold <= 1.25 x baseline, warm <= 0.15 x cold.
Exits non-zero when a goal or an execution count is missed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.page.parser import read_page  # noqa: E402
from engine.run.execute import PRELUDE  # noqa: E402
from engine.run.pages import child_environment  # noqa: E402

COLD_OVER_BASELINE = 1.25
WARM_OVER_COLD = 0.15


def pages() -> list:
    found = [
        read_page(p.relative_to(ROOT).as_posix()) for p in sorted((ROOT / "docs").rglob("*.md"))
    ]
    return [page for page in found if page.blocks]


CLOSE_FIGURES = (
    "if 'matplotlib.pyplot' in sys.modules:\n    sys.modules['matplotlib.pyplot'].close('all')"
)


def plain_script(page) -> str:
    """The page's code as one script: expected errors caught, nothing captured or rendered."""
    lines = ["import sys", PRELUDE]  # MPLBACKEND=Agg comes from child_environment()
    for block in page.blocks:
        if block.skip or block.is_doctest:
            continue
        body = f"exec(compile({block.source!r}, {block.filename!r}, 'exec'))"
        if block.bad and block.bad.mode == "raises":
            body = f"try:\n    {body}\nexcept Exception:\n    pass"
        lines += [body, CLOSE_FIGURES]
    return "\n".join(lines)


def baseline_seconds() -> float:
    env = child_environment()
    total = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for page in pages():
            script = Path(tmp) / "page.py"
            script.write_text(plain_script(page), encoding="utf-8")
            started = time.perf_counter()
            subprocess.run(
                [sys.executable, str(script)], cwd=ROOT, env=env, check=True, capture_output=True
            )
            total += time.perf_counter() - started
    return total


def build(fresh: bool = False) -> tuple[float, int]:
    """Seconds for `mkdocs build`, and how many pages it executed."""
    env = dict(os.environ, JITDOCS_FRESH="1" if fresh else "0", NO_MKDOCS_2_WARNING="1")
    with tempfile.TemporaryDirectory() as site:
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", site],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"build failed:\n{done.stderr[-3000:]}")
    progress = re.findall(r"jitdocs: \S+ +\d+ blocks  (\w+)", done.stdout + done.stderr)
    return seconds, progress.count("executed")


def edited(path: Path, change):
    """Context manager: apply ``change`` to the file's text, restore it afterwards."""

    class Edit:
        def __enter__(self):
            self.original = path.read_text(encoding="utf-8")
            path.write_text(change(self.original), encoding="utf-8")

        def __exit__(self, *exc):
            path.write_text(self.original, encoding="utf-8")

    return Edit()


def main() -> int:
    targets = pages()
    snippet_page = next(page for page in targets if any(b.snippet for b in page.blocks))
    snippet_block = next(b for b in snippet_page.blocks if b.snippet)
    snippet_path = ROOT / snippet_block.filename
    prose_page = ROOT / targets[0].path

    print(f"pages with code: {len(targets)}, blocks: {sum(len(p.blocks) for p in targets)}")
    baseline = baseline_seconds()
    cold, cold_runs = build(fresh=True)
    warm, warm_runs = build()
    with edited(
        prose_page, lambda text: re.sub(r"\n\n", "\n\nAn edited sentence.\n\n", text, count=1)
    ):
        prose, prose_runs = build()
    with edited(snippet_path, lambda text: text + "\n# an edit\n"):
        one, one_runs = build()
    build()  # leave the cache matching the restored files

    rows = [
        ("run all pages' code once (baseline)", baseline, None),
        ("cold build (--fresh)", cold, cold_runs),
        ("warm rebuild, nothing changed", warm, warm_runs),
        ("rebuild after a prose edit", prose, prose_runs),
        (f"rebuild after editing {snippet_block.filename}", one, one_runs),
    ]
    for label, seconds, runs in rows:
        executed = "" if runs is None else f"  pages executed: {runs}"
        print(f"{label:<60} {seconds:7.1f} s{executed}")
    checks = [
        (
            f"cold / baseline = {cold / baseline:.2f} (goal <= {COLD_OVER_BASELINE})",
            cold / baseline <= COLD_OVER_BASELINE,
        ),
        (
            f"warm / cold = {warm / cold:.3f} (goal <= {WARM_OVER_COLD})",
            warm / cold <= WARM_OVER_COLD,
        ),
        (f"one-page edit / cold = {one / cold:.3f}", True),
        (f"warm rebuild executed {warm_runs} pages (goal 0)", warm_runs == 0),
        (f"prose edit executed {prose_runs} pages (goal 0)", prose_runs == 0),
        (f"snippet edit executed {one_runs} pages (goal 1)", one_runs == 1),
    ]
    for text, ok in checks:
        print(("PASS  " if ok else "FAIL  ") + text)
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
