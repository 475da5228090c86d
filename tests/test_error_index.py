"""The error index (issues #41, #50): one entry per error that JAX raises in the course's ❌
blocks, generated from the messages the build captured and the teaching blocks' markers, never
typed; each ❌ block links to its entry."""

from __future__ import annotations

import builtins
import html
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from timing_marks import runs_every_page

from engine.page.markers import ERROR_GROUPS
from engine.page.model import ROOT, MarkupError
from engine.page.parser import read_pages
from engine.run.pages import execute_pages
from engine.run.results import Outcome, PageResult
from engine.site import error_index
from tests import tiers
from tests.helpers import CONFIG, PAIR_GOOD, fence, mkdocs_build, page

HEADING = re.compile(
    r'^### (?P<type>\w+): (?P<summary>.*) \{ #(?P<id>[\w-]+) data-toc-label="[^"]*" \}$', re.M
)
MESSAGE = re.compile(r'^<p class="jd-error-message"><code>(?P<message>.*)</code></p>$', re.M)
TEACH = (
    "index: control flow | a demo",
    "cause: The demo raised it.",
    "fix: Do not raise it.",
)


def covers(line: str, message: str) -> bool:
    """An entry's line, each GAP a wildcard, matches a message's normalised first line."""
    parts = map(re.escape, line.split(error_index.GAP))
    return re.fullmatch(".*?".join(parts), error_index.normalise(message), re.S) is not None


# ---------------------------------------------------------------- the parts


@pytest.mark.unit
def test_variable_parts_become_gaps_and_fixed_ones_stay():
    normalise = error_index.normalise
    assert (
        normalise("re-tracing function sgd_step at <example 11>:1")
        == "re-tracing function … at <example …>"
    )
    assert normalise("to <function greet at @1> of type <class 'str'>") == (
        "to <function …> of type <class …>"
    )
    assert normalise("with shape float32[8,3]; got bool[5]") == "with shape float32[…]; got bool[…]"
    assert normalise("traced array with shape int32[]") == "traced array with shape int32[]"
    assert normalise("expected (8, 3) and called with (16,)") == "expected (…) and called with (…)"
    assert normalise("There are 1 mismatches, got 6.0") == "There are … mismatches, got …"
    assert normalise("As of JAX v0.7, parameters") == "As of JAX v0.7, parameters"


def demo_site(raised: list[tuple[str, str, str]], teach: tuple[int, ...] = (0,)):
    """A page of ❌/✅ pairs, each ❌ with the (class, message, raising module) it raised, and
    the teaching markers on the ❌ blocks numbered in ``teach``."""
    text = "# Demo\n\n## Errors\n"
    for number, (error_type, _, _) in enumerate(raised):
        markers = (f"bad: raises {error_type}", *(TEACH if number in teach else ()))
        text += fence("pass", *markers) + PAIR_GOOD
    demo = page(text, "docs/track/demo.md")
    outcomes = []
    for error_type, message, module in raised:
        outcomes += [Outcome(error_type=error_type, error_message=message, raised_in=module)]
        outcomes += [Outcome()]
    return {demo.path: demo}, {demo.path: PageResult(outcomes, {})}


@pytest.mark.unit
def test_cases_of_one_generic_message_share_an_entry_whose_differences_are_gaps():
    message = "Non-hashable static arguments are not supported. An object of type <class 'x'>, {}."
    raised = [
        ("ValueError", message.format("[3, 4]"), "jaxlib._jax"),
        ("ValueError", message.format("DataScaler(factor=2.0)"), "jaxlib._jax"),
        ("ValueError", "Something else entirely", "jax._src.api"),
    ]
    pages, results = demo_site(raised, teach=(0, 2))
    index = error_index.entries(error_index.cases(pages, results))
    error_index.check(pages, index)
    assert [len(entry.cases) for entry in index] == [2, 1]
    hashing = index[0]
    assert hashing.line == (
        "Non-hashable static arguments are not supported. An object of type <class …>, …."
    )
    assert hashing.anchor == "error-valueerror-non-hashable-static-arguments-are-not"


@pytest.mark.unit
def test_only_errors_that_jax_code_raised_are_listed():
    raised = [
        ("TracerBoolConversionError", "Attempted boolean conversion", "jax._src.core"),
        ("ValueError", "Non-hashable static arguments", "jaxlib._jax"),  # JAX's C++
        ("AssertionError", "Arrays are not equal", "numpy.testing._private.utils"),
        ("ValueError", "the page's own raise", "__main__"),
    ]
    pages, results = demo_site(raised, teach=(0, 1))
    found = error_index.cases(pages, results)
    assert [case.outcome.error_type for case in found] == [
        "TracerBoolConversionError",
        "ValueError",
    ]
    error_index.check(pages, error_index.entries(found))


