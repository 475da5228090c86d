"""Lets a notebook go on past a check that is recorded as not holding on the runtime it runs on.

The site's build proves every check on a CPU with the pinned JAX. The pages were also run on a
TPU (``nox -s accelerator``) and under older JAX releases (``nox -s matrix``), where a few
checks fail, each for a recorded reason. A notebook wraps the blocks of those claims in
``recorded_differences(claim_id)``: where the claim is recorded as not holding (the same
platform, or the same JAX series), a failure prints what differs and why, and the notebook goes
on; anywhere else it stops the notebook as usual.
"""

from __future__ import annotations

import contextlib

# claim id -> where it was recorded as not holding: {"platform": "tpu"} or {"jax": "0.10"},
# with "on" (the runtime that recorded it), "recorded" (what failed there) and maybe "note".
RECORDED: dict[str, list[dict]] = {}
HEADLINE = "This check is recorded as not holding here"


def series(version: str) -> str:
    """``0.10.2`` -> ``0.10``: releases of one series share their records."""
    return ".".join(version.split(".")[:2])


def where_recorded(claim_id: str, platform: str, version: str) -> dict | None:
    """The record that says the claim does not hold on ``platform`` with JAX ``version``."""
    for record in RECORDED.get(claim_id, []):
        if record.get("platform") == platform or record.get("jax") == series(version):
            return record
    return None


def report(record: dict, error: BaseException, here: str) -> str:
    """What a learner reads instead of a traceback: the record, its reason, both failures."""
    message = str(error).strip().splitlines()
    lines = [
        f"⚠ {HEADLINE} ({here}): it also fails on {record['on']}, so the notebook goes on.",
        f"  Here: {type(error).__name__}" + (f": {message[0]}" if message else ""),
        f"  Recorded there: {record['recorded']}",
    ]
    if record.get("note"):
        lines.insert(1, f"  Why: {record['note']}")
    return "\n".join(lines)


def runtime() -> tuple[str, str]:
    """This runtime as the records name one: JAX's default platform and its version."""
    import jax  # only once something failed: a notebook imports it long before

    return jax.default_backend(), jax.__version__


@contextlib.contextmanager
def recorded_differences(claim_id: str):
    """Run the block; a failure of a claim recorded as not holding here is printed, not raised."""
    try:
        yield
    except Exception as error:
        platform, version = runtime()
        record = where_recorded(claim_id, platform, version)
        if record is None:
            raise
        print(report(record, error, f"{platform} with JAX {version}"))
