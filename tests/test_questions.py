"""The page "Questions people ask" (issue #62): rendered from docs/data/questions.toml, each
question linked to the section that answers it; a link to a missing page or anchor stops the
build, naming the data file and the row."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.page.model import ROOT, MarkupError, Page
from engine.site import questions
from tests.helpers import site_page

pytestmark = pytest.mark.unit

ANSWER = Page(
    "docs/beyond/demo.md",
    title="A demo chapter",
    text="# A demo chapter\n\n## Reading past the end { #oob-read }\n\nText.\n\n"
    "Proof.\n{: #fact-one .jd-fact }\n\n```python\n# { #not-an-anchor }\n```\n",
)
ROW = {
    "asked": "Why no error out of bounds?",
    "source": "https://github.com/jax-ml/jax/issues/3989",
    "answer": "beyond/demo.md#oob-read",
}


def render(*rows: dict) -> str:
    return questions.render(list(rows), {ANSWER.path: ANSWER}, "docs/reference/questions.md")


def test_a_row_renders_its_question_its_answer_and_its_source():
    text = render(ROW, ROW | {"answer": "beyond/demo.md#fact-one", "asked": "Another?"})
    assert text.startswith("## A demo chapter\n\n- Why no error out of bounds?")
    assert "[Reading past the end](../beyond/demo.md#oob-read)" in text
    assert "[A demo chapter](../beyond/demo.md#fact-one)" in text  # no heading: the page's title
    assert "[jax-ml/jax#3989](https://github.com/jax-ml/jax/issues/3989)" in text
    pull = render(ROW | {"source": "https://github.com/jax-ml/jax/pull/22801"})
    assert "[jax-ml/jax PR #22801](https://github.com/jax-ml/jax/pull/22801)" in pull


def test_a_missing_anchor_or_page_stops_the_build_naming_the_file_and_the_row():
    with pytest.raises(MarkupError, match=r"questions\.toml, question 2 .*has no anchor #gone"):
        render(ROW, ROW | {"answer": "beyond/demo.md#gone"})
    with pytest.raises(MarkupError, match=r"question 1 .*no page docs/beyond/nope\.md"):
        render(ROW | {"answer": "beyond/nope.md#oob-read"})
    with pytest.raises(MarkupError, match="has no anchor #not-an-anchor"):  # in code: no id
        render(ROW | {"answer": "beyond/demo.md#not-an-anchor"})


def test_a_row_without_a_field_or_with_an_unknown_one_is_refused(tmp_path: Path):
    data = tmp_path / questions.DATA
    data.parent.mkdir(parents=True)
    data.write_text('[[question]]\nasked = "Why?"\nsource = "https://x"\nanswer = "a.md"\n')
    with pytest.raises(MarkupError, match=r"question 1 \('Why\?'\).*page#anchor"):
        questions.load(tmp_path)
    data.write_text('[[question]]\nasked = "Why?"\nsource = "s"\nanswer = "a.md#b"\nhow = 1\n')
    with pytest.raises(MarkupError, match=r"unknown \['how'\]"):
        questions.load(tmp_path)


def test_every_question_of_the_site_links_to_a_section_that_exists():
    rows = questions.load(ROOT)
    paths = {f"docs/{row['answer'].split('#')[0]}" for row in rows}
    pages = {path: site_page(path) for path in paths}
    text = questions.render(rows, pages, "docs/reference/questions.md")
    assert text.count("\n- ") == len(rows) >= 80
    assert len({row["asked"] for row in rows}) == len(rows), "a question is listed twice"
    thread = re.compile(r"https://github\.com/[\w.-]+/[\w.-]+/(issues|pull)/\d+")
    assert all(thread.fullmatch(row["source"]) for row in rows), "a source is not a thread"
