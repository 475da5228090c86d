"""The page "Questions people ask", rendered from ``docs/data/questions.toml``: each question in
its asker's words, the thread it came from and a link to the section that answers it. A link to
a page or an anchor the site does not have stops the build, naming the file and the row."""

from __future__ import annotations

import posixpath
import re
import tomllib
from pathlib import Path

from markdown.extensions.toc import slugify

from engine.page.model import MarkupError, Page
from engine.page.syntax import HEADING, outside_fences

DATA = "docs/data/questions.toml"
FIELDS = {"asked", "source", "answer", "also"}
ANCHOR = re.compile(r"\{:?\s*#(?P<id>[\w-]+)[^}]*\}|\bid=\"(?P<html>[\w-]+)\"")


def load(root: Path) -> list[dict]:
    """The rows of the data file; a row missing a field, or with one it does not know, is an
    error naming the row."""
    rows = tomllib.loads((root / DATA).read_text("utf-8")).get("question", [])
    for number, row in enumerate(rows, 1):
        missing = {"asked", "source", "answer"} - row.keys()
        unknown = row.keys() - FIELDS
        if missing or unknown or "#" not in row.get("answer", "#"):
            raise MarkupError(
                f"{where(number, row)}: needs asked, source and answer (a page#anchor), and no "
                f"other field but also; missing {sorted(missing)}, unknown {sorted(unknown)}"
            )
    return rows


def where(number: int, row: dict) -> str:
    return f"{DATA}, question {number} ({row.get('asked', '')[:60]!r})"


def anchors(page: Page) -> dict[str, str]:
    """Each id the page's text gives (a heading's, an attribute list's, an HTML element's), with
    the heading's text where it is a heading's ("" otherwise). A heading without an id gets the
    one the toc extension makes of its text."""
    found: dict[str, str] = {}
    for line in outside_fences(page.text.splitlines()):
        heading = HEADING.match(line)
        found |= dict.fromkeys(line_ids(line), heading["text"] if heading else "")
    return found


def line_ids(line: str) -> list[str]:
    """The ids a line gives: its attribute lists' and HTML elements', else a heading's own."""
    ids = [match["id"] or match["html"] for match in ANCHOR.finditer(line)]
    if not ids and (heading := HEADING.match(line)):
        ids = [slugify(heading["text"].replace("`", ""), "-")]
    return ids


def render(rows: list[dict], pages: dict[str, Page], page_path: str) -> str:
    """One part per answering page, in the data file's order of first mention, each question a
    list item with its answer's link (checked) and its source's."""
    here = posixpath.dirname(page_path)
    parts: dict[str, list[str]] = {}
    for number, row in enumerate(rows, 1):
        target, anchor = row["answer"].split("#", 1)
        path = f"docs/{target}"
        if path not in pages:
            raise MarkupError(f"{where(number, row)}: no page {path}")
        found = anchors(pages[path])
        if anchor not in found:
            raise MarkupError(f"{where(number, row)}: {path} has no anchor #{anchor}")
        link = f"{posixpath.relpath(path, here)}#{anchor}"
        section = found[anchor] or pages[path].title
        thread = row["source"].removeprefix("https://github.com/").replace("/issues/", "#")
        parts.setdefault(path, []).append(
            f"- {row['asked']}  \n"
            f"  Answered in [{section}]({link}) · asked in "
            f"[{thread.replace('/pull/', ' PR #')}]({row['source']})"
        )
    return (
        "\n\n".join(
            f"## {pages[path].title}\n\n" + "\n".join(items) for path, items in parts.items()
        )
        + "\n"
    )
