"""The home page's course table: one row per chapter (the nav's Course and Beyond the basics
sections, `course-sections` in the policy), in the nav's reading order."""

from __future__ import annotations

import posixpath

from engine.page.model import MarkupError, Page
from engine.page.policy import policy
from engine.site.labels import table_cell


def course_nav(nav: list) -> list[tuple[str, str]]:
    """The (title, docs path) of each page in the nav's chapter sections, in reading order."""
    names = policy().course_sections
    parts = [item[name] for item in nav if isinstance(item, dict) for name in item if name in names]
    return [
        (title, f"docs/{uri}") for part in parts for entry in part for title, uri in entry.items()
    ]


def render(course: list[tuple[str, str]], pages: dict[str, Page], page_path: str) -> str:
    """The table's Markdown, each row a link and the page's `learn:` line."""
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
