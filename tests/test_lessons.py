"""The practice track: its pages hang together, and every lesson's checker has teeth.

- The track page's table, the nav and each lesson's "Step N of M" line, previous/next links and
  "Mark as done" button agree on one order.
- Each lesson's checker passes the lesson's reference solution (the snippet its page embeds),
  fails its starter code, and fails every wrong solution in ``tests/solutions/<lesson_id>/`` on
  the check that the file's docstring names (``Fails: <check description>``), with a message
  that says what was expected.
- ``python snippets/check_solution.py`` (what ``nox -s check`` runs) prints one line per check
  and exits non-zero on failure.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from check_solution import checks_for, load_module, run_checks
from engine.page.model import ROOT
from engine.tools.solutions import TRACK, Lesson, named_check, read_track, wrong_solutions
from tests import tiers
from tests.helpers import results_by_description, run_cli

LESSONS = read_track()
BY_ID = {lesson.id: lesson for lesson in LESSONS}
WRONG = [path for lesson in LESSONS for path in wrong_solutions(lesson.id)]


def lesson_id(lesson: Lesson) -> str:
    return lesson.id


def neighbours(lesson: Lesson) -> tuple[str, str]:
    """Files the previous / next links point to; the track page before the first and after
    the last lesson."""
    index = LESSONS.index(lesson)
    before = LESSONS[index - 1].file if index > 0 else "index.md"
    after = LESSONS[index + 1].file if index + 1 < len(LESSONS) else "index.md"
    return before, after


# ---------------------------------------------------------------- the track hangs together


@pytest.mark.unit
def test_track_has_six_lessons_in_order_including_jit_of_scan():
    assert len(LESSONS) >= 6, LESSONS
    assert [lesson.step for lesson in LESSONS] == list(range(1, len(LESSONS) + 1))
    assert BY_ID["jit_scan_sum"].file == "jit-of-scan.md"
    assert len(BY_ID) == len(LESSONS), "two lessons share a checker id"


@pytest.mark.unit
def test_nav_lists_the_lessons_in_track_order():
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)  # ignore !!python tags
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    section = next(item["Practice track"] for item in config["nav"] if "Practice track" in item)
    assert section[0] == "track/index.md"
    entries = [next(iter(entry.items())) for entry in section[1:]]
    assert entries == [(lesson.title, f"track/{lesson.file}") for lesson in LESSONS]
    assert "assets/track.js" in config["extra_javascript"]


@pytest.mark.unit
@pytest.mark.parametrize("lesson", LESSONS, ids=lesson_id)
def test_lesson_page_has_the_track_furniture(lesson: Lesson):
    text = lesson.page.read_text(encoding="utf-8")
    assert re.search(r"^description: \S", text, re.MULTILINE), "front matter needs a description"
    assert re.search(rf"^# {re.escape(lesson.title)}$", text, re.MULTILINE), "H1 != track title"
    assert f"**Step {lesson.step} of {len(LESSONS)}**" in text
    assert f"Difficulty: {lesson.level}" in text
    assert "[Jump to the task](#problem)" in text
    assert re.search(r"^## Problem: .*\{ #problem \}$", text, re.MULTILINE)
    before, after = neighbours(lesson)
    header, footer = text.split("## The idea", 1)[0], text.rsplit('<div class="track-nav"', 1)[1]
    for part in (header, footer):
        assert re.search(rf"\[← Previous: [^\]]+\]\({re.escape(before)}\)", part), before
        next_link = rf"\[(Next: [^\]]+|Back to the practice track) →\]\({re.escape(after)}\)"
        assert re.search(next_link, part), after
    assert f'class="track-done" data-lesson="{lesson.id}"' in footer
    # idea, worked example, pitfalls (❌/✅), problem, starter, hints, generated checks, solution
    for heading in (
        "## The idea",
        "## Worked mini-example",
        "## Common pitfalls",
        "### Starter code",
        "### What the checker tests",
        "### Solution",
    ):
        assert f"\n{heading}\n" in text, heading
    assert "<!-- bad:" in text and "<!-- good -->" in text
    assert len(re.findall(r'^\?\?\? hint "Hint \d', text, re.MULTILINE)) >= 2
    assert f'checks_for("{lesson.id}")' in text
    solution = text.split("### Solution", 1)[1]
    assert re.search(r'^\?\?\? success "Solution', solution, re.MULTILINE)
    assert re.search(r"^    <!-- snippet: solution -->$", solution, re.MULTILINE), "collapsed"
    assert lesson.solution.is_file()


@pytest.mark.unit
def test_track_page_has_a_status_cell_per_lesson():
    text = (TRACK / "index.md").read_text(encoding="utf-8")
    cells = re.findall(r'class="track-status" data-lesson="(\w+)"', text)
    assert cells == [lesson.id for lesson in LESSONS]


# ---------------------------------------------------------------- the checkers have teeth


@pytest.mark.parametrize("lesson", LESSONS, ids=lesson_id)
def test_reference_solution_passes_every_check(lesson: Lesson):
    module = load_module(lesson.solution, f"reference_{lesson.id}")
    results = run_checks(lesson.id, module)
    assert len(results) >= 5, f"{lesson.id}: only {len(results)} checks"
    failed = [str(result) for result in results if not result.passed]
    assert not failed, "\n".join(failed)


def starter_code(lesson: Lesson) -> str:
    text = lesson.page.read_text(encoding="utf-8").split("### Starter code", 1)[1]
    return re.search(r"^```python\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)[1]


@pytest.mark.parametrize("lesson", LESSONS, ids=lesson_id)
def test_starter_code_runs_but_does_not_pass(lesson: Lesson, tmp_path: Path):
    path = tmp_path / f"starter_{lesson.id}.py"
    path.write_text(starter_code(lesson), encoding="utf-8")
    module = load_module(path, f"starter_{lesson.id}")  # the starter runs clean
    results = run_checks(lesson.id, module)
    assert any(not result.passed for result in results), "the starter code already passes"


@pytest.mark.unit
@pytest.mark.parametrize("lesson", LESSONS, ids=lesson_id)
def test_each_lesson_has_several_wrong_solutions(lesson: Lesson):
    wrong = wrong_solutions(lesson.id)
    assert len(wrong) >= 4, f"{lesson.id}: {[p.name for p in wrong]}"


def lesson_subjects(lesson_id: str) -> list[str]:
    """What a lesson checker's verdicts depend on."""
    lesson = BY_ID[lesson_id]
    return [
        f"snippets/_checks/{lesson_id}.py",
        lesson.solution.relative_to(ROOT).as_posix(),
        lesson.page.relative_to(ROOT).as_posix(),
        "snippets/check_solution.py",
    ]


