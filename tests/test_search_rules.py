"""The search-quality command's verdict (tests/search/quality.py), without a site or Node: exact
counts, and a FAIL line naming each goal missed (it once printed "90% (goal 90%)" at 89.9%)."""

from __future__ import annotations

import pytest

from tests.search import quality

pytestmark = pytest.mark.unit


def made_up_outcomes(count: int, first: int, lost: int = 0) -> list[quality.Outcome]:
    question = quality.Question("q", ("course/x/#a",), "src")
    return [
        quality.Outcome(
            f"question {i}",
            question,
            "course/x/#a",
            1 if i < first else 2,
            None if i >= count - lost else 1,
        )
        for i in range(count)
    ]


def test_just_under_the_goal_prints_the_exact_fraction_and_a_fail_line(monkeypatch, capsys):
    found = made_up_outcomes(79, 71)  # 89.87%, which a rounded share printed as the goal's 90%
    assert quality.first_needed(79) == 72 and quality.first_needed(70) == 63
    (line,) = quality.misses("questions", found)
    assert line == "FAIL questions: the first result answers 71/79; the goal of 90% needs 72/79"
    assert "71/79 (goal 90%: 72/79, 1 short)" in quality.summary("questions", found)
    assert not quality.meets_goal(found)

    monkeypatch.setattr(quality, "unknown_answers", lambda site, suite: [])
    monkeypatch.setattr(quality, "run_suite", lambda site, suite: (found, []))
    assert quality.main(["site"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == line


def test_meeting_the_goal_says_how_many_more_may_miss(monkeypatch, capsys):
    found = made_up_outcomes(77, 70)
    assert quality.misses("questions", found) == [] and quality.meets_goal(found)
    assert "70/77 (goal 90%: 70/77, 0 more may miss)" in quality.summary("questions", found)
    monkeypatch.setattr(quality, "unknown_answers", lambda site, suite: [])
    monkeypatch.setattr(quality, "run_suite", lambda site, suite: (found, made_up_outcomes(3, 3)))
    assert quality.main(["site"]) == 0
    assert "FAIL" not in capsys.readouterr().out


def test_a_question_with_no_answer_in_the_first_pages_fails_by_name():
    found = made_up_outcomes(10, 10, lost=1)
    (line,) = quality.misses("word forms", found)
    assert line.startswith("FAIL word forms: no answer in the first 3 pages for 1/10")
    assert line.endswith("question 9")