@pytest.mark.unit
def test_an_entry_without_its_teaching_markers_fails_naming_its_blocks():
    raised = [("TracerBoolConversionError", "Attempted boolean conversion", "jax._src.core")] * 2
    pages, results = demo_site(raised, teach=())
    index = error_index.entries(error_index.cases(pages, results))
    with pytest.raises(MarkupError, match=r"docs/track/demo.md:\d+: the error index entry .* 0 "):
        error_index.check(pages, index)
    pages, results = demo_site(raised, teach=(0, 1))  # twice: written once, not twice
    with pytest.raises(MarkupError, match=r"2 blocks give them"):
        error_index.check(pages, error_index.entries(error_index.cases(pages, results)))


@pytest.mark.unit
def test_teaching_markers_must_come_together_on_a_listed_block():
    text = "# Demo\n\n## Errors\n" + fence("pass", "bad: raises ValueError", *TEACH[:2])
    demo = page(text + PAIR_GOOD, "docs/track/demo.md")
    with pytest.raises(MarkupError, match=r"demo.md:\d+: .* also needs <!-- fix: ... -->"):
        error_index.check({demo.path: demo}, [])
    text = "# Demo\n\n## Errors\n" + fence("assert 1 + 1 == 2", "bad: asserts", *TEACH)
    demo = page(text + PAIR_GOOD, "docs/track/demo.md")
    with pytest.raises(MarkupError, match=r"demo.md:\d+: markers index, cause, fix are for"):
        error_index.check({demo.path: demo}, [])


@pytest.mark.unit
@pytest.mark.parametrize(
    "marker",
    ["index: cooking | a demo", "index: control flow", "cause: Two. Sentences.", "fix: no stop"],
)
def test_a_malformed_teaching_marker_names_its_line(marker):
    text = "# Demo\n\n" + fence("pass", "bad: raises ValueError", marker) + PAIR_GOOD
    with pytest.raises(MarkupError, match=r"demo.md:4: marker '\w+' needs"):
        page(text, "docs/track/demo.md")


@pytest.mark.unit
def test_an_entry_text_opens_with_its_message_and_its_heading_stays_short():
    """The site's search weighs the first words of a section text that opens with an error as
    Python prints it, so the message comes right under the heading, and the heading holds no copy
    of it (issue #52)."""
    message = "Non-hashable static arguments are not supported. An object of type <class 'x'>."
    pages, results = demo_site([("ValueError", message, "jaxlib._jax")])
    index = error_index.entries(error_index.cases(pages, results))
    text = error_index.render(index, error_index.INDEX_PAGE, lambda ids: "status")
    [heading] = [line for line in text.splitlines() if line.startswith("### ")]
    assert "Non-hashable" not in heading
    after = text.split(heading)[1].lstrip("\n")
    assert after.startswith('<p class="jd-error-message"><code>ValueError: Non-hashable static')


@pytest.mark.unit
def test_jax_classes_get_one_entry_each_whatever_the_message():
    assert not error_index.generic("TracerBoolConversionError")
    assert not error_index.generic("KeyReuseError")
    assert error_index.generic("TypeError") and error_index.generic("ValueError")


@pytest.mark.unit
def test_jax_runtime_errors_get_one_entry_per_status_code():
    """JaxRuntimeError carries every failure XLA reports: running out of memory and a misspelt
    compiler option are two entries, two out-of-memory errors one (issue #70)."""
    raised = [
        ("JaxRuntimeError", "INVALID_ARGUMENT: No such compile option: 'x'", "jax._src.compiler"),
        ("JaxRuntimeError", "RESOURCE_EXHAUSTED: Out of memory allocating 4 bytes.", "jax._src"),
        ("JaxRuntimeError", "RESOURCE_EXHAUSTED: Out of memory allocating 8 bytes.", "jax._src"),
    ]
    pages, results = demo_site(raised, teach=(0, 1))
    index = error_index.entries(error_index.cases(pages, results))
    error_index.check(pages, index)
    assert [(entry.anchor, len(entry.cases)) for entry in index] == [
        ("error-jaxruntimeerror-invalid-argument", 1),
        ("error-jaxruntimeerror-resource-exhausted", 2),
    ]
    assert index[1].line == "RESOURCE_EXHAUSTED: Out of memory allocating … bytes."


# ---------------------------------------------------------------- the whole site


@pytest.fixture(scope="module")
def site():
    """Every page and its results, from the docs build's cache (run where it is cold)."""
    pages = {p.path: p for p in read_pages([])}
    results = execute_pages(list(pages.values()), report=lambda line: None)
    found = error_index.cases(pages, results)
    index = error_index.entries(found)
    text = error_index.render(index, error_index.INDEX_PAGE, lambda ids: "status")
    return pages, found, index, text, results


