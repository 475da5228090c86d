"""The suite's two tiers (CONTRIBUTING.md, "The two tiers"): `nox -s tests` runs the default tier,
`nox -s tests -- --full` (CI's `.ci/run`) every test.

Where a class of tests proves one property per page (or per checker, per notebook), the full tier
runs every member and the default tier a sample: a parameter outside the sample carries the mark
``sampled(*subjects)``, the files its verdict depends on, and the default tier runs it only when
one of them changed since the branch left main. Changed, for a docs page: its source, a file under
its snippets folder, a project module its code imports, or its built HTML (against the digests a
run on main's code stored here, when there are any). No git, no main: nothing changed, the sample
alone. A test that is not sampled runs in both tiers.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest

from engine.page.model import ROOT, page_slug

FULL_OPTION = "--full"
SHARD_OPTION = "--shard"
MARK = "sampled"
HTML_DIGESTS = ROOT / ".cache" / "tiers" / "main-html.json"
SITE_VARIABLE = "JITDOCS_SITE_DIR"  # the site `nox -s tests` built (tests/browser/conftest.py)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        FULL_OPTION,
        action="store_true",
        help="the full tier: every sampled parameter too (CI runs it; CONTRIBUTING.md)",
    )
    parser.addoption(
        SHARD_OPTION,
        default=None,
        metavar="K/N",
        help="run only the K-th of N shards (CI's parallel jobs); a page's tests stay together",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARK}(*subjects): outside the default tier's sample; it runs there only when one of "
        "its subjects (project paths) changed since main, and always under --full",
    )


LOCKED = ["pyproject.toml", "uv.lock"]  # the pinned tools and JAX: every verdict depends on them


def only_when_changed(*subjects: str) -> pytest.MarkDecorator:
    """The mark of a test whose verdict depends only on ``subjects`` (its own test file among
    them) and the lock file, none of them a page: a throwaway build or a subprocess that proves
    again, end to end, what a cheaper test proves in both tiers, or the engine's behaviour across
    builds. The default tier runs it when one of them changed; the full tier always.
    MAINTAINERS.md's tier table names what proves each one's point meanwhile."""
    return pytest.mark.sampled(*subjects, *LOCKED)


def sampled_param(value, subjects: list[str], keep: bool):
    """``value`` (or a ``pytest.param``) as a parameter, marked ``sampled`` unless ``keep``."""
    if keep:
        return value
    mark = pytest.mark.sampled(*subjects)
    if isinstance(value, type(pytest.param(None))):
        return pytest.param(*value.values, marks=[*value.marks, mark], id=value.id)
    return pytest.param(value, marks=mark)


def one_per(values: list, group, subjects) -> list:
    """Each value (or ``pytest.param``) as a parameter, sampled but for the first of each
    ``group(value)`` that measures no time (a timing test runs alone: the sample stays off the
    one-core pass); ``subjects(value)``: the files its verdict depends on."""
    kept: dict = {}
    for index, value in enumerate(values):
        timed = any(mark.name == "timing" for mark in getattr(value, "marks", ()))
        if not timed:
            kept.setdefault(group(raw(value)), index)
    chosen = set(kept.values())
    return [
        sampled_param(value, subjects(raw(value)), index in chosen)
        for index, value in enumerate(values)
    ]


def raw(value):
    return value.values[0] if isinstance(value, type(pytest.param(None))) else value


def shard_of(item: pytest.Item, shards: int) -> int:
    """Which of ``shards`` runs the item (0-based): by its page, else by its file, so that a
    page's examples (one namespace) and its browser tests (one survey) share a shard."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    page = params.get("url", params.get("page_path"))
    key = f"page {page}" if isinstance(page, str) else item.nodeid.split("::")[0]
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % shards


