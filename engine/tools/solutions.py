"""Where each exercise and lesson checker's solutions are: the reference it must pass, the starter
it must fail, and the wrong solutions ``tests/solutions/<id>/wrong_*.py``, each naming in its
docstring, on a line ``Fails: <the check's description>``, the check it must fail.

Read as data (files and the track page's table), so this starts no JAX: the tests of the
checkers (tests/test_exercises.py, tests/test_lessons.py) and ``engine.tools.checker_runs`` all
find the solutions here.
"""

from __future__ import annotations

import ast
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from engine.page.model import ROOT, SNIPPETS, page_slug

EXERCISES = [  # the checkers of docs/practice/exercises.md, whose solutions are in EXERCISE_FILES
    "tax_brackets",
    "newton_sqrt",
    "recompile_detective",
    "training_loop",
    "model_class",
    "aot_signature",
    "positive_summary",
    "host_lookup",
    "shrink_the_trace",
    "stable_logsumexp",
    "device_sgd",
]
EXERCISE_FILES = SNIPPETS / "exercises"
WRONG = ROOT / "tests" / "solutions"
TRACK = ROOT / "docs" / "track"
ROW = re.compile(  # a lesson's row of the track page's table
    r"^\|\s*(?P<step>\d+)\s*\|\s*\[(?P<title>[^\]]+)\]\((?P<file>[a-z0-9-]+\.md)\)\s*\|"
    r"\s*(?P<level>Easy|Medium|Hard)\s*\|.*data-lesson=\"(?P<id>\w+)\"",
    re.MULTILINE,
)
FAILS = re.compile(r"^Fails:(.+)$", re.MULTILINE)


@dataclass(frozen=True)
class Lesson:
    """A practice-track lesson, as its row of the track page's table gives it."""

    step: int
    title: str
    file: str
    level: str
    id: str

    @property
    def page(self) -> Path:
        return TRACK / self.file

    @property
    def solution(self) -> Path:
        """The reference solution its page embeds."""
        return SNIPPETS / page_slug(self.file) / "solution.py"


def read_track() -> list[Lesson]:
    text = (TRACK / "index.md").read_text(encoding="utf-8")
    return [
        Lesson(int(m["step"]), m["title"], m["file"], m["level"], m["id"])
        for m in ROW.finditer(text)
    ]


def exercise_solution(exercise: str) -> Path:
    return EXERCISE_FILES / f"{exercise}.py"


def exercise_starter(exercise: str) -> Path:
    return EXERCISE_FILES / f"{exercise}_starter.py"


def references() -> dict[str, Path]:
    """Each checker's id and the reference solution it must pass: exercises, then lessons."""
    found = {exercise: exercise_solution(exercise) for exercise in EXERCISES}
    return found | {lesson.id: lesson.solution for lesson in read_track()}


def wrong_solutions(checker_id: str) -> list[Path]:
    return sorted((WRONG / checker_id).glob("wrong_*.py"))


def named_check(path: Path) -> str:
    """The check a wrong solution must fail: its docstring's one ``Fails: <check>`` line."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    named = FAILS.findall(doc)
    if len(named) != 1:
        raise ValueError(
            f"{path}: the docstring needs one 'Fails: <check>' line, found {len(named)}"
        )
    return named[0].strip()


def key() -> str:
    """What a recorded run of the checkers stands for: the checker, every check, the helpers
    they import, each reference solution and each wrong one."""
    files = [
        SNIPPETS / "check_solution.py",
        SNIPPETS / "jitkit.py",
        *sorted((SNIPPETS / "_checks").glob("*.py")),
        *references().values(),
        *sorted(WRONG.glob("*/wrong_*.py")),
    ]
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]
