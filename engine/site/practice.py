"""The course's chapters (the nav's sections that the policy's `course-sections` names) with the
home page's table of them, and the practice items (exercises, quiz questions, practice-track
lessons) with the chapters their own links name: each chapter ends with a "Practise this" box
built from them, and the home page counts them, so neither can go stale."""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from engine.page.model import MarkupError, Page
from engine.page.policy import policy
from engine.page.syntax import HEADING, linked_pages, outside_fences
from engine.site.labels import table_cell

HEADING_ID = re.compile(r"\{\s*#(?P<id>[\w-]+)\s*\}\s*$")


def course_nav(nav: list) -> list[tuple[str, str]]:
    """The (title, docs path) of each page in the nav's chapter sections, in reading order."""
    names = policy().course_sections
    parts = [item[name] for item in nav if isinstance(item, dict) for name in item if name in names]
    return [
        (title, f"docs/{uri}") for part in parts for entry in part for title, uri in entry.items()
    ]


def course_table(course: list[tuple[str, str]], pages: dict[str, Page], page_path: str) -> str:
    """The home page's course table: each row a link and the page's `learn:` line."""
    here = posixpath.dirname(page_path)
    rows = []
    for title, path in course:
        learn = pages[path].learn if path in pages else ""
        if not learn:
            raise MarkupError(
                f"{path}: its front matter has no `learn:` line, which the home page's "
                "course table shows (what a reader can do after the page)"
            )
        rows.append(
            f"| [{table_cell(title)}]({posixpath.relpath(path, here)}) | {table_cell(learn)} |"
        )
    return "| Section | You will be able to |\n| --- | --- |\n" + "\n".join(rows) + "\n"


class Item(NamedTuple):
    """One exercise, quiz question or lesson: where it is and the chapters it links to."""

    kind: str  # "exercise", "quiz", "lesson"
    title: str
    page: str  # docs/... path
    anchor: str  # "" for a whole page
    chapters: tuple[str, ...]


def items(pages: dict[str, Page], chapters: list[str]) -> list[Item]:
    """Every practice item of the site, in page order."""
    found = []
    rules = policy()
    for path in sorted(pages):
        if path in rules.exercise_pages or path in rules.quiz_pages:
            kind = "exercise" if path in rules.exercise_pages else "quiz"
            found += [_item(kind, path, *part, chapters) for part in _sections(pages[path])]
        elif path.startswith(rules.lesson_pages) and not path.endswith("/index.md"):
            page = pages[path]
            found.append(_item("lesson", path, page.title, "", page.text, chapters))
    return found


def _item(kind: str, path: str, title: str, anchor: str, text: str, chapters: list[str]) -> Item:
    linked = linked_pages(text, path)
    return Item(kind, title, path, anchor, tuple(c for c in chapters if c in linked))


def _sections(page: Page) -> list[tuple[str, str, str]]:
    """(title, id, text) of each H2 that has an id: one exercise or question each."""
    sections: list[tuple[str, str, list[str]]] = []
    for line in outside_fences(page.text.splitlines(keepends=True)):
        heading, anchor = HEADING.match(line), HEADING_ID.search(line)
        if heading and len(heading[1]) == 2 and anchor:
            sections.append((heading["text"], anchor["id"], []))
        elif sections:
            sections[-1][2].append(line)
    return [(title, anchor, "".join(text)) for title, anchor, text in sections]


KIND_WORDS = {"exercise": "Exercise", "lesson": "Practice track", "quiz": "Quiz"}


def box(chapter: str, found: list[Item]) -> str:
    """The "Practise this" box that ends ``chapter``: each item that links to it."""
    here = posixpath.dirname(chapter)
    mine = [item for item in found if chapter in item.chapters]
    if not mine:
        return ""
    lines = []
    for item in mine:
        target = posixpath.relpath(item.page, here) + (f"#{item.anchor}" if item.anchor else "")
        lines.append(f"    - {KIND_WORDS[item.kind]}: [{item.title}]({target})")
    return '!!! example "Practise this"\n\n' + "\n".join(lines) + "\n"


def counts(found: list[Item]) -> str:
    """One sentence for the home page: how many of each kind there are."""
    nouns = {"exercise": "exercise", "lesson": "practice-track lesson", "quiz": "quiz question"}
    counted = (_count(sum(item.kind == kind for item in found), nouns[kind]) for kind in nouns)
    exercises, lessons, questions = counted
    return (
        f"{exercises}, {lessons} and {questions}; each chapter ends with the ones that practise it."
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
