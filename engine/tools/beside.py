"""Two builds on two cores: `nox -s tests` starts the Zensical build beside MkDocs' render once
the MkDocs build has run every page (MAINTAINERS.md, "Where the suite's time goes"). Standard
library only: noxfile.py imports it by path."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path


def run_beside(first: Callable[[], None], ready: Path, second: Callable[[], None]) -> None:
    """Run ``first``, and ``second`` beside it from when ``first`` makes the file ``ready``, or
    after it if it ends without making it. ``first``'s error is raised once both ended (``ready``
    made) or at once (not made: ``second`` does not run, as after a failed command in a row)."""
    ready.unlink(missing_ok=True)  # an earlier build's
    errors: list[BaseException] = []

    def run_first() -> None:
        try:
            first()
        except BaseException as error:  # raised again in the caller's thread
            errors.append(error)

    thread = threading.Thread(target=run_first, name="first", daemon=True)
    thread.start()
    while thread.is_alive() and not ready.exists():
        thread.join(0.05)
    made = ready.exists()
    try:
        if made:
            second()
    finally:
        thread.join()
    if errors:
        raise errors[0]
    if not made:
        second()
