"""The error index (issue #41): one entry per error the course's ❌ blocks raise, generated from
the messages the build captured, never typed; each ❌ block links to its entry."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from engine.page.model import ROOT
from engine.page.parser import read_pages
from engine.run.pages import execute_pages
from engine.site import error_index
from tests.helpers import CONFIG, PAIR_GOOD, fence, mkdocs_build, page

HEADING = re.compile(r"^## `(?P<type>\w+)`: (?P<line>.*) \{ #(?P<id>[\w-]+) \}$", re.M)


def unescaped(markdown: str) -> str:
    """A heading's text as the reader sees it (``_inline`` undone)."""
    text = re.sub(r"\\(.)", r"\1", markdown)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def covers(line: str, message: str) -> bool:
    """An entry's line, each GAP a wildcard, matches a message's normalised first line."""
    parts = map(re.escape, line.split(error_index.GAP))
    return re.fullmatch(".*?".join(parts), error_index.normalise(message), re.S) is not None


# ---------------------------------------------------------------- the parts


@pytest.mark.unit
def test_variable_parts_become_gaps_and_fixed_ones_stay():
    normalise = error_index.normalise
    assert (
        normalise("re-tracing function f at <example 11>:1")
        == "re-tracing function f at <example …>"
    )
    assert normalise("to <function greet at @1> of type <class 'str'>") == (
        "to <function …> of type <class …>"
    )
    assert normalise("with shape float32[8,3]; got bool[5]") == "with shape float32[…]; got bool[…]"
    assert normalise("traced array with shape int32[]") == "traced array with shape int32[]"
    assert normalise("expected (8, 3) and called with (16,)") == "expected (…) and called with (…)"
    assert normalise("There are 1 mismatches, got 6.0") == "There are … mismatches, got …"
    assert normalise("As of JAX v0.7, parameters") == "As of JAX v0.7, parameters"


def test_cases_of_one_generic_message_share_an_entry_whose_differences_are_gaps():
    text = "# Demo\n\n## Hashing\n"
    for value in ("[3, 4]", "DataScaler(factor=2.0)"):
        message = (
            f"Non-hashable static arguments are not supported. An object of type <class 'x'>, "
            f"{value}. The error was:"
        )
        text += fence(f"raise ValueError({message!r})", "bad: raises ValueError") + PAIR_GOOD
    text += fence("raise ValueError('Something else entirely')", "bad: raises ValueError")
    text += PAIR_GOOD
    demo = page(text, "docs/track/demo.md")
    results = {demo.path: run_demo(demo)}
    index = error_index.entries(error_index.cases({demo.path: demo}, results))
    assert [len(entry.cases) for entry in index] == [2, 1]
    hashing = index[0]
    assert hashing.line == (
        "Non-hashable static arguments are not supported. An object of type <class …>, …. "
        "The error was:"
    )
    assert hashing.anchor == "error-valueerror-non-hashable-static-arguments-are-not"


def run_demo(demo):
    return execute_pages(
        [demo],
        cache_dir=Path(os.environ.get("TMPDIR", "/tmp")) / "ei-cache",
        report=lambda line: None,
    )[demo.path]


@pytest.mark.unit
def test_jax_classes_get_one_entry_each_whatever_the_message():
    assert not error_index.generic("TracerBoolConversionError")
    assert not error_index.generic("KeyReuseError")
    assert error_index.generic("TypeError") and error_index.generic("ValueError")


# ---------------------------------------------------------------- the whole site


@pytest.fixture(scope="module")
def site():
    """Every page and its results, from the docs build's cache (run where it is cold)."""
    pages = {p.path: p for p in read_pages([])}
    results = execute_pages(list(pages.values()), report=lambda line: None)
    found = error_index.cases(pages, results)
    index = error_index.entries(found)
    text = error_index.render(index, error_index.INDEX_PAGE, lambda ids: "status")
    return pages, found, index, text


@pytest.mark.timing  # from a cold cache it runs every page, timing pages too
def test_every_raises_contract_of_a_teaching_page_is_in_the_index(site):
    pages, found, index, text = site
    declared = [
        (path, block.line, block.bad.name)
        for path, parsed in pages.items()
        if error_index.indexed(path)
        for block in parsed.blocks
        if block.bad and block.bad.mode == "raises"
    ]
    assert len(declared) >= 50 and len(found) == len(declared)
    headings = {m["id"]: m for m in HEADING.finditer(text)}
    assert len(headings) == len(index)
    links = error_index.by_block_of(index)
    for case in found:
        where = f"{case.page}:{case.block.line}"
        entry = headings[links[(case.page, case.block.line)]]
        assert entry["type"] == case.block.bad.name.rsplit(".", 1)[-1], where
        assert covers(unescaped(entry["line"]), case.first_line), (where, case.first_line)
        assert f"{Path(case.page).name}#{case.anchor})" in text, where  # listed under it


