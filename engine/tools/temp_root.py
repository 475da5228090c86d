"""A short temporary folder outside the checkout, for the sockets the tests open (CONTRIBUTING.md,
"Any checkout path works"). Standard library only: noxfile.py imports it by path."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

SOCKET_PATH_MAX = 103  # bytes, without the final NUL: macOS's limit (Linux allows 107)
# The longest path a tool we run puts under $TMPDIR for a socket (Chromium's).
SOCKET_TAIL = "/org.chromium.Chromium.XXXXXX/SingletonSocket"
MAX_BYTES = SOCKET_PATH_MAX - len(SOCKET_TAIL)


class TempRootError(RuntimeError):
    """No temporary folder short enough (or ours) could be found."""


def too_long(folder: str | Path) -> bool:
    """Would a socket under ``folder`` (as TMPDIR) pass the limit?"""
    return len(os.fsencode(str(folder))) > MAX_BYTES


def temp_root(checkout: Path, purpose: str) -> Path:
    """``<temp>/jitdocs-<hash of checkout>/<purpose>``, made if missing: one per checkout, so two
    clones never share it. ``<temp>`` is the system's temporary folder, or /tmp when that is
    too long; neither fitting raises TempRootError, which says what to set."""
    key = hashlib.sha256(os.fsencode(str(checkout.resolve()))).hexdigest()[:10]
    tried = []
    for base in dict.fromkeys([tempfile.gettempdir(), "/tmp"]):
        folder = Path(base) / f"jitdocs-{key}" / purpose
        tried.append(str(folder))
        if not too_long(folder) and Path(base).is_dir() and os.access(base, os.W_OK):
            folder.mkdir(parents=True, exist_ok=True)
            _check_owner(folder.parent)
            return folder
    raise TempRootError(
        f"no temporary folder is short enough for the sockets the tests open (at most "
        f"{MAX_BYTES} bytes; tried {', '.join(tried)}): set TMPDIR to a short folder you can "
        "write to, e.g. TMPDIR=/tmp"
    )


def _check_owner(folder: Path) -> None:
    """A shared /tmp: a folder of that name made by another user is not ours to use."""
    owner = folder.stat().st_uid
    if hasattr(os, "getuid") and owner != os.getuid():
        raise TempRootError(
            f"{folder} belongs to another user (uid {owner}); remove it or set TMPDIR elsewhere"
        )