@runs_every_page
def test_every_raises_contract_of_a_teaching_page_is_in_the_index_if_jax_raised_it(site):
    pages, found, index, text, results = site
    declared = [
        (path, block, results[path].outcomes[number])
        for path, parsed in pages.items()
        if error_index.indexed(path)
        for number, block in enumerate(parsed.blocks)
        if block.bad and block.bad.mode == "raises"
    ]
    listed = {(case.page, case.block.line) for case in found}
    left_out = [
        (path, block, out) for path, block, out in declared if (path, block.line) not in listed
    ]
    # Out of the index: a Python error JAX did not raise (np.testing's AssertionError, a missing
    # attribute of a plain function). A JAX class, or an error raised in jax or jaxlib, must be in
    # it; the list once held exactly np.testing's error, so any new page's own error failed here.
    wrong = [
        f"{path}:{block.line}: {block.bad.name} raised in {out.raised_in or 'an unknown module'}"
        for path, block, out in left_out
        if out.raised_in.split(".")[0] in ("jax", "jaxlib") or not hasattr(builtins, block.bad.name)
    ]
    assert len(declared) >= 50 and not wrong, f"left out of the error index: {wrong}"
    assert 1 <= len(left_out) <= len(declared) // 10  # the page's own errors stay rare
    headings = {m["id"]: m for m in HEADING.finditer(text)}
    assert len(headings) == len(index)
    links = error_index.by_block_of(index)
    for case in found:
        where = f"{case.page}:{case.block.line}"
        entry = headings[links[(case.page, case.block.line)]]
        assert entry["type"] == case.block.bad.name.rsplit(".", 1)[-1], where
        assert f"{Path(case.page).name}#{case.anchor})" in text, where  # listed under it


@runs_every_page
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
    _, _, index, _, _ = site
    assert wanted <= {entry.error_type for entry in index}


@runs_every_page
def test_every_message_in_the_index_is_a_captured_one(site):
    """Under each heading: the teaching block's captured message, as JAX printed it."""
    _, _, index, text, _ = site
    for entry in index:
        lines = [error_index.normalise(case.first_line) for case in entry.cases]
        assert entry.line == error_index.merged(lines)
        assert all(covers(entry.line, case.first_line) for case in entry.cases)
    shown = [html.unescape(m["message"]) for m in MESSAGE.finditer(text)]
    by_group = sorted(index, key=lambda e: ERROR_GROUPS.index(e.group))  # the page's order
    assert shown == [f"{e.error_type}: {e.teacher.first_line}" for e in by_group]


@runs_every_page
def test_the_index_page_holds_no_hand_typed_message(site):
    pages, found, _, _, _ = site
    source = (ROOT / error_index.INDEX_PAGE).read_text(encoding="utf-8")
    parsed = pages[error_index.INDEX_PAGE]
    assert [d.name for d in parsed.directives] == ["error-index"]
    assert not parsed.blocks and "```" not in source
    assert re.findall(r"^#+ .*", source, re.M) == ["# Error index"]  # every entry is generated
    for case in found:
        for text in (case.first_line, error_index.normalise(case.first_line)):
            words = " ".join(text.split()[:4])  # even the start of a message
            assert len(words) < 12 or words not in source, (case.page, words)
        for sentence in (case.block.cause, case.block.fix, case.block.index):
            assert not sentence or str(sentence)[:30] not in source, (case.page, sentence)


# ---------------------------------------------------------------- a scratch site


CHAPTER = """\
# Chapter

## Dividing { #dividing }
<!-- badge: must-read -->

{bad}
<!-- good -->
```python
print(jnp.maximum(1.0, 0.0))
```
"""

INDEX = "# Error index\n\n<!-- error-index -->\n"


# A throwaway build: the engine's index of one build. The real site's index against its pages is
# checked in both tiers by the tests above, over the site the default tier builds.
@tiers.only_when_changed("engine/", "tests/helpers.py", "tests/test_error_index.py")
def test_a_new_raises_block_enters_the_index_of_its_build(tmp_path):
    docs = tmp_path / "docs"
    (docs / "course").mkdir(parents=True)
    (docs / "reference").mkdir()
    (tmp_path / "mkdocs.yml").write_text(CONFIG)
    (docs / "index.md").write_text("# Home\n")
    code = "@jax.jit\ndef relu(x):\n    return x if x > 0 else 0.0\n\nrelu(1.0)"
    bad = fence(code, "bad: raises TracerBoolConversionError", *TEACH)
    (docs / "course" / "chapter.md").write_text(CHAPTER.replace("{bad}", bad))
    (docs / "reference" / "error-index.md").write_text(INDEX)
    done = mkdocs_build(tmp_path)
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    index = BeautifulSoup(
        (site / "reference" / "error-index" / "index.html").read_text(), "html.parser"
    )
    heading = index.find(id="error-tracerboolconversionerror")
    assert heading is not None, index.get_text()[:2000]
    assert heading.get_text(" ", strip=True).startswith("TracerBoolConversionError: a demo")
    assert index.select_one(".jd-cause").get_text(" ", strip=True) == "Cause : The demo raised it."
    places = [a["href"] for a in index.select("a[href*='chapter/#contract-1']")]
    assert places, "the entry links the ❌ block that raises it"
    chapter = BeautifulSoup((site / "course" / "chapter" / "index.html").read_text(), "html.parser")
    (link,) = chapter.select("a.jd-error-link")
    assert link["href"] == "../../reference/error-index/#error-tracerboolconversionerror"
    assert link.find_parent(class_="jd-pair") is not None  # inside the ❌ box
