"""Site policy: which pages get what, and where the build keeps its files, in one typed record.

Read once from ``[tool.jitdocs]`` in ``pyproject.toml`` (keys as the field names, with dashes);
a key the record does not know is an error, and a project without the table gets the defaults.
It sits in the lowest layer so that every layer reads the same choices.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

from engine.page.model import ROOT


@dataclass(frozen=True)
class Policy:
    notebook_pages: tuple[str, ...] = ("docs/course/", "docs/beyond/", "docs/practice/exercises.md")
    noted_pages: tuple[str, ...] = ("docs/course/", "docs/beyond/", "docs/track/")  # compatibility
    badged_pages: tuple[str, ...] = ("docs/course/", "docs/beyond/")  # each H2 must-read or extra
    exercise_pages: tuple[str, ...] = ("docs/practice/exercises.md",)  # an exercise per H2
    quiz_pages: tuple[str, ...] = ("docs/practice/quiz.md",)  # a question per H2
    lesson_pages: tuple[str, ...] = ("docs/track/",)  # a lesson per page
    course_sections: tuple[str, ...] = ("Course", "Beyond the basics")  # the nav's chapters
    cache_dir: str = ".cache/jitdocs"  # each page's outputs, by cache key
    view_dir: str = ".cache/notebook-view"  # the notebooks mkdocs-jupyter renders as views
    drift_cache_dir: str = ".cache/drift"  # outputs under another JAX (nox -s drift, matrix)


@functools.cache
def policy(root: Path = ROOT) -> Policy:
    """The policy of the project at ``root`` (read once per root)."""
    path = root / "pyproject.toml"
    table = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    values = table.get("tool", {}).get("jitdocs", {})
    known = {f.name for f in fields(Policy)}
    if unknown := [key for key in values if key.replace("-", "_") not in known]:
        raise ValueError(f"{path}: [tool.jitdocs] has no setting {unknown[0]!r}")
    chosen = {key.replace("-", "_"): value for key, value in values.items()}
    return Policy(**{name: tuple(v) if isinstance(v, list) else v for name, v in chosen.items()})


def wants_notebook(page_path: str) -> bool:
    """Does the page get a notebook (``notebook_pages``: a page, or a folder ending in /)?"""
    return any(page_path.startswith(chosen) for chosen in policy().notebook_pages if chosen)
