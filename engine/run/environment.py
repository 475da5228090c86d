"""The environment pages run in: what is installed (its fingerprint is part of every cache key)
and what ``uv.lock`` pins (what a reader installs; the pinned build drift compares with).
"""

from __future__ import annotations

import email
import functools
import importlib.metadata
import os
import platform
import re
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


def canonical(name: str) -> str:
    """A distribution's name as the registries compare names (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@functools.cache
def renderer_distributions(roots: tuple[str, ...], plugin_groups: tuple[str, ...]) -> bytes:
    """Python's version, each distribution ``roots`` need (their requirements whose markers hold
    here, extras included, then theirs), with its version, and every entry point in a group
    starting with one of ``plugin_groups`` (a Pygments lexer, a Markdown extension), whose
    distribution counts as a root too: the key of what the site keeps of its renderers' output
    (engine.site.kept). A venv with more installed beside them (the tests' pytest, Playwright)
    gets the same; a needed one that is missing is named missing, so installing it counts."""
    installed = {name: Installed(folder) for name, folder in installed_folders().items()}
    plugins = {
        (point.group, point.name, point.value, name)
        for name, dist in installed.items()
        for point in dist.distribution.entry_points
        if point.group.startswith(plugin_groups)
    }
    needed = dependency_closure(installed, [*map(canonical, roots), *(p[3] for p in plugins)])
    versions = [
        f"{name}=={installed[name].version}" if name in installed else f"{name} missing"
        for name in sorted(needed)
    ]
    points = [
        f"[{group}] {name} = {value} ({dist})" for group, name, value, dist in sorted(plugins)
    ]
    return "\n".join([sys.version, *versions, *points]).encode()


def installed_folders() -> dict[str, Path]:
    """Each installed distribution's metadata folder by canonical name, the first on sys.path
    (the one Python imports), named by the folder alone: reading every METADATA whole, as
    ``importlib.metadata`` does for a name, cost about 0.2 s a build."""
    found: dict[str, Path] = {}
    for place in sys.path:
        if os.path.isdir(place):
            for entry in sorted(os.scandir(place), key=lambda entry: entry.name):
                if entry.name.endswith((".dist-info", ".egg-info")):
                    name = entry.name.rsplit(".", 1)[0].split("-")[0]
                    found.setdefault(canonical(name), Path(entry.path))
    return found


class Installed:
    """One installed distribution: its version and requirements, from its metadata's headers
    (read only for a distribution the key names)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.distribution = importlib.metadata.Distribution.at(folder)

    @functools.cached_property
    def headers(self):
        text = self.distribution.read_text("METADATA") or self.distribution.read_text("PKG-INFO")
        return email.message_from_string((text or "").split("\n\n", 1)[0])

    @property
    def version(self) -> str | None:
        return self.headers.get("Version")

    @property
    def requires(self) -> list[str]:
        if self.folder.suffix == ".egg-info":  # its requirements are in requires.txt
            return self.distribution.requires or []
        return self.headers.get_all("Requires-Dist") or []


def dependency_closure(installed: dict[str, Installed], roots: list[str]) -> set[str]:
    """``roots`` and every distribution they require here, by canonical name (a requirement that
    is not installed ends the walk there)."""
    from packaging.requirements import Requirement  # mkdocs' dependency, read only here

    extras: dict[str, set[str]] = {}
    waiting = [(name, frozenset()) for name in roots]
    while waiting:
        name, wanted = waiting.pop()
        if name in extras and wanted <= extras[name]:
            continue
        extras[name] = extras.get(name, set()) | wanted
        for line in installed[name].requires if name in installed else []:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is None or any(marker.evaluate({"extra": e}) for e in extras[name] | {""}):
                waiting.append((canonical(requirement.name), frozenset(requirement.extras)))
    return set(extras)


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
