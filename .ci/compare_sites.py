"""Build the site at two git revisions and show how the built files differ, measured numbers masked.

    python .ci/compare_sites.py [BASE] [HEAD] [--venv .nox/docs] [--cache-from DIR ...]

BASE defaults to `main`, HEAD to `HEAD`. Each revision is checked out with `git worktree add`
into a temporary folder and built there with `mkdocs build --strict`, using the project's docs
venv (`nox -s docs` creates it). A refactoring of the engine should leave the site unchanged, so
the script exits 1 when any file differs after masking and prints the differing lines.

Masked before comparing, because they change from one build to the next of the same revision:
durations and ratios measured at build time, dates and times, memory addresses in reprs, and the
content hashes in asset names and notebook-view cache keys. `sitemap.xml.gz` holds the same XML
as `sitemap.xml` (compared there); binary files are compared byte for byte.

Each build starts from a copy of the cache folders given with `--cache-from` (default: this
checkout's `.cache/jitdocs`), so pages whose cache key did not change are not run again; a key
that changed (e.g. an engine file moved) runs the page, which is what a real build would do.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (pattern, replacement): each hides a value that differs between two builds of one revision.
MASKS = [
    # durations and ratios: "0.42 ms", "1.3 s", "12.5x", "3.1×", "in 0.8 seconds"
    (r"\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*(?:ns|µs|us|ms|s|sec|seconds|minutes|min)\b", "<TIME>"),
    (r"\b\d+(?:\.\d+)?\s*(?:x|×)(?=\W)", "<RATIO>"),
    # dates and times
    (
        r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?",
        "<DATE>",
    ),
    (r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} \w{3} \d{4}\b", "<DATE>"),
    # memory addresses in reprs
    (r"\b0x[0-9a-fA-F]{6,16}\b", "<ADDR>"),
    # content hashes: asset names (main.6f8a....min.js), cache keys, build ids
    (r"\b(?=[0-9a-f]*[a-f])[0-9a-f]{8,64}\b", "<HASH>"),
]
COMPILED = [(re.compile(pattern), replacement) for pattern, replacement in MASKS]
TEXT_SUFFIXES = {".html", ".js", ".css", ".json", ".xml", ".ipynb", ".txt", ".svg", ".py", ".md"}
SKIPPED = {"sitemap.xml.gz"}


def mask(text: str) -> str:
    for pattern, replacement in COMPILED:
        text = pattern.sub(replacement, text)
    return text


def build(revision: str, folder: Path, venv: Path, caches: list[Path]) -> Path:
    """Check out ``revision`` into ``folder``, build it there, return its site folder."""
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(folder), revision],
        cwd=ROOT,
        check=True,
    )
    for cache in caches:
        if cache.is_dir():
            shutil.copytree(cache, folder / ".cache" / cache.name, dirs_exist_ok=True)
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("JITDOCS_FRESH", None)
    env.pop("REPO_URL", None)  # the same (absent) repository link in both builds
    print(f"building {revision} in {folder} ...", file=sys.stderr, flush=True)
    done = subprocess.run(
        [str(venv / "bin" / "mkdocs"), "build", "--strict", "--quiet"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        sys.exit(f"build of {revision} failed:\n{done.stdout}{done.stderr}")
    return folder / "site"


def site_files(site: Path) -> dict[str, Path]:
    return {
        path.relative_to(site).as_posix(): path
        for path in sorted(site.rglob("*"))
        if path.is_file() and path.name not in SKIPPED
    }


def compare(base: Path, head: Path, context: int = 1) -> list[str]:
    """Lines describing every difference between the two site folders (empty: the same)."""
    report: list[str] = []
    old, new = site_files(base), site_files(head)
    report += [f"only in base: {name}" for name in sorted(old.keys() - new.keys())]
    report += [f"only in head: {name}" for name in sorted(new.keys() - old.keys())]
    for name in sorted(old.keys() & new.keys()):
        a, b = old[name].read_bytes(), new[name].read_bytes()
        if a == b:
            continue
        if old[name].suffix not in TEXT_SUFFIXES:
            report.append(f"binary file differs: {name}")
            continue
        a_lines = mask(a.decode("utf-8", "replace")).splitlines()
        b_lines = mask(b.decode("utf-8", "replace")).splitlines()
        if a_lines == b_lines:
            continue
        diff = difflib.unified_diff(a_lines, b_lines, f"base/{name}", f"head/{name}", n=context)
        report += [line[:400] for line in diff]
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", nargs="?", default="main")
    parser.add_argument("head", nargs="?", default="HEAD")
    parser.add_argument("--venv", type=Path, default=ROOT / ".nox" / "docs")
    parser.add_argument("--cache-from", type=Path, action="append", default=None)
    parser.add_argument("--keep", action="store_true", help="keep the two checkouts")
    args = parser.parse_args(argv)
    if not (args.venv / "bin" / "mkdocs").is_file():
        sys.exit(f"no mkdocs in {args.venv}: run `nox -s docs` once, or pass --venv")
    caches = args.cache_from or [ROOT / ".cache" / "jitdocs"]
    work = Path(tempfile.mkdtemp(prefix="compare-sites-"))
    folders = [work / "base", work / "head"]
    try:
        sites = [
            build(rev, folder, args.venv, caches)
            for rev, folder in zip((args.base, args.head), folders, strict=True)
        ]
        report = compare(*sites)
    finally:
        if not args.keep:
            for folder in folders:
                if folder.exists():
                    subprocess.run(
                        ["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False
                    )
            shutil.rmtree(work, ignore_errors=True)
    print("\n".join(report))
    files = sum(1 for line in report if line.startswith(("only in", "binary", "--- ")))
    print(f"{args.base} vs {args.head}: {files} differing file(s) after masking", file=sys.stderr)
    return 1 if report else 0


if __name__ == "__main__":
    sys.exit(main())
