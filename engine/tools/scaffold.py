"""Scaffold a new page: ``nox -s new -- <part>/<page-slug> "Title"``.

Writes the page in the house shape, its first snippet and its nav entry in ``mkdocs.yml`` (the
part's section, made if new), all or nothing; the result builds and passes the tests as it is.
``--check`` then runs the page once, as ``nox -s page`` does. Last it prints the checklist for
the page's part (``engine.tools.checklist``): what it wrote, what is left by hand, and the test
that holds each rule.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from pathlib import Path
from typing import NamedTuple

import yaml
from mkdocs.utils.yaml import get_yaml_loader

from engine.page.model import ROOT, page_slug, page_stem
from engine.page.parser import page_paths
from engine.page.policy import wants_notebook
from engine.tools.checklist import CHAPTERS, checklist

SLUG = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
SNIPPET_NAME = "first_example"
RESERVED_SLUGS = {"index"}
PLAIN_YAML_TITLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 .,?!()'/+&-]*")


class ScaffoldError(ValueError):
    """A request the scaffold refuses; the message says what to change."""


class Plan(NamedTuple):
    """Every file the scaffold writes, computed before anything is written."""

    page: Path
    snippet: Path
    files: dict[Path, str]  # the page, its snippet and mkdocs.yml: path -> text
    nav_line: str


# ---------------------------------------------------------------- checks


def split_target(target: str) -> tuple[str, str]:
    """``practice/demo-page`` -> (``practice``, ``demo-page``); a ScaffoldError says why not."""
    parts = page_stem(target.strip()).split("/")
    if len(parts) != 2:
        raise ScaffoldError(
            f"'{target}' is not <part>/<page-slug>: give a section folder and a page name, "
            "e.g. practice/demo-page"
        )
    part, slug = parts
    for label, value in (("part", part), ("page slug", slug)):
        if not SLUG.fullmatch(value):
            raise ScaffoldError(
                f"{label} '{value}' must be lowercase kebab-case (letters, digits and single "
                "hyphens, starting with a letter), e.g. 'demo-page'"
            )
    if slug in RESERVED_SLUGS:
        raise ScaffoldError(f"'{slug}' is reserved (index.md is a section's landing page)")
    return part, slug


def check_title(title: str) -> str:
    title = title.strip()
    if not title:
        raise ScaffoldError('the title is empty: pass it in quotes, e.g. "Demo page"')
    if "\n" in title or len(title) > 80:
        raise ScaffoldError("the title must be one line of at most 80 characters")
    if title.startswith(("#", "-", "!", "<")):
        raise ScaffoldError(f"the title may not start with '{title[0]}'")
    return title


def check_free(root: Path, part: str, slug: str) -> None:
    """Refuse a page that exists, or whose snippet folder another page already owns."""
    page = root / "docs" / part / f"{slug}.md"
    if page.exists():
        raise ScaffoldError(f"{page.relative_to(root)} already exists; pick another page slug")
    wanted = page_slug(page)
    for other in page_paths(root):
        if Path(other).name != "index.md" and page_slug(other) == wanted:
            raise ScaffoldError(
                f"page slug '{slug}' clashes with {other}: both would own "
                f"snippets/{wanted}/ (snippet folders are named by page slug); pick another slug"
            )
    if (root / "snippets" / wanted).exists():
        raise ScaffoldError(
            f"snippets/{wanted}/ already exists and no page owns it; remove it or pick another slug"
        )
    if (root / "snippets" / f"{wanted}.py").exists():
        raise ScaffoldError(f"snippets/{wanted}.py is a helper module; pick another slug")


# ---------------------------------------------------------------- the nav entry


def yaml_title(title: str) -> str:
    """The title as a YAML scalar: plain when safe, else double-quoted (JSON is valid YAML)."""
    if PLAIN_YAML_TITLE.fullmatch(title) and not title.endswith((" ", "?", ":")):
        return title
    return json.dumps(title, ensure_ascii=False)


def _indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def add_nav_entry(mkdocs_text: str, part: str, title: str, path: str) -> tuple[str, str]:
    """Insert ``- Title: path`` at the end of the nav section listing ``part``'s pages (or a new
    section before ``about/``'s); returns (text, entry). A text edit keeps the file's comments
    and tags (a round-trip YAML library would be a dependency for one list); ``verify_nav``
    checks that only the entry changed."""
    lines = mkdocs_text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if re.match(r"^nav:\s*(#.*)?$", line)), None)
    if start is None:
        raise ScaffoldError("mkdocs.yml has no top-level 'nav:' list; add the page to it by hand")
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t"):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # trailing blank lines belong to no entry
    items = [i for i in range(start + 1, end) if re.match(r"^\s*- ", lines[i])]
    if not items:
        raise ScaffoldError("mkdocs.yml's nav is empty or not a block list; add the page by hand")
    top = min(_indent_of(lines[i]) for i in items)
    tops = [i for i in items if _indent_of(lines[i]) == top]
    sections = []  # (first line, end line, child indent, pages under it)
    for first, last in itertools.pairwise([*tops, end]):
        children = [i for i in items if first < i < last]
        if children:
            paths = re.findall(r"([\w./-]+\.md)\b", "".join(lines[first:last]))
            sections.append((first, last, _indent_of(lines[children[0]]), paths))
    child_indent = sections[0][2] if sections else top + 4

    entry = f"{' ' * child_indent}- {yaml_title(title)}: {path}\n"
    owner = next((s for s in sections if any(p.startswith(f"{part}/") for p in s[3])), None)
    if owner is not None:
        at = owner[1]
        while not lines[at - 1].strip():
            at -= 1
        insert = [entry]
    else:
        about = next(
            (s for s in sections if s[3] and all(p.startswith("about/") for p in s[3])), None
        )
        at = about[0] if about else end
        label = part.replace("-", " ").capitalize()  # worked-examples -> Worked examples
        insert = [f"{' ' * top}- {yaml_title(label)}:\n", entry]
    if not lines[at - 1].endswith("\n"):
        lines[at - 1] += "\n"
    lines[at:at] = insert
    return "".join(lines), entry.strip()


def verify_nav(old_text: str, new_text: str, path: str) -> None:
    """Read both versions as MkDocs reads mkdocs.yml and check that only our entry was added."""

    def flatten(nav) -> list[str]:
        found = []
        for item in nav or []:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            found += flatten(value) if isinstance(value, list) else [value]
        return found

    loader = get_yaml_loader()  # MkDocs' own, with the tags its config takes (!ENV)
    try:
        old, new = yaml.load(old_text, Loader=loader), yaml.load(new_text, Loader=loader)
    except yaml.YAMLError as error:
        raise ScaffoldError(
            f"editing mkdocs.yml's nav would break it ({error}); add it by hand"
        ) from None
    if sorted(flatten(new["nav"])) != sorted([*flatten(old["nav"]), path]):
        raise ScaffoldError("could not add the nav entry to mkdocs.yml safely; add it by hand")
    if {k: v for k, v in new.items() if k != "nav"} != {k: v for k, v in old.items() if k != "nav"}:
        raise ScaffoldError("editing the nav would change other settings in mkdocs.yml")


# ---------------------------------------------------------------- the page


# The templates are files (engine/tools/templates/), filled in with str.format.
TEMPLATES = Path(__file__).with_name("templates")


def template(name: str) -> str:
    return (TEMPLATES / name).read_text(encoding="utf-8")


def plan(root: Path, target: str, title: str) -> Plan:
    """Check the request and compute every file to write; raises ScaffoldError on bad input."""
    part, slug = split_target(target)
    title = check_title(title)
    check_free(root, part, slug)
    page_rel = f"docs/{part}/{slug}.md"
    slug_dir = page_slug(page_rel)
    mkdocs = root / "mkdocs.yml"
    if not mkdocs.is_file():
        raise ScaffoldError(f"{mkdocs} not found: run this from the project root")
    old = mkdocs.read_text(encoding="utf-8")
    new, nav_line = add_nav_entry(old, part, title, f"{part}/{slug}.md")
    verify_nav(old, new, f"{part}/{slug}.md")
    quoted = json.dumps(title, ensure_ascii=False)[1:-1]  # inside the front matter's quotes
    view = "notebook_view: true\n" if wants_notebook(page_rel) and part in CHAPTERS else ""
    page_text = template("page.md.tmpl").format(
        title=title, quoted=quoted, slug_dir=slug_dir, snippet=SNIPPET_NAME, notebook_view=view
    )
    page, snippet = root / page_rel, root / "snippets" / slug_dir / f"{SNIPPET_NAME}.py"
    snippet_text = template("snippet.py.tmpl").format(page=page_rel)
    return Plan(page, snippet, {page: page_text, snippet: snippet_text, mkdocs: new}, nav_line)


def write(plan: Plan) -> None:
    for path in plan.files:  # every folder first, then every file
        path.parent.mkdir(parents=True, exist_ok=True)
    for path, text in plan.files.items():
        path.write_text(text, encoding="utf-8")


def next_steps(plan: Plan, root: Path) -> str:
    page, snippet = (path.relative_to(root).as_posix() for path in (plan.page, plan.snippet))
    steps = template("next_steps.txt.tmpl").format(page=page, snippet=snippet, plan=plan)
    return steps.rstrip() + "\n\n" + checklist(page.split("/")[1], page)


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(prog="nox -s new --", description=__doc__.splitlines()[0])
    parser.add_argument("target", help="<part>/<page-slug>, e.g. practice/demo-page")
    parser.add_argument("title", help='the page title, in quotes, e.g. "Demo"')
    parser.add_argument("--check", action="store_true", help="run the new page once afterwards")
    args = parser.parse_args(argv)
    try:
        result = plan(root, args.target, args.title)
    except ScaffoldError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    write(result)
    if args.check:
        from engine.tools.page_outputs import main as check_page

        page = result.page.relative_to(root).as_posix()
        print(f"Running {page} once, as the build will:")
        if check_page([page]) != 0:
            print("error: the scaffolded page does not run; see above", file=sys.stderr)
            return 1
        print()
    print(next_steps(result, root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
