"""Build the site at two git revisions and show how the built files differ, measured numbers masked.

    python .ci/compare_sites.py [BASE] [HEAD] [--venv .nox/docs] [--cache-from DIR ...]

BASE defaults to `main`, HEAD to `HEAD`. Each revision is checked out with `git worktree add`
into a temporary folder and built there with `mkdocs build --strict`, using the project's docs
venv (`nox -s docs` creates it). A refactoring of the engine should leave the site unchanged, so
the script exits 1 when any file differs after masking and prints the differing lines.

Masked before comparing, because they change from one build to the next of the same revision:
durations and ratios measured at build time, dates and times, memory addresses in reprs, and the
content hashes in asset and chart names, object ids, and numbers that are measurements
(decimals, numbers with a unit of time or size, every number on a line that shows a
measurement, every number in a chart). `sitemap.xml.gz` holds the same XML
as `sitemap.xml` (compared there); binary files are compared byte for byte.

Each build starts from a copy of the cache folders given with `--cache-from` (default: this
checkout's `.cache/jitdocs`), so pages whose cache key did not change are not run again; a key
that changed (e.g. an engine file moved) runs the page, which is what a real build would do.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
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
    # object ids in reprs and JAX's cache-miss explanations: "id=140242944519808"
    (r"\b\d{12,}\b", "<ID>"),
    # content hashes: asset names (main.6f8a....min.js), figure names, cache keys, build ids
    (r"\b(?=[0-9a-f]*[a-f])[0-9a-f]{8,64}\b", "<HASH>"),
    # memory addresses in reprs
    (r"\b0x[0-9a-fA-F]{6,16}\b", "<ADDR>"),
    # dates and times
    (
        r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?",
        "<DATE>",
    ),
    (r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} \w{3} \d{4}\b", "<DATE>"),
    # durations, sizes and ratios: "0.42 ms", "1.3 s", "2000 bytes", "12.5x" (or with a
    # multiplication sign), "ratio 0.7"
    (
        r"\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\s*(?:ns|µs|us|ms|s|sec|seconds|minutes|min|bytes)\b",
        "<TIME>",
    ),
    (r"\b\d+(?:\.\d+)?\s*(?:x|\N{MULTIPLICATION SIGN})(?=\W)", "<RATIO>"),
    # any other decimal: measured numbers printed without a unit ("ms per call: 271.73, 0.04")
    (r"(?<![\w.])\d+\.\d+(?:e[-+]?\d+)?(?![\w.])", "<NUM>"),
]
# On a line that shows a measurement, every integer is measured too ("between 22 and <TIME>").
MEASURED_LINE = re.compile(r"<TIME>|<RATIO>|build machine|measured")
INTEGER = re.compile(r"(?<![\w.<])\d+(?![\w.>])")
SVG_OUTPUT = '"image/svg+xml":'
COMPILED = [(re.compile(pattern), replacement) for pattern, replacement in MASKS]
TEXT_SUFFIXES = {".html", ".js", ".css", ".json", ".xml", ".ipynb", ".txt", ".svg", ".py", ".md"}
SKIPPED = {"sitemap.xml.gz"}


def mask(text: str) -> str:
    for pattern, replacement in COMPILED:
        text = pattern.sub(replacement, text)
    return "\n".join(_mask_line(line) for line in text.split("\n"))


def _mask_line(line: str) -> str:
    if SVG_OUTPUT in line:  # a chart inside a notebook
        return f"{SVG_OUTPUT} <chart {chart_words(line)}>"
    if MEASURED_LINE.search(line):  # columns of measurements: widths vary with the numbers
        return re.sub(r"\s{2,}", " ", INTEGER.sub("<N>", line))
    return line


def chart_words(svg: str) -> list[str]:
    """What a chart says (its text, numbers masked), without its geometry: a chart of measured
    times moves every coordinate and may gain or lose a tick."""
    texts = re.findall(r"<!-- (.*?) -->|<text[^>]*>([^<]*)</text>", svg)
    words = {re.sub(r"[\d.,\N{MINUS SIGN}-]+", "<N>", a or b).strip() for a, b in texts}
    return sorted(word for word in words if word)


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
    env = os.environ | {"NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(folder)}  # the extension
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


def charts(files: dict[str, Path]) -> dict[str, list[str]]:
    """Charts (``figures/<page>/<hash>-<theme>.svg``) by masked name: their masked contents."""
    found: dict[str, list[str]] = {}
    for name, path in files.items():
        if name.startswith("figures/"):
            words = chart_words(path.read_text("utf-8"))
            found.setdefault(mask(name), []).append("\n".join(words))
    return {name: sorted(contents) for name, contents in found.items()}


def readable(suffix: str, data: bytes) -> str:
    """The file's text; JSON one entry a line (the search index is a single line)."""
    text = data.decode("utf-8", "replace")
    if suffix == ".json":
        with contextlib.suppress(ValueError):
            return json.dumps(json.loads(text), indent=1, ensure_ascii=False)
    return text


def compare(base: Path, head: Path, context: int = 1) -> list[str]:
    """Lines describing every difference between the two site folders (empty: the same)."""
    report: list[str] = []
    old, new = site_files(base), site_files(head)
    old_charts, new_charts = charts(old), charts(new)
    for name in sorted(old_charts.keys() | new_charts.keys()):
        if old_charts.get(name) != new_charts.get(name):
            report.append(f"charts differ (numbers masked): {name}")
    old = {name: path for name, path in old.items() if not name.startswith("figures/")}
    new = {name: path for name, path in new.items() if not name.startswith("figures/")}
    report += [f"only in base: {name}" for name in sorted(old.keys() - new.keys())]
    report += [f"only in head: {name}" for name in sorted(new.keys() - old.keys())]
    for name in sorted(old.keys() & new.keys()):
        a, b = old[name].read_bytes(), new[name].read_bytes()
        if a == b:
            continue
        if old[name].suffix not in TEXT_SUFFIXES:
            report.append(f"binary file differs: {name}")
            continue
        a_lines = mask(readable(old[name].suffix, a)).splitlines()
        b_lines = mask(readable(new[name].suffix, b)).splitlines()
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
    parser.add_argument("--base-cache", type=Path, help="seed the base build from this cache only")
    parser.add_argument("--head-cache", type=Path, help="seed the head build from this cache only")
    parser.add_argument("--keep", action="store_true", help="keep the two checkouts")
    args = parser.parse_args(argv)
    if not (args.venv / "bin" / "mkdocs").is_file():
        sys.exit(f"no mkdocs in {args.venv}: run `nox -s docs` once, or pass --venv")
    caches = args.cache_from or [ROOT / ".cache" / "jitdocs"]
    work = Path(tempfile.mkdtemp(prefix="compare-sites-"))
    folders = [work / "base", work / "head"]
    try:
        seeds = [
            [args.base_cache] if args.base_cache else caches,
            [args.head_cache] if args.head_cache else caches,
        ]
        sites = [
            build(rev, folder, args.venv, seed)
            for rev, folder, seed in zip((args.base, args.head), folders, seeds, strict=True)
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
    files = sum(1 for line in report if line.startswith(("only in", "binary", "charts", "--- ")))
    print(f"{args.base} vs {args.head}: {files} differing file(s) after masking", file=sys.stderr)
    return 1 if report else 0


if __name__ == "__main__":
    sys.exit(main())