def keep_shard(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = config.getoption("shard")
    if not wanted:
        return
    number, shards = map(int, wanted.split("/"))
    if not 1 <= number <= shards:
        raise pytest.UsageError(f"{SHARD_OPTION} {wanted}: K must be from 1 to N")
    other = [item for item in items if shard_of(item, shards) != number - 1]
    leaving = set(other)
    items[:] = [item for item in items if item not in leaving]
    config.hook.pytest_deselected(items=other)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    keep_shard(config, items)
    if config.getoption("full"):
        return
    marked = [item for item in items if item.get_closest_marker(MARK)]
    if not marked:
        return
    named = set(config.args)  # `nox -s page` names its page's notebook: it runs
    left_out = [
        item
        for item in marked
        if item.nodeid not in named and not touches(item.get_closest_marker(MARK).args)
    ]
    if left_out:
        leaving = set(left_out)
        items[:] = [item for item in items if item not in leaving]
        config.hook.pytest_deselected(items=left_out)


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("full"):
        return "tier: full (every sampled test)"
    pages = sorted(name for name in changed() if name.startswith("docs/"))
    shown = ", ".join(pages[:8]) + (" ..." if len(pages) > 8 else "")
    return f"tier: default (the sample, and what changed since main: {shown or 'no page'})"


# ---------------------------------------------------------------- what changed since main


def touches(subjects) -> bool:
    """Did one of these change? A subject ending in "/" is a folder: any file under it."""
    found = changed()
    return any(
        subject in found or (subject.endswith("/") and any(n.startswith(subject) for n in found))
        for subject in subjects
    )


def git_output(*args: str) -> str | None:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


@functools.cache
def merge_base() -> str | None:
    for branch in ("main", "origin/main"):
        found = git_output("merge-base", "HEAD", branch)
        if found:
            return found.strip()
    return None


@functools.cache
def changed_files() -> frozenset[str]:
    """Project files that differ from the merge-base with main (committed or not), new ones too."""
    base = merge_base()
    if base is None:
        return frozenset()
    names = (git_output("diff", "--name-only", base) or "").split()
    names += (git_output("ls-files", "--others", "--exclude-standard") or "").split()
    return frozenset(names)


@functools.cache
def changed() -> frozenset[str]:
    """Changed files, and every docs page whose inputs or built HTML changed."""
    files = changed_files()
    return files | pages_whose_inputs_changed(files) | pages_whose_html_changed(files)


def pages_whose_inputs_changed(files: frozenset[str]) -> set[str]:
    from engine.page.parser import read_page
    from engine.run.imports import project_files

    if not files:
        return set()
    pages = set()
    for source in (ROOT / "docs").rglob("*.md"):
        path = source.relative_to(ROOT).as_posix()
        folder = f"snippets/{page_slug(path)}/"
        if path in files or any(name.startswith(folder) for name in files):
            pages.add(path)
        elif any(name.startswith("snippets/") and name.endswith(".py") for name in files):
            code = [block.source for block in read_page(path).blocks]
            if files & set(project_files(code)):  # a module its code imports
                pages.add(path)
    return pages


def source_of(url: str) -> str:
    """The docs page a site URL shows (a notebook view: its page's); else the URL itself."""
    url = url.removesuffix("notebook/")
    if url.endswith(".html"):
        return url
    for candidate in (f"docs/{url.rstrip('/') or 'index'}.md", f"docs/{url}index.md"):
        if (ROOT / candidate).is_file():
            return candidate
    return url


def html_digests(site: Path) -> dict[str, str]:
    """Each built page's HTML, by its docs source: what a reader's browser gets."""
    digests: dict[str, str] = {}
    for html in sorted(site.rglob("*.html")):
        relative = html.relative_to(site)
        if relative.parts[0] == "assets":
            continue
        url = relative.parent.as_posix() + "/" if html.name == "index.html" else relative.as_posix()
        digest = hashlib.sha256(html.read_bytes()).hexdigest()
        key = source_of("" if url == "./" else url)
        digests[key] = hashlib.sha256((digests.get(key, "") + digest).encode()).hexdigest()
    return digests


def pages_whose_html_changed(files: frozenset[str]) -> set[str]:
    """Against main's built HTML, stored by a run on main's code in this clone; a run on main's
    code (nothing changed) stores it."""
    site, base = os.environ.get(SITE_VARIABLE), merge_base()
    if not site or base is None or not Path(site).is_dir():
        return set()
    now = html_digests(Path(site))
    if not files:
        HTML_DIGESTS.parent.mkdir(parents=True, exist_ok=True)
        written = HTML_DIGESTS.with_name(f"{HTML_DIGESTS.name}.{os.getpid()}")  # xdist workers
        written.write_text(json.dumps({"commit": base, "pages": now}), encoding="utf-8")
        written.replace(HTML_DIGESTS)
        return set()
    try:
        stored = json.loads(HTML_DIGESTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    if stored.get("commit") != base:
        return set()
    return {page for page, digest in now.items() if stored["pages"].get(page) != digest}
