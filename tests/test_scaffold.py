"""`nox -s new`: the scaffold, run on a small project of its own in a temporary folder."""

from __future__ import annotations

import ast
import re
import textwrap

import pytest
import yaml

from engine.page.model import ROOT
from engine.page.parser import read_page
from engine.run.pages import run_page
from engine.site.questions import DATA as QUESTIONS_DATA
from engine.tools import checklist, scaffold
from engine.tools.scaffold import ScaffoldError, add_nav_entry
from tests.helpers import page as parse_made_up

MKDOCS = """\
site_name: test
nav:
  - Home: index.md
  - Course:
      - Why compile?: course/why-compile.md
      - "Hands-on: applying jit": course/hands-on.md
  - About:
      - Conventions: about/conventions.md
"""


@pytest.fixture
def small_project(tmp_path):
    """A small project of its own, so the tests do not depend on which pages exist today."""
    for page in ("index.md", "course/why-compile.md", "course/hands-on.md", "about/conventions.md"):
        (tmp_path / "docs" / page).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / page).write_text("# A page\n", encoding="utf-8")
    (tmp_path / "snippets" / "why_compile").mkdir(parents=True)
    (tmp_path / "snippets" / "jitkit.py").write_text("", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(MKDOCS, encoding="utf-8")
    return tmp_path


def nav_paths(nav) -> list[str]:
    found = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        found += nav_paths(value) if isinstance(value, list) else [value]
    return found


def test_scaffolded_page_runs_clean_and_is_in_the_nav(small_project, capsys):
    assert scaffold.main(["practice/demo-page", "Demo"], root=small_project) == 0
    page = small_project / "docs" / "practice" / "demo-page.md"
    snippet = small_project / "snippets" / "demo_page" / "first_example.py"
    assert page.is_file() and snippet.is_file()
    text = page.read_text(encoding="utf-8")
    assert text.startswith("---\ndescription: ")
    assert "\n# Demo\n" in text
    assert "<!-- snippet: first_example -->" in text
    assert "<!-- bad: raises TracerBoolConversionError -->" in text and "<!-- good -->" in text
    assert '!!! tip "Takeaway"' in text

    config = yaml.safe_load((small_project / "mkdocs.yml").read_text(encoding="utf-8"))
    sections = {
        next(iter(item)): item[next(iter(item))] for item in config["nav"] if isinstance(item, dict)
    }
    assert {"Demo": "practice/demo-page.md"} in sections["Practice"]
    assert nav_paths(config["nav"])[-1] == "about/conventions.md"  # About stays last

    parsed = read_page("docs/practice/demo-page.md", root=small_project)
    kinds = [
        ("bad" if b.bad else "good" if b.good else "check" if b.check else "plain", b.snippet)
        for b in parsed.blocks
    ]
    assert kinds == [
        ("plain", None),  # the short version's block
        ("check", None),  # the template teaches folded checks
        ("plain", "first_example"),
        ("check", None),  # the snippet's proof, folded after it
        ("bad", None),
        ("good", None),
    ]
    result = run_page(parsed)  # the scaffold passes the build's contracts as it is
    assert result.outcomes[2].output == "traced for the shapes: [(3,), (6,)]\n"
    assert result.outcomes[4].error.startswith("TracerBoolConversionError")

    printed = capsys.readouterr().out
    assert "Edit next:" in printed and "nox -s page -- docs/practice/demo-page.md" in printed


def page_rule_tests() -> set[str]:
    """Every test marked ``page_rule``, as ``path::name``, read from the test files' source."""
    found = set()
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            marks = getattr(node, "decorator_list", [])
            if any(ast.unparse(mark) == "pytest.mark.page_rule" for mark in marks):
                found.add(f"{path.relative_to(ROOT).as_posix()}::{node.name}")
    return found


@pytest.mark.unit
def test_the_checklist_lists_every_rule_the_tests_enforce_on_a_new_page():
    """A test that holds new pages to a rule is marked `page_rule`; the scaffold's checklist
    must name it, so a rule added to the tests without a line in the checklist fails here."""
    marked = page_rule_tests()
    listed = {rule.test for rule in checklist.RULES if rule.test}
    assert len(marked) >= 10
    assert marked - listed == set(), "add these to engine/tools/checklist.py's RULES"
    assert listed - marked == set(), "RULES names tests not marked @pytest.mark.page_rule"
    contributing = (ROOT / "CONTRIBUTING.md").read_text("utf-8")
    missing = [rule.name for rule in checklist.RULES if f"**{rule.name}**" not in contributing]
    assert not missing, f"CONTRIBUTING.md's checklist does not name {missing}"


@pytest.mark.unit
@pytest.mark.parametrize("part", ["course", "beyond", "track", "practice"])
def test_each_part_gets_its_checklist_and_the_shape_its_tests_hold(small_project, part):
    plan = scaffold.plan(small_project, f"{part}/demo-page", "Demo")
    scaffold.write(plan)
    text = plan.files[plan.page]
    assert ("notebook_view: true\n" in text) == (part in checklist.CHAPTERS)
    parsed = parse_made_up(text, f"docs/{part}/demo-page.md", root=small_project)
    lines = text.splitlines()
    title = lines.index("# Demo")
    first = parsed.blocks[0]
    opening = lines[title + 1 : first.first_line - 1]
    assert not any(line.startswith("## ") for line in opening)  # the short version, then a block
    assert 2 <= len([line for line in opening if line.strip() and "```" not in line]) <= 4
    assert not (first.bad or first.check or first.snippet)
    visible = "\n".join(b.source for b in parsed.blocks if not b.check)
    assert "running_total" in visible  # the snippet's code is among what a reader sees
    assert not re.search(r"^\s*assert\b|jitkit", visible, re.M)  # proof stays folded

    printed = checklist.checklist(part, f"docs/{part}/demo-page.md")
    for rule in checklist.RULES:
        assert (f"  - {rule.name}: " in printed) == (part in rule.parts), rule.name
    assert ("Quiz stub" in printed) == (part in checklist.CHAPTERS)
    if part == "beyond":
        assert "demand-table rows" in printed and "../beyond/demo-page.md" in printed


@pytest.mark.unit
def test_the_checklist_sends_a_contributor_to_files_that_hold_what_it_asks():
    """Each project file the printed list names exists, the demand rows go to the file the page
    "Questions people ask" renders (the list once sent them to a table CONTRIBUTING.md lacks),
    and the quiz stub has the three or four options CONTRIBUTING.md asks for."""
    printed = checklist.checklist("beyond", "docs/beyond/demo-page.md")
    named = set(re.findall(r"[\w/.-]+\.(?:toml|md|py|yml)\b", printed))
    missing = [path for path in named if "demo-page" not in path and not (ROOT / path).is_file()]
    assert len(named) >= 5 and not missing, (
        f"the checklist names files that do not exist: {missing}"
    )
    demand = next(rule for rule in checklist.RULES if rule.name == "demand-table rows")
    assert QUESTIONS_DATA in demand.what
    options = re.findall(r"^(\d)\. ", checklist.QUIZ_STUB, re.M)
    answer = re.search(r'data-answer="(\d)"', checklist.QUIZ_STUB).group(1)
    assert 3 <= len(options) <= 4 and answer in options
    assert f"**{answer}.**" in checklist.QUIZ_STUB  # the answer box names the same option


@pytest.mark.unit
def test_second_page_of_a_part_joins_its_section(small_project):
    assert scaffold.main(["practice/first-one", "First one"], root=small_project) == 0
    assert scaffold.main(["practice/second-one", "Second: with a colon?"], root=small_project) == 0
    config = yaml.safe_load((small_project / "mkdocs.yml").read_text(encoding="utf-8"))
    practice = next(item["Practice"] for item in config["nav"] if "Practice" in item)
    assert practice == [
        {"First one": "practice/first-one.md"},
        {"Second: with a colon?": "practice/second-one.md"},
    ]


@pytest.mark.unit
@pytest.mark.parametrize(
    ("target", "title", "message"),
    [
        ("demo-page", "Demo", "is not <part>/<page-slug>"),
        ("a/b/c", "Demo", "is not <part>/<page-slug>"),
        ("practice/Demo", "Demo", "must be lowercase kebab-case"),
        ("practice/demo_page", "Demo", "must be lowercase kebab-case"),
        ("Practice/demo", "Demo", "part 'Practice' must be lowercase"),
        ("practice/index", "Demo", "reserved"),
        ("practice/demo", "  ", "title is empty"),
        ("practice/demo", "# Demo", "may not start with '#'"),
        ("course/why-compile", "Again", "already exists"),
        ("practice/why-compile", "Again", "clashes with docs/course/why-compile.md"),
        ("practice/jitkit", "Kit", "snippets/jitkit.py is a helper module"),
    ],
)
def test_bad_requests_are_refused_and_nothing_is_written(
    small_project, capsys, target, title, message
):
    before = sorted(p.relative_to(small_project) for p in small_project.rglob("*"))
    mkdocs = (small_project / "mkdocs.yml").read_text(encoding="utf-8")
    assert scaffold.main([target, title], root=small_project) == 2
    assert message in capsys.readouterr().err
    assert sorted(p.relative_to(small_project) for p in small_project.rglob("*")) == before
    assert (small_project / "mkdocs.yml").read_text(encoding="utf-8") == mkdocs


@pytest.mark.unit
def test_an_orphan_snippet_folder_is_refused(small_project):
    (small_project / "snippets" / "lonely").mkdir()
    with pytest.raises(ScaffoldError, match="snippets/lonely/ already exists"):
        scaffold.plan(small_project, "practice/lonely", "Lonely")


NAV = textwrap.dedent("""\
    site_name: x
    nav:
      - Home: index.md
      - Course:
          - One: course/one.md
          - "Two: more": course/two.md

      - About:
          - Conventions: about/conventions.md
    # a comment that stays
    markdown_extensions:
      - admonition
""")


@pytest.mark.unit
def test_nav_entry_joins_an_existing_section_and_keeps_the_rest():
    text, entry = add_nav_entry(NAV, "course", "Three", "course/three.md")
    assert entry == "- Three: course/three.md"
    assert '      - "Two: more": course/two.md\n      - Three: course/three.md\n\n' in text
    assert text.replace("      - Three: course/three.md\n", "") == NAV


@pytest.mark.unit
def test_nav_section_is_created_before_about_or_at_the_end():
    text, _ = add_nav_entry(NAV, "worked-examples", "Demo", "worked-examples/demo.md")
    assert "  - Worked examples:\n      - Demo: worked-examples/demo.md\n  - About:" in text
    no_about = NAV.replace("  - About:\n      - Conventions: about/conventions.md\n", "")
    text, _ = add_nav_entry(no_about, "practice", "Demo", "practice/demo.md")
    assert yaml.safe_load(text)["nav"][-1] == {"Practice": [{"Demo": "practice/demo.md"}]}
    assert text.endswith(
        "  - Practice:\n      - Demo: practice/demo.md\n\n# a comment that stays\n"
        "markdown_extensions:\n  - admonition\n"
    )


@pytest.mark.unit
def test_mkdocs_without_a_nav_is_refused():
    with pytest.raises(ScaffoldError, match="no top-level 'nav:'"):
        add_nav_entry("site_name: x\n", "practice", "Demo", "practice/demo.md")


@pytest.mark.unit
def test_the_real_mkdocs_nav_takes_a_new_section_and_an_entry():
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    new, _ = add_nav_entry(text, "scaffold-check", "Sample", "scaffold-check/sample.md")
    scaffold.verify_nav(text, new, "scaffold-check/sample.md")
    newer, _ = add_nav_entry(new, "scaffold-check", "Other", "scaffold-check/other.md")
    scaffold.verify_nav(new, newer, "scaffold-check/other.md")
    assert newer.count("- Scaffold check:") == 1