@pytest.mark.timing
def test_every_jax_error_class_a_jit_user_meets_has_an_entry(site):
    """jax.errors, less the base classes (JAXTypeError, JAXIndexError: JAX raises subclasses),
    JaxprTypeError (only with jax_enable_checks, JAX's own type checks) and JaxRuntimeError
    (a runtime failure of the compiled program, e.g. a callback that raised)."""
    import jax.errors

    not_met = {"JAXTypeError", "JAXIndexError", "JaxprTypeError", "JaxRuntimeError"}
    wanted = {name for name in dir(jax.errors) if name[0].isupper()} - not_met
    assert wanted == {
        "ConcretizationTypeError",
        "InconclusiveDimensionOperation",
        "KeyReuseError",
        "NonConcreteBooleanIndexError",
        "TracerArrayConversionError",
        "TracerBoolConversionError",
        "TracerIntegerConversionError",
        "UnexpectedTracerError",
    }, "jax.errors changed: decide whether a jit user meets the new class"
    _, _, index, _ = site
    assert wanted <= {entry.error_type for entry in index}


@pytest.mark.timing
def test_every_message_in_the_index_is_a_captured_one(site):
    """Each heading is the merge of its cases' captured first lines, and nothing else."""
    _, _, index, text = site
    for entry in index:
        lines = [error_index.normalise(case.first_line) for case in entry.cases]
        assert entry.line == error_index.merged(lines)
        assert all(covers(entry.line, case.first_line) for case in entry.cases)
    assert [unescaped(m["line"]) for m in HEADING.finditer(text)] == [e.line for e in index]


@pytest.mark.timing
def test_the_index_page_holds_no_hand_typed_message(site):
    pages, found, _, _ = site
    source = (ROOT / error_index.INDEX_PAGE).read_text(encoding="utf-8")
    parsed = pages[error_index.INDEX_PAGE]
    assert [d.name for d in parsed.directives] == ["error-index"]
    assert not parsed.blocks and "```" not in source
    assert re.findall(r"^#+ .*", source, re.M) == ["# Error index"]  # every entry is generated
    for case in found:
        for text in (case.first_line, error_index.normalise(case.first_line)):
            words = " ".join(text.split()[:4])  # even the start of a message
            assert len(words) < 12 or words not in source, (case.page, words)


# ---------------------------------------------------------------- a scratch site


CHAPTER = """\
# Chapter

## Dividing { #dividing }
<!-- badge: must-read -->

{bad}
<!-- good -->
```python
print(1 / 2)
```
"""

INDEX = "# Error index\n\n<!-- error-index -->\n"


def test_a_new_raises_block_enters_the_index_of_its_build(tmp_path):
    docs = tmp_path / "docs"
    (docs / "course").mkdir(parents=True)
    (docs / "reference").mkdir()
    (tmp_path / "mkdocs.yml").write_text(CONFIG)
    (docs / "index.md").write_text("# Home\n")
    bad = fence("numerator = 7\nnumerator / 0", "bad: raises ZeroDivisionError")
    (docs / "course" / "chapter.md").write_text(CHAPTER.replace("{bad}", bad))
    (docs / "reference" / "error-index.md").write_text(INDEX)
    done = mkdocs_build(tmp_path)
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    index = BeautifulSoup(
        (site / "reference" / "error-index" / "index.html").read_text(), "html.parser"
    )
    heading = index.find(id="error-zerodivisionerror-division-by-zero")
    assert heading is not None, index.get_text()[:2000]
    assert heading.get_text(" ", strip=True).startswith("ZeroDivisionError : division by zero")
    places = [a["href"] for a in index.select("a[href*='chapter/#contract-1']")]
    assert places, "the entry links the ❌ block that raises it"
    chapter = BeautifulSoup((site / "course" / "chapter" / "index.html").read_text(), "html.parser")
    (link,) = chapter.select("a.jd-error-link")
    assert link["href"] == "../../reference/error-index/#error-zerodivisionerror-division-by-zero"
    assert link.find_parent(class_="jd-pair") is not None  # inside the ❌ box
