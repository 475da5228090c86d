"""The import graph: the project files some code imports, followed recursively."""

from __future__ import annotations

import ast
import functools
import os
from collections.abc import Iterator
from pathlib import Path

from engine.page.model import ROOT

READS = "READS_AT_RUN_TIME"  # a module's list of the project files it reads at run time


def project_files(
    sources: list[str], root: Path = ROOT, run_time_reads: bool = True
) -> dict[str, str]:
    """Every project file ``sources`` import, followed recursively: path (from ``root``) -> text.

    The cache key, the timing rule, a notebook's bundle and ``check.py`` follow it. Modules
    resolve under ``root/snippets`` first, then ``root`` (as on the pages' ``sys.path``). A
    module that reads project files at run time names them in ``READS_AT_RUN_TIME`` (glob
    patterns relative to the root); those files count too, unless ``run_time_reads`` is false.
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
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return frozenset(), ()  # reported when the block runs
    return frozenset(_imported_names(tree)), tuple(_declared_reads(tree))


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
