"""Folded checks (issue #39): ``<!-- check: statement -->`` before a block makes it the proof of
the block above it. It runs right after that block in the same namespace, in the build, under
the tests and in the notebook; on the page it is folded under the statement it proves; in the
notebook it is a labelled cell with its code hidden; a failing check names its page and line.
"""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup

from engine.page.model import MarkupError
from engine.run.pages import execute_pages
from engine.run.results import PageFailure
from engine.site.notebooks import build_notebook
from tests.helpers import build_one_page, fence, page

LESSON = fence("squares = [n * n for n in range(4)]\nprint(squares)")
CHECK = fence("assert squares == [0, 1, 4, 9]", "check: squaring 0-3 gives 0, 1, 4 and 9")
DEMO = "# Demo\n\n" + LESSON + "\n" + CHECK


@pytest.mark.unit
def test_a_check_is_a_fact_that_follows_its_block():
    parsed = page(DEMO)
    lesson, check = parsed.blocks
    assert check.check == check.fact == "squaring 0-3 gives 0, 1, 4 and 9"
    assert not lesson.check
    (claim,) = parsed.claims
    assert claim.kind == "fact" and claim.blocks == (1,)


@pytest.mark.unit
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# Demo\n\n" + CHECK, "must follow directly the block it checks"),
        (DEMO.replace(CHECK, "Some prose.\n\n" + CHECK), "must follow directly the block"),
        ("# Demo\n\n" + LESSON + fence("x = 1", "check: nothing"), "must contain assert"),
        (
            "# Demo\n\n" + LESSON + fence("assert True", "check: twice", "fact: twice"),
            "takes no 'fact', 'bad' or 'good' marker",
        ),
    ],
    ids=["nothing-above", "prose-between", "no-assert", "with-fact"],
)
def test_a_misplaced_or_empty_check_is_a_markup_error_with_its_line(text, message):
    with pytest.raises(MarkupError, match=rf"test-page.md:\d+: .*{message}"):
        page(text)


def test_a_failing_check_names_its_page_and_line(tmp_path):
    broken = DEMO.replace("[0, 1, 4, 9]", "[0, 1, 4, 8]")
    with pytest.raises(PageFailure) as caught:
        execute_pages([page(broken)], cache_dir=tmp_path, report=lambda line: None)
    assert str(caught.value).startswith("docs/demo/test-page.md:9: ")  # the check's fence
    assert "squaring 0-3 gives 0, 1, 4 and 9" in str(caught.value)


def test_a_check_whose_code_changed_runs_again(tmp_path):
    """The cache key holds every block of the page: a changed check is no stale proof."""
    execute_pages([page(DEMO)], cache_dir=tmp_path, report=lambda line: None)
    broken = page(DEMO.replace("[0, 1, 4, 9]", "[0, 1, 4, 8]"))
    with pytest.raises(PageFailure):
        execute_pages([broken], cache_dir=tmp_path, report=lambda line: None)


def test_the_site_folds_the_check_under_its_statement(tmp_path):
    done, html = build_one_page(tmp_path, DEMO)
    assert done.returncode == 0, done.stderr
    article = BeautifulSoup(html.read_text(), "html.parser").select_one("article")
    codes = [code.get_text() for code in article.select("div.highlight code")]
    lesson, check = (next(c for c in codes if needle in c) for needle in ("print", "assert"))
    (fold,) = article.select("div.jd-check details")
    assert not fold.has_attr("open")
    assert fold.summary.get_text() == "Checked on every build: squaring 0-3 gives 0, 1, 4 and 9"
    assert check in fold.get_text() and lesson not in fold.get_text()
    assert "[0, 1, 4, 9]" in article.get_text()  # the lesson's output, in view


@pytest.mark.unit
def test_the_notebook_has_the_check_as_a_labelled_cell_with_its_code_hidden():
    parsed = page(DEMO)
    notebook = json.loads(json.dumps(build_notebook(parsed, outcomes=None, environment={})))
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    check = next(cell for cell in code if "squares ==" in "".join(cell["source"]))
    lesson = next(cell for cell in code if "squares = [" in "".join(cell["source"]))
    assert check["metadata"]["jupyter"] == {"source_hidden": True}
    assert check["metadata"]["tags"] == ["check"]
    assert "jupyter" not in lesson["metadata"]
    cells = notebook["cells"]
    label = cells[cells.index(check) - 1]
    assert label["cell_type"] == "markdown" and "squaring 0-3" in "".join(label["source"])


def test_a_check_runs_again_when_only_the_block_it_proves_changed(tmp_path):
    """The proof is not kept from the cache when the lesson above it changed."""
    execute_pages([page(DEMO)], cache_dir=tmp_path, report=lambda line: None)
    changed = page(DEMO.replace("n * n for", "n * n + 1 for"))
    with pytest.raises(PageFailure, match="squaring 0-3 gives 0, 1, 4 and 9"):
        execute_pages([changed], cache_dir=tmp_path, report=lambda line: None)


def badged_root(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jitdocs]\nbadged-pages = ["docs/course/"]\n')
    return tmp_path


@pytest.mark.unit
def test_a_course_section_without_its_badge_is_a_markup_error_at_its_heading(tmp_path):
    text = "# Demo\n\n## Read { #first }\n<!-- badge: must-read -->\n\nText.\n\n## Then\n\nMore.\n"
    root = badged_root(tmp_path)
    with pytest.raises(MarkupError, match=r"course/x.md:8: a section of this page needs a badge"):
        page(text, "docs/course/x.md", root=root)
    fixed = text.replace("## Then\n", "## Then\n<!-- badge: extra -->\n")
    assert [d.value for d in page(fixed, "docs/course/x.md", root=root).directives] == [
        "must-read",
        "extra",
    ]
    assert page(text, "docs/track/x.md", root=root).title == "Demo"  # not a badged part
