"""Practice at the end of every chapter (issue #40): each exercise, quiz question and practice-track
lesson links to the chapters it practises; the build turns those links around into a "Practise
this" box at the end of each chapter, and the home page counts the items, so neither is typed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

from engine.page.parser import read_pages
from engine.site import practice
from tests import tiers
from tests.helpers import CONFIG, mkdocs_build


def site_nav() -> list:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    root = Path(__file__).resolve().parents[1]
    return yaml.load((root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)["nav"]


CHAPTERS = [path for _, path in practice.course_nav(site_nav())]
ITEMS = practice.items({page.path: page for page in read_pages([])}, CHAPTERS)


@pytest.mark.unit
def test_the_site_has_every_kind_of_practice_item():
    assert {item.kind for item in ITEMS} == {"exercise", "quiz", "lesson"}
    assert len(CHAPTERS) >= 10


@pytest.mark.unit
@pytest.mark.parametrize("chapter", CHAPTERS)
@pytest.mark.page_rule
def test_every_chapter_is_practised_by_some_item(chapter: str):
    assert practice.box(chapter, ITEMS), (
        f"{chapter}: no exercise, quiz question or lesson links to it; link one from the "
        "practice pages (docs/practice/, docs/track/) to the section it practises"
    )


@pytest.mark.unit
@pytest.mark.parametrize("item", ITEMS, ids=lambda item: f"{item.page}#{item.anchor}")
@pytest.mark.page_rule
def test_every_practice_item_links_a_chapter(item: practice.Item):
    assert item.chapters, f"{item.page}: '{item.title}' links to no course chapter"


EXERCISE = """
## Exercise {n}: number {n} {{ #ex-{n} }}

Practise [the chapter](../course/chapter.md#top).

```python
# ## not a heading: code
print({n})
```
"""

QUIZ = "# Quiz\n\n## 1. A question { #q-one }\n\nSee [the chapter](../course/chapter.md).\n"
NAV = "nav:\n  - Home: index.md\n  - Course:\n    - Chapter: course/chapter.md\n"


def build_practice_site(root: Path, exercises: int) -> None:
    docs = root / "docs"
    for folder in ("course", "practice"):
        (docs / folder).mkdir(parents=True, exist_ok=True)
    (root / "mkdocs.yml").write_text(CONFIG + NAV)
    (docs / "index.md").write_text("# Home\n\n<!-- practice-counts -->\n")
    (docs / "course" / "chapter.md").write_text("---\nlearn: x\n---\n# Chapter\n\nText.\n")
    body = "".join(EXERCISE.format(n=n) for n in range(1, exercises + 1))
    (docs / "practice" / "exercises.md").write_text("# Exercises\n" + body)
    (docs / "practice" / "quiz.md").write_text(QUIZ)
    done = mkdocs_build(root)
    assert done.returncode == 0, done.stderr


def text_of(root: Path, page: str, selector: str) -> str:
    html = (root / "site" / page).read_text(encoding="utf-8")
    return BeautifulSoup(html, "html.parser").select_one(selector).get_text(" ", strip=True)


# Two throwaway builds: the engine's counts across builds. The real site's links and counts are
# checked in both tiers by the tests above.
@tiers.only_when_changed("engine/", "tests/helpers.py", "tests/test_practice_links.py")
def test_adding_an_exercise_changes_the_home_count_and_the_chapter_box(tmp_path):
    build_practice_site(tmp_path, exercises=2)
    assert text_of(tmp_path, "index.html", "article").startswith("Home 2 exercises, 0 practice")
    box = text_of(tmp_path, "course/chapter/index.html", "article .admonition.example")
    assert box == (
        "Practise this Exercise: Exercise 1: number 1 Exercise: Exercise 2: number 2 "
        "Quiz: 1. A question"
    )
    build_practice_site(tmp_path, exercises=3)
    assert "3 exercises, 0 practice-track lessons and 1 quiz question;" in text_of(
        tmp_path, "index.html", "article"
    )
    box = text_of(tmp_path, "course/chapter/index.html", "article .admonition.example")
    assert "Exercise 3: number 3" in box
