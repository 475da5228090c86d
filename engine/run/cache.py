"""The page cache: a key for everything a page's outputs depend on, and its stored results.

The cache key holds everything an output depends on: the page's code in order (fences and
snippet files), any local module that code imports, the engine's own code, the versions of
Python, jax, jaxlib, numpy and matplotlib (and any installed JAX plugin), the platform, and
the JAX_* / XLA_* environment variables. Prose is not part of it, so editing prose runs nothing.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.metadata
import json
import logging
import os
import platform
import sys
from collections.abc import Iterator
from pathlib import Path

from engine.page.model import ROOT, Page
from engine.page.policy import policy
from engine.run.results import PageResult

log = logging.getLogger("mkdocs.jitdocs")


CACHE_DIR = ROOT / policy().cache_dir
READS = "READS_AT_RUN_TIME"  # a module's list of the project files it reads at run time


# Paths from engine/: the code that runs a page (a change runs every page again).
ENGINE_FILES = (
    "page/model.py",
    "page/syntax.py",
    "page/markers.py",
    "page/parser.py",
    "run/execute.py",
    "run/figures.py",
    "run/child.py",
    "run/results.py",
    "run/terminal.py",
)


def environment_fingerprint() -> dict:
    names = ("jax", "jaxlib", "numpy", "matplotlib")
    versions = {name: _version(name) for name in names}
    plugins = sorted(
        f"{dist.metadata['Name']}=={dist.version}"
        for dist in importlib.metadata.distributions()
        if (dist.metadata["Name"] or "").lower().replace("_", "-").startswith("jax-")
    )
    variables = {k: v for k, v in sorted(os.environ.items()) if k.startswith(("JAX_", "XLA_"))}
    return {
        "python": sys.version,
        "platform": platform.platform(),
        "versions": versions,
        "plugins": plugins,
        "variables": variables,
    }


@functools.cache
def installed_distributions() -> bytes:
    """Python's version and every installed distribution with its version (the names of their
    ``.dist-info`` folders): all the third-party code a rendering step can run, for the keys of
    what the site keeps of its renderers' output (engine.site.view_render, engine.site.colours)."""
    folders = sorted(
        entry.name
        for place in sys.path
        if os.path.isdir(place)
        for entry in os.scandir(place)
        if entry.name.endswith((".dist-info", ".egg-info"))
    )
    return "\n".join([sys.version, *folders]).encode()


def _version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def project_files(
    sources: list[str], root: Path = ROOT, run_time_reads: bool = True
) -> dict[str, str]:
    """Every project file ``sources`` import, followed recursively: path (from ``root``) -> text.

    Both the cache key and a notebook's bundle use it. Modules resolve under ``root/snippets``
    first, then ``root`` (as on the pages' ``sys.path``). A module that reads project files at
    run time names them in ``READS_AT_RUN_TIME`` (glob patterns relative to the root); those
    files count too, unless ``run_time_reads`` is false.
    """
    found: dict[str, str] = {}
    todo = list(sources)
    folders = _module_folders(root)
    while todo:
        names, reads = _imports_and_reads(todo.pop())
        paths = [path for name in sorted(names) for path in _module_file(name, folders)]
        if run_time_reads:
            paths += [path for pattern in reads for path in sorted(root.glob(pattern))]
        for path in paths:
            name = path.relative_to(root).as_posix()
            if name not in found:
                found[name] = path.read_text(encoding="utf-8")
                todo.append(found[name])
    return dict(sorted(found.items()))