def wrong_sampled() -> list:
    """Every wrong solution; the default tier runs one per lesson (tests/tiers.py)."""
    return tiers.one_per(
        WRONG,
        lambda path: path.parent.name,
        lambda path: [*lesson_subjects(path.parent.name), path.relative_to(ROOT).as_posix()],
    )


@pytest.mark.parametrize("path", wrong_sampled(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_wrong_solution_fails_the_check_it_names(path: Path):
    """The checks up to the named one run, in order (``until``): the named check's result is the
    full run's, and the later checks, which cannot change it, are not paid for."""
    lesson_id = path.parent.name
    name = named_check(path)
    descriptions = [item.description for item in checks_for(lesson_id)]
    assert name in descriptions, f"{path.name} names an unknown check: {name!r}"
    module = load_module(path, f"wrong_{lesson_id}_{path.stem}")
    result = results_by_description(lesson_id, module, until=name)[name]
    assert not result.passed, f"{path.name} passed '{name}': the check has no teeth"
    message = result.message
    assert message and message != "assertion failed", f"{path.name}: no message"
    assert ("expected" in message and "got" in message) or message.startswith("raised "), message


# ---------------------------------------------------------------- the command line


# The same command line as the exercises' (test_exercises.py, test_check_messages.py: pass,
# fail, every bad command line, in both tiers); a lesson is one more id. Run again from the
# lessons' side when the CLI, a lesson's checker or solution, or this file changes.
CLI = [
    "snippets/check_solution.py",
    "snippets/_checks/",
    "snippets/jit_of_scan/",
    "tests/solutions/",
    "tests/test_lessons.py",
]


@tiers.only_when_changed(*CLI)
def test_cli_passes_the_reference_solution_with_one_line_per_check():
    done = run_cli("jit_scan_sum", "snippets/jit_of_scan/solution.py")
    lines = done.stdout.strip().splitlines()
    count = len(checks_for("jit_scan_sum"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(lines) == count + 1
    assert all(line.startswith("PASS  ") for line in lines[:-1])
    assert lines[-1] == f"{count} passed, 0 failed"


@tiers.only_when_changed(*CLI)
def test_cli_fails_a_wrong_solution_with_a_message_and_non_zero_exit():
    done = run_cli("jit_scan_sum", "tests/solutions/jit_scan_sum/wrong_float32_carry.py")
    assert done.returncode == 1
    fail = [line for line in done.stdout.splitlines() if line.startswith("FAIL  ")]
    assert any(
        line.startswith("FAIL  float16 in, float16 out")
        and "expected dtype float16, got float32" in line
        for line in fail
    ), done.stdout
    assert re.search(r"^\d+ passed, [1-9]\d* failed$", done.stdout, re.MULTILINE)


@tiers.only_when_changed(*CLI)
def test_cli_rejects_unknown_lessons_and_missing_files():
    unknown = run_cli("no_such_lesson", "snippets/jit_of_scan/solution.py")
    assert unknown.returncode != 0 and "unknown exercise 'no_such_lesson'" in unknown.stderr
    assert "jit_scan_sum" in unknown.stderr  # lists the known ids
    missing = run_cli("jit_scan_sum", "no/such/file.py")
    assert missing.returncode == 2 and "no such file" in missing.stderr
    usage = run_cli()
    assert usage.returncode == 2 and "jit_scan_sum" in usage.stderr
