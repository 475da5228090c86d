"""Lessons first (issue #39): on every course, beyond-the-basics and track page, the code a reader
sees is code they would type in their own project. Asserts sit in folded checks (at most 5% of
the visible lines are ``assert``), and no visible line reaches into JAX's private API. Visible:
not a folded check, not a ``collapse-code`` snippet, not inside a collapsed ``???`` box."""

from __future__ import annotations

import ast
import re

import pytest

from engine.page.model import ROOT, Block
from engine.page.outline import visible_blocks
from tests.helpers import fence, page, site_page

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs

PAGES = sorted(
    p.relative_to(ROOT).as_posix()
    for part in ("course", "beyond", "track")
    for p in (ROOT / "docs" / part).glob("*.md")
    if p.name != "index.md"
)
MAX_ASSERT_SHARE = 0.05
PRIVATE = {
    "jax._src": re.compile(r"\bjax\._src\b"),
    "a leading-underscore attribute": re.compile(r"\.\_[A-Za-z]\w*"),
    "the .func of a partial": re.compile(r"\.func\b"),
    "Compiled.in_avals (Exported.in_avals is public)": re.compile(r"compiled\w*\.(in|out)_avals"),
    "a monitoring event name": re.compile(r"['\"]/jax/"),
}


def code_lines(block: Block) -> list[str]:
    return [line.strip() for line in block.source.splitlines() if line.strip()]


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.page_rule
def test_asserts_are_at_most_five_percent_of_the_visible_code(path: str):
    lines = [line for block in visible_blocks(site_page(path)) for line in code_lines(block)]
    asserts = [line for line in lines if line.startswith("assert")]
    assert lines, f"{path}: no visible code"
    share = len(asserts) / len(lines)
    assert share <= MAX_ASSERT_SHARE, (
        f"{path}: {len(asserts)} of {len(lines)} visible lines are asserts ({share:.1%}); "
        "move them into a folded check (<!-- check: what it proves -->) below their block"
    )


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.page_rule
def test_visible_code_uses_no_private_jax_api(path: str):
    found = [
        f"{block.page}:{block.first_line + number}: {what}: {line.strip()}"
        for block in visible_blocks(site_page(path))
        for number, line in enumerate(block.source.splitlines())
        for what, pattern in PRIVATE.items()
        if pattern.search(line.split("#", 1)[0])
    ]
    assert not found, "\n".join(found)


def unused_imports(blocks: list[Block]) -> list[str]:
    """Names the blocks import that none of them uses: an import in view is one a reader needs."""
    imported, used = {}, set()
    for block in blocks:
        if block.file:  # a file a reader saves and runs on its own, with its own imports
            continue
        for node in ast.walk(ast.parse(block.source)):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for alias in node.names:
                    name = (alias.asname or alias.name).split(".")[0]
                    imported.setdefault(name, f"{block.where}: {name}")
            elif isinstance(node, ast.Name):
                used.add(node.id)
    return [where for name, where in imported.items() if name not in used]


@pytest.mark.parametrize("path", PAGES)
def test_every_import_in_view_is_used_in_view(path: str):
    """Issue #62: a page imported modules in its first block that only its folds used."""
    unused = unused_imports(visible_blocks(site_page(path)))
    assert not unused, "imported in view, used by no visible block:\n" + "\n".join(unused)


def test_an_import_only_a_fold_uses_is_found():
    shown = fence("import os\nimport re\n\nprint(re.escape('.'))")
    folded_use = fence("assert os.sep", "check: os has a separator.")
    parsed = page(f"# T\n\n{shown}{folded_use}")
    assert unused_imports(visible_blocks(parsed)) == [f"{parsed.path}:3: os"]


def test_the_scan_sees_a_folded_block_and_private_api():
    """The rules above can fail: a visible assert and a private name are found, folded ones not."""
    shown = fence("x = jax._src.core\nassert x")
    hidden = '??? note "Details"\n\n' + "\n".join(
        "    " + line for line in fence("assert jax.numpy.ones(1)._value").splitlines()
    )
    parsed = page("# T\n\n" + shown + "\n" + hidden + "\n")
    (block,) = visible_blocks(parsed)
    assert code_lines(block) == ["x = jax._src.core", "assert x"]
    assert PRIVATE["jax._src"].search(code_lines(block)[0])


COURSE = [path for path in PAGES if path.startswith("docs/course/")]
SHORT_VERSION_LINES = 4  # two or three sentences, wrapped at 100 columns


@pytest.mark.parametrize("path", COURSE)
@pytest.mark.page_rule
def test_a_course_page_opens_with_its_short_version(path: str):
    """The main idea in a few lines under the title, then the one block to paste, all before
    the first section (a learner reached the idea sooner in JAX's docs than here, issue #50)."""
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    title = next(i for i, line in enumerate(lines) if line.startswith("# "))
    first = site_page(path).blocks[0]
    fence = first.first_line - 1  # 1-based line of the block's code, to an index of `lines`
    opening = lines[title + 1 : fence]
    prose = [line for line in opening if line.strip() and not line.startswith(("<!--", "```"))]
    assert not any(line.startswith("## ") for line in opening), f"{path}: a section comes first"
    assert 2 <= len(prose) <= SHORT_VERSION_LINES, (
        f"{path}:{title + 1}: {len(prose)} lines of prose before the first block; the short "
        f"version is the main idea in two or three sentences (at most {SHORT_VERSION_LINES} lines)"
    )
    assert not (first.bad or first.check or first.collapse_code or first.skip), (
        f"{first.where}: the first block is the one to paste: shown, and run clean"
    )
    assert any(not line.startswith(("import ", "from ", "#")) for line in code_lines(first)), (
        f"{first.where}: the first block only imports; the short version's block shows the idea"
    )
