"""`nox -s new`: the scaffold, run on a small project of its own in a temporary folder."""

from __future__ import annotations

import textwrap

import pytest
import yaml

from engine.page.model import ROOT
from engine.page.parser import read_page
from engine.run.pages import run_page
from engine.tools import scaffold
from engine.tools.scaffold import ScaffoldError, add_nav_entry

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
        ("plain", None),
        ("check", None),  # the template teaches folded checks
        ("plain", "first_example"),
        ("bad", None),
        ("good", None),
    ]
    result = run_page(parsed)  # the scaffold passes the build's contracts as it is
    assert result.outcomes[2].output == "compilations of running_total: 2\n"
    assert result.outcomes[3].error.startswith("TracerBoolConversionError")

    printed = capsys.readouterr().out
    assert "Edit next:" in printed and "nox -s page -- docs/practice/demo-page.md" in printed


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
