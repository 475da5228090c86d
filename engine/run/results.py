"""What running a page produces: typed records that cross the process boundary and the cache as
JSON (``to_dict``/``from_dict``); readers use the fields, never a message's wording. A new field
is one line here, with a default so older cache entries still load.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import ClassVar


class _Record:
    LISTS: ClassVar[dict[str, type]] = {}  # fields that hold a list of records: name -> class

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict):
        known = {f.name for f in fields(cls)}
        record = cls(**{k: v for k, v in data.items() if k in known})
        for name, kind in cls.LISTS.items():
            setattr(record, name, [kind.from_dict(item) for item in data.get(name, [])])
        return record


@dataclass
class Figure(_Record):
    alt: str
    light: str  # SVG text
    dark: str


@dataclass
class Outcome(_Record):
    """What one block produced: its printed output, the declared error it raised, its charts."""

    output: str = ""
    error_type: str = ""  # the class a ❌ block raised as declared ("" when it raised nothing)
    error_message: str = ""
    raised_in: str = ""  # the module whose code raised it (the error index lists JAX's)
    figures: list[Figure] = field(default_factory=list)
    seconds: float = 0.0
    skipped: bool = False
    timing_claims: list[dict] = field(default_factory=list)  # jitkit's records, with page lines
    stopped: list[str] = field(default_factory=list)  # processes it left running, since killed
    LISTS: ClassVar[dict[str, type]] = {"figures": Figure}

    @property
    def error(self) -> str:
        """``"ErrorName: message"`` as Python prints it, or ``""``."""
        if not self.error_type:
            return ""
        return f"{self.error_type}: {self.error_message}" if self.error_message else self.error_type


class Kind(StrEnum):
    """Failure kinds. Drift sorts on these; the wording of ``message`` is free to change."""

    CONTRACT = "contract"  # a ❌ block did not raise or warn what it declares
    ASSERTION = "assertion"  # an assert stopped holding (a fact, a ❌ asserts block, any block)
    RAISED = "raised"  # a block that must run clean raised
    TIMEOUT = "timeout"
    FIGURE = "figure"  # a chart without alt text
    CRASH = "crash"  # the page's process died
    OUTPUT = "output"  # a block printed more than its limit
    SHARED_CPU = "shared-cpu"  # a timing claim measured while other work ran beside it
    PROJECT = "project"  # the project's files changed while the page ran


NOT_RUN = "not run"  # a block after a failure on its page (engine.run.record), a claim's verdict


def first_line(message: str) -> str:
    """An error message's first line: what a report, a notebook and the error index show."""
    lines = message.strip().splitlines()
    return lines[0] if lines else ""


@dataclass
class Failure(_Record):
    """Why a page stopped. ``message`` is the full report for people (page line first)."""

    kind: str
    page: str
    line: int | None = None  # page line of the block (None: the page as a whole)
    index: int | None = None  # the block's position among the page's blocks
    error_type: str = ""  # the exception the block raised, if any
    error_message: str = ""  # its first line
    source: str = ""  # the page's code line where it was raised, if known
    summary: str = ""  # one line: what broke, without the location
    message: str = ""
    timing_claims: list[dict] = field(default_factory=list)  # measured before it broke

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}" if self.line else self.page


class PageFailure(Exception):
    """A page's code failed, in a block or as a whole: ``failure`` says how; the message names
    the page, file and line."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


@dataclass
class PageResult(_Record):
    outcomes: list[Outcome]
    environment: dict
    cached: bool = False
    seconds: float = 0.0
    LISTS: ClassVar[dict[str, type]] = {"outcomes": Outcome}
