"""The environment pages run in: what is installed (its fingerprint is part of every cache key)
and what ``uv.lock`` pins (what a reader installs; the pinned build drift compares with).
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import platform
import sys
import tomllib
from pathlib import Path

from engine.page.model import ROOT

# Read at run time: part of the cache key of every page that imports this module.
READS_AT_RUN_TIME = ("uv.lock",)


def environment_fingerprint() -> dict:
    versions = {name: installed_version(name) for name in ("jax", "jaxlib", "numpy", "matplotlib")}
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
    """Python's version and every installed distribution's ``.dist-info`` folder name: the keys
    of what the site keeps of its renderers' output (engine.site.kept)."""
    folders = sorted(
        entry.name
        for place in sys.path
        if os.path.isdir(place)
        for entry in os.scandir(place)
        if entry.name.endswith((".dist-info", ".egg-info"))
    )
    return "\n".join([sys.version, *folders]).encode()


def installed_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


@functools.cache
def locked_versions(root: Path = ROOT) -> dict[str, str]:
    """Every package ``uv.lock`` pins, with its version: the one reader of the pins."""
    path = root / "uv.lock" if (root / "uv.lock").is_file() else ROOT / "uv.lock"  # test sites
    lock = tomllib.loads(path.read_text(encoding="utf-8"))
    return {package["name"]: package["version"] for package in lock["package"]}
