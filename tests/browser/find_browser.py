"""Find a Chromium-family browser for the browser tests, wherever the contributor has one.

Standard library only: noxfile.py imports this too, before any venv exists.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

VARIABLE = "JITDOCS_CHROMIUM"  # an explicit path wins over everything else
ENABLE_HINT = (
    "install one: `sudo apt-get install chromium` (Debian/Ubuntu), Google Chrome, or "
    "`python -m playwright install chromium`; or point JITDOCS_CHROMIUM at a Chromium binary"
)
ON_PATH = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
APPLICATIONS = (
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)
# Playwright's own downloads, where a machine was able to fetch them.
PLAYWRIGHT_GLOBS = (
    "chromium-*/chrome-linux*/chrome",
    "chromium-*/chrome-mac*/Chromium.app/Contents/MacOS/Chromium",
    "chromium-*/chrome-mac*/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
)


def find_chromium() -> str | None:
    """The first Chromium-family browser found, or None."""
    given = os.environ.get(VARIABLE)
    if given:
        return given if Path(given).is_file() else None
    for name in ON_PATH:
        found = shutil.which(name)
        if found:
            return found
    for app in APPLICATIONS:
        if Path(app).is_file():
            return app
    return _playwright_browser()


def _playwright_browser() -> str | None:
    home = Path.home()
    caches = [os.environ.get("PLAYWRIGHT_BROWSERS_PATH", "")]
    caches += [str(home / ".cache" / "ms-playwright"), str(home / "Library/Caches/ms-playwright")]
    for cache in filter(None, caches):
        for pattern in PLAYWRIGHT_GLOBS:
            for candidate in sorted(Path(cache).glob(pattern), reverse=True):
                if candidate.is_file():
                    return str(candidate)
    return None