@functools.lru_cache(maxsize=1024)
def _imports_and_reads(source: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """What a module imports and declares it reads. Kept by its text (the same text parses the
    same): every page imports jitkit, and parsing it again for each page and its notebook was
    a third of a warm rebuild's key computing."""
    if "import" not in source and READS not in source:
        return frozenset(), ()  # most blocks: nothing to parse for
    tree = _syntax_tree(source)
    return frozenset(_imported_names(tree)), tuple(_declared_reads(tree))


def _syntax_tree(source: str) -> ast.Module:
    try:
        return ast.parse(source)
    except SyntaxError:
        return ast.Module(body=[], type_ignores=[])  # reported when the block runs


def _module_folders(root: Path) -> dict[Path, set[str]]:
    """Where modules resolve, in order, with the names at their top (read once per call)."""
    folders = (root / "snippets", root)
    return {folder: set(os.listdir(folder)) if folder.is_dir() else set() for folder in folders}


def _module_file(dotted: str, folders: dict[Path, set[str]]) -> list[Path]:
    """``jitkit`` -> [snippets/jitkit.py], ``engine`` -> [engine/__init__.py], else []. A folder
    whose top has no such name is skipped unasked: most imports (jax, numpy, the standard
    library) are not project files, and asking for each candidate was most of a page's key."""
    parts = dotted.split(".")
    for folder, top in folders.items():
        if parts[0] not in top and f"{parts[0]}.py" not in top:
            continue
        relative = Path(*parts)
        for candidate in (folder / relative.with_suffix(".py"), folder / relative / "__init__.py"):
            if candidate.is_file():
                return [candidate]
    return []


def _imported_names(tree: ast.Module) -> set[str]:
    """Every module an import names, with its parents (a.b -> a, a.b); ``from a import b``
    also names ``a.b``, which may be a submodule."""
    dotted = set()
    for node in _statements(tree.body):
        if isinstance(node, ast.Import):
            dotted.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            dotted.add(node.module)
            dotted.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {
        ".".join(name.split(".")[: i + 1]) for name in dotted for i in range(name.count(".") + 1)
    }


# Where statements hold statements (def, class, if, for, while, with, try and its handlers,
# match and its cases): an import is a statement, so these are all the places to look.
STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(nodes: list) -> Iterator[ast.AST]:
    """Every statement in ``nodes``, nested ones too: a walk that skips every expression, most
    of a module's syntax tree."""
    for node in nodes:
        yield node
        for name in STATEMENT_LISTS:
            children = getattr(node, name, None)
            if isinstance(children, list):
                yield from _statements(children)


def _declared_reads(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == READS for t in node.targets
        ):
            return list(ast.literal_eval(node.value))
    return []


def code_key(page: Page) -> str:
    """Everything the outputs depend on except the environment: the code and the engine."""
    engine = {name: (ROOT / "engine" / name).read_text(encoding="utf-8") for name in ENGINE_FILES}
    material = {
        "engine": engine,
        "blocks": [block.key_material() for block in page.blocks],
        "modules": project_files([block.source for block in page.blocks]),
    }
    return _digest(material)


def cache_key(page: Page, fingerprint: dict) -> str:
    return _digest({"code": code_key(page), "environment": fingerprint})


def _digest(material: dict) -> str:
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def entry_path(page: Page, cache_dir: Path) -> Path:
    return cache_dir / f"{page.path.replace('/', '__')}.json"


def load_cached(page: Page, key: str, cache_dir: Path = CACHE_DIR) -> PageResult | None:
    """The stored result for ``key``, or None; a corrupt entry is reported and ignored."""
    path = entry_path(page, cache_dir)
    if not path.is_file():
        return None
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        if entry["key"] != key:
            return None
        if entry["checksum"] != _digest(entry["result"]):
            raise ValueError("checksum mismatch")
        result = PageResult.from_dict(entry["result"])
    except (ValueError, KeyError, TypeError) as error:
        # INFO, not WARNING: the page simply runs again, and --strict fails on any warning.
        log.info("jitdocs: corrupt cache entry %s (%s); executing %s again", path, error, page.path)
        return None
    result.cached = True
    return result


def store(
    page: Page, key: str, result: PageResult, cache_dir: Path = CACHE_DIR, code: str = ""
) -> None:
    """Keep a passing run; ``code`` (its code_key) lets a later failure say what changed."""
    data = result.to_dict()
    entry = {"key": key, "code": code, "result": data, "checksum": _digest(data)}
    write_if_changed(entry_path(page, cache_dir), json.dumps(entry))


def write_if_changed(path: Path, text: str) -> None:
    """Leave an unchanged file alone, and replace a changed one atomically: a killed build never
    leaves half a file behind, and overlapping builds never read one."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
