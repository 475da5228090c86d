"""The page cache. A page's key holds everything its outputs depend on: its code in order, the
project modules it imports, the engine's code, and the environment (``environment_fingerprint``);
not its prose, so editing prose runs nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path

from engine.page.model import ROOT, Page
from engine.page.policy import policy
from engine.run.files import discard, read_kept, write_if_changed
from engine.run.imports import project_files
from engine.run.results import PageResult

CACHE_DIR = ROOT / policy().cache_dir

# Set by `nox -s tests` for its build and its tests (noxfile.py): a page that measures time may
# then run beside other pages, and what it measured there serves those tests only. A build without
# it (the site to publish) runs such a page again, alone.
TIMING_BESIDE_VARIABLE = "JITDOCS_TIMING_BESIDE"


def timing_beside() -> bool:
    return os.environ.get(TIMING_BESIDE_VARIABLE) == "1"


# The code that reads a page's blocks and runs them, with every project module it imports: a
# change to any of it runs every page again.
ENGINE = "import engine.page.parser\nimport engine.run.child"


@functools.cache
def engine_files() -> list[str]:
    """Found once per process (following imports is most of a key); each key reads their text."""
    return list(project_files([ENGINE], run_time_reads=False))


def engine_text() -> dict[str, str]:
    return {name: (ROOT / name).read_text(encoding="utf-8") for name in engine_files()}


def code_key(page: Page) -> str:
    """Everything the outputs depend on except the environment: the code and the engine."""
    material = {
        "engine": engine_text(),
        "blocks": [block.key_material() for block in page.blocks],
        "modules": project_files([block.source for block in page.blocks]),
    }
    return _digest(material)


def cache_key(page: Page, fingerprint: dict, code: str = "") -> str:
    """The page's key in ``fingerprint``'s environment (``code``: its code_key, if known)."""
    return _digest({"code": code or code_key(page), "environment": fingerprint})


def _digest(material: dict) -> str:
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def entry_path(page: Page, cache_dir: Path) -> Path:
    return cache_dir / f"{page.path.replace('/', '__')}.json"


def last_entry(page: Page, cache_dir: Path) -> dict:
    """The page's entry as stored, even a stale one ({} when there is none to read)."""
    return read_kept(entry_path(page, cache_dir), lambda entry: True)


def load_cached(page: Page, key: str, cache_dir: Path = CACHE_DIR) -> PageResult | None:
    """The stored result for ``key``, or None; a corrupt entry is discarded (files.read_kept).
    A timing page's run beside other pages counts only under ``timing_beside()``."""
    path = entry_path(page, cache_dir)
    entry = read_kept(path, lambda entry: entry.get("checksum") == _digest(entry.get("result")))
    if entry.get("key") != key or (entry.get("beside") and not timing_beside()):
        return None
    try:
        result = PageResult.from_dict(entry["result"])
    except (ValueError, KeyError, TypeError) as error:
        discard(path, f"{type(error).__name__}: {error}")
        return None
    result.cached = True
    return result


def store(
    page: Page,
    key: str,
    result: PageResult,
    cache_dir: Path = CACHE_DIR,
    code: str = "",
    beside: bool = False,
) -> None:
    """Keep a passing run; ``code`` (its code_key) lets a later failure say what changed;
    ``beside``: a timing page that ran beside other pages (see ``load_cached``)."""
    data = result.to_dict()
    entry = {"key": key, "code": code, "result": data, "checksum": _digest(data)}
    if beside:
        entry["beside"] = True
    write_if_changed(entry_path(page, cache_dir), json.dumps(entry))
