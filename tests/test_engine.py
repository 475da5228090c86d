"""The engine's error paths and its cache: each test builds a tiny page and checks the outcome."""

from __future__ import annotations

import json
import logging
import re
import textwrap
from pathlib import Path

import pytest

from engine.page.markers import MARKERS, marker_table
from engine.page.model import DEFAULT_TIMEOUT, ROOT, MarkupError
from engine.page.parser import parse_page, read_page
from engine.run import cache, pages
from engine.run.execute import execute_block, new_namespace
from engine.run.isolation import restore_state, snapshot_state
from engine.run.pages import PageFailure, execute_pages, run_page


def page(text: str, path: str = "docs/demo/test-page.md", root=None):
    kwargs = {"root": root} if root else {}
    return parse_page(path, textwrap.dedent(text), **kwargs)


def fence(code: str, *markers: str) -> str:
    lines = [f"<!-- {m} -->" for m in markers]
    return "\n".join([*lines, "```python", textwrap.dedent(code).strip(), "```", ""])


PAIR_GOOD = fence("print('fixed')", "good")


# ---------------------------------------------------------------- contracts


def test_unexpected_exception_names_page_line_and_frames():
    demo = page("# Demo\n\n" + fence("x = 1\nraise KeyError('missing')"))
    with pytest.raises(PageFailure) as caught:
        run_page(demo)
    message = str(caught.value)
    assert message.startswith("docs/demo/test-page.md:3: unexpected exception")
    assert "KeyError: 'missing'" in message
    assert 'File "docs/demo/test-page.md", line 5' in message  # the traceback's last frame


def test_bad_block_that_runs_clean_fails():
    demo = page(fence("x = 1", "bad: raises ValueError") + PAIR_GOOD)
    with pytest.raises(PageFailure, match=r":2: the ❌ block should raise ValueError, but it ran"):
        run_page(demo)


def test_bad_block_with_the_wrong_error_fails():
    demo = page(fence("int('x')", "bad: raises TypeError") + PAIR_GOOD)
    with pytest.raises(PageFailure, match=r"should raise TypeError, but it raised ValueError"):
        run_page(demo)


def test_bad_block_with_the_declared_error_renders_it():
    demo = page(fence("int('x')", "bad: raises ValueError") + PAIR_GOOD)
    result = run_page(demo)
    assert result.outcomes[0].error.startswith("ValueError: invalid literal for int()")
    assert result.outcomes[1].output == "fixed\n"


def test_bad_asserts_block_whose_assertions_stop_holding_fails():
    demo = page(fence("assert 1 + 1 == 3, 'wrong on purpose'", "bad: asserts") + PAIR_GOOD)
    with pytest.raises(PageFailure, match=r"the ❌ block's assertions do not hold"):
        run_page(demo)


def test_bad_warns_block_must_warn():
    demo = page(fence("x = 1", "bad: warns UserWarning") + PAIR_GOOD)
    with pytest.raises(PageFailure, match=r"should warn UserWarning, but it emitted no warning"):
        run_page(demo)


def test_good_block_that_raises_fails():
    demo = page(fence("1 / 0", "bad: raises ZeroDivisionError") + fence("1 / 0", "good"))
    with pytest.raises(PageFailure, match=r":6: unexpected exception .*ZeroDivisionError"):
        run_page(demo)


def test_bad_block_must_be_followed_by_good_block():
    with pytest.raises(MarkupError, match=r":2: a ❌ 'bad' block must be followed directly"):
        page(fence("1 / 0", "bad: raises ZeroDivisionError") + "\nSome prose.\n" + PAIR_GOOD)


def test_bad_asserts_without_assert_is_rejected():
    with pytest.raises(
        MarkupError, match=r":2: a 'bad: asserts' or 'fact' block must contain assert"
    ):
        page(fence("x = 1", "bad: asserts") + PAIR_GOOD)


# ---------------------------------------------------------------- markup errors


def test_missing_snippet_names_file_and_line(tmp_path):
    (tmp_path / "snippets").mkdir()
    with pytest.raises(MarkupError, match=r"test-page.md:3: snippet file snippets/test_page/nope"):
        page("# T\n\n<!-- snippet: nope -->\n", root=tmp_path)


def test_missing_snippet_lists_the_files_that_do_exist(tmp_path):
    (tmp_path / "snippets" / "test_page").mkdir(parents=True)
    for name in ("chart", "measure"):
        (tmp_path / "snippets" / "test_page" / f"{name}.py").write_text("x = 1\n")
    with pytest.raises(
        MarkupError, match=r"nope.py not found; snippets/test_page has: chart, measure"
    ):
        page("# T\n\n<!-- snippet: nope -->\n", root=tmp_path)


def test_unknown_marker_names_file_and_line():
    with pytest.raises(MarkupError, match=r"test-page.md:2: unknown marker 'expect-fail'"):
        page("# T\n" + fence("x = 1", "expect-fail"))


def test_fence_with_attributes_is_rejected():
    with pytest.raises(MarkupError, match=r":1: fence info 'python title=\"x\"' is not allowed"):
        page('```python title="x"\nprint(1)\n```\n')


def test_marker_leading_nowhere_is_rejected():
    with pytest.raises(MarkupError, match=r":1: marker 'good' is not followed by a code block"):
        page("<!-- good -->\nJust prose.\n")


# ---------------------------------------------------------------- hangs


def test_hanging_block_is_stopped_by_its_own_time_limit():
    demo = page(fence("import time\ntime.sleep(60)", "timeout: 1"))
    with pytest.raises(PageFailure, match=r":2: block did not finish within 1 s"):
        run_page(demo)


def test_block_deaf_to_signals_is_killed_by_the_parent(monkeypatch):
    monkeypatch.setattr(pages, "KILL_GRACE_SECONDS", 1.0)
    code = (
        "import signal, time\n"
        "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\n"
        "time.sleep(60)"
    )
    demo = page(fence(code, "timeout: 1"))
    with pytest.raises(PageFailure, match=r":2: block did not finish within 2 s and was stopped"):
        run_page(demo)


# ---------------------------------------------------------------- isolation


X64_PAGE = fence(
    "jax.config.update('jax_enable_x64', True)\nassert jnp.zeros(1).dtype == jnp.float64"
)
DEFAULTS_PAGE = fence("assert jnp.zeros(1).dtype == jnp.float32, jnp.zeros(1).dtype")


def test_build_isolates_jax_config_between_pages(tmp_path):
    first, second = page(X64_PAGE, "docs/a/first.md"), page(DEFAULTS_PAGE, "docs/a/second.md")
    results = execute_pages([first, second], cache_dir=tmp_path, report=lambda line: None)
    assert len(results["docs/a/second.md"].outcomes) == 1


def test_test_suite_isolates_jax_config_between_pages():
    first, second = page(X64_PAGE, "docs/a/first.md"), page(DEFAULTS_PAGE, "docs/a/second.md")
    state = snapshot_state()
    try:
        execute_block(first.blocks[0], new_namespace())
    finally:
        restore_state(state)
    execute_block(second.blocks[0], new_namespace())  # raises if x64 leaked


def test_without_restore_the_config_would_leak():
    """The control for the test above: the leak it prevents is real."""
    import jax

    state = snapshot_state()
    try:
        execute_block(page(X64_PAGE).blocks[0], new_namespace())
        assert jax.config.values["jax_enable_x64"] is True
    finally:
        restore_state(state)
    assert jax.config.values["jax_enable_x64"] is False


# ---------------------------------------------------------------- output


def test_compile_log_is_captured_and_escaped_in_the_built_page(tmp_path):
    """End to end through mkdocs: `jit(<lambda>)` must reach the HTML as text, not as a tag."""
    from engine.page.syntax import code_fence as render_fence

    rendered = render_fence("text", "Compiling jit(<lambda>) for ```fun```")
    assert rendered.startswith("````text\n")  # a longer fence than any backtick run inside
    demo = page(fence("jax.config.update('jax_log_compiles', True)\njax.jit(lambda v: v + 1)(1.0)"))
    output = run_page(demo).outcomes[0].output
    assert "Compiling jit(<lambda>)" in output


# ---------------------------------------------------------------- cache


def test_corrupt_cache_entry_is_detected_and_recomputed(tmp_path):
    demo = page(fence("print('hello')"))
    lines: list[str] = []
    execute_pages([demo], cache_dir=tmp_path, report=lines.append)
    entry = next(tmp_path.glob("*.json"))
    data = json.loads(entry.read_text())
    data["result"]["outcomes"][0]["output"] = "tampered\n"
    entry.write_text(json.dumps(data))
    results = execute_pages([demo], cache_dir=tmp_path, report=lines.append)
    assert results[demo.path].outcomes[0].output == "hello\n"
    entry.write_text(entry.read_text()[:40])  # truncated
    results = execute_pages([demo], cache_dir=tmp_path, report=lines.append)
    assert [("executed" in line) for line in lines] == [True, True, True]


def test_warm_run_executes_nothing(tmp_path):
    demo = page(fence("print('hello')"))
    lines: list[str] = []
    execute_pages([demo], cache_dir=tmp_path, report=lines.append)
    result = execute_pages([demo], cache_dir=tmp_path, report=lines.append)[demo.path]
    assert result.cached and "cached" in lines[1]


def test_changed_dependency_version_invalidates_the_cache(monkeypatch):
    demo = page(fence("print('hello')"))
    before = cache.cache_key(demo, cache.environment_fingerprint())
    real_version = cache._version
    monkeypatch.setattr(
        cache, "_version", lambda name: "9.9.9" if name == "jaxlib" else real_version(name)
    )
    after = cache.cache_key(demo, cache.environment_fingerprint())
    assert before != after


def test_prose_edits_keep_the_key_and_code_edits_change_it():
    fingerprint = cache.environment_fingerprint()
    original = cache.cache_key(page("Intro.\n\n" + fence("x = 1")), fingerprint)
    reworded = cache.cache_key(page("A new intro,\nlonger.\n\n" + fence("x = 1")), fingerprint)
    recoded = cache.cache_key(page("Intro.\n\n" + fence("x = 2")), fingerprint)
    assert original == reworded != recoded


def test_imported_local_module_is_part_of_the_key():
    modules = cache.project_files(["from jitkit import time_it"])
    assert "def time_it" in modules["snippets/jitkit.py"]


# ---------------------------------------------------------------- facts and version notes


def test_fact_without_assert_is_rejected():
    with pytest.raises(MarkupError, match=r":2: a 'bad: asserts' or 'fact' block must contain"):
        page(fence("x = 1", "fact: x is one"))


def test_fact_that_stops_holding_names_the_fact():
    demo = page(fence("assert jnp.zeros(2).dtype == jnp.int8", "fact: zeros are int8"))
    with pytest.raises(PageFailure, match=r":2: the fact 'zeros are int8' does not hold"):
        run_page(demo)


def test_version_notes_list_every_contract_and_fact_with_links():
    from engine.site import version_notes

    text = "# Demo page\n\n## Branching\n\n" + fence("int('x')", "bad: raises ValueError")
    text += PAIR_GOOD + "\n" + fence("assert 1 + 1 == 2", "fact: addition works")
    demo = page(text, "docs/course/demo.md")
    env = {"jax": "0.12.0.1"}
    notes = "docs/reference/version-notes.md"
    text = version_notes.render({demo.path: demo}, None, env, notes)
    assert text.startswith(
        "This build checked every claim below by running its page with JAX 0.12.0.1."
    )
    assert '??? abstract "Demo page: 2 claims, no release tested"' in text
    rows = [line.strip() for line in text.splitlines() if line.strip().startswith("| [")]
    assert rows == [
        "| [contract 1](../course/demo.md#contract-1) | ❌ raises ValueError (Branching) |",
        "| [fact 1](../course/demo.md#fact-1) | addition works |",
    ]


# ---------------------------------------------------------------- charts

CHART = """
import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.bar(["eager", "jit"], [3.0, 1.0])
ax.set_ylabel("ms per call")
"""


def test_figure_without_alt_text_fails_naming_the_line_that_made_it():
    demo = page(fence(CHART))
    with pytest.raises(PageFailure, match=r":1: a figure has no alt text \(made at [^)]*:3\)"):
        run_page(demo)  # the fence opens on line 1; plt.subplots() is on page line 3


def test_figure_is_rendered_light_and_dark_with_the_page_font():
    demo = page(fence(CHART + "fig.set_label('Bar chart: eager 3 ms, jit 1 ms')"))
    (figure,) = run_page(demo).outcomes[0].figures
    assert figure.alt == "Bar chart: eager 3 ms, jit 1 ms"
    assert "#1f1f1f" in figure.light and "#e3e3e3" not in figure.light
    assert "#e3e3e3" in figure.dark and "#1f1f1f" not in figure.dark
    assert "DejaVu" not in figure.light and "font-family:system-ui" in figure.light


def test_checker_and_the_check_files_it_reads_are_part_of_the_key():
    modules = cache.project_files(["from check_solution import checks_for"])
    assert "snippets/check_solution.py" in modules
    assert not [name for name in modules if name.startswith("engine/")]  # learner code only
    assert any(name.startswith("snippets/_checks/") for name in modules)


# ---------------------------------------------------------------- timing claims


def test_timing_claims_come_back_with_their_page_line():
    code = "from jitkit import claim_ratio\n\nclaim_ratio('x vs y', 8.0, at_least=2)"
    demo = page("# Demo\n\nSome prose.\n\n" + fence(code))
    result = run_page(demo)
    (claim,) = result.outcomes[0].timing_claims
    assert claim["where"] == "docs/demo/test-page.md:8"  # the fence opens on line 5
    assert (claim["label"], claim["measured"], claim["at_least"]) == ("x vs y", 8.0, 2)
    summary = pages.timing_summary({"p": result})
    assert summary == (
        "jitdocs: timing claims: 1, smallest margin 4.0x at docs/demo/test-page.md:8 "
        "(x vs y: measured 8.00x)"
    )


def test_a_failed_timing_claim_travels_with_the_failure():
    code = "from jitkit import claim_ratio\nclaim_ratio('x vs y', 1.5, at_least=2)"
    with pytest.raises(PageFailure) as caught:
        run_page(page("# Demo\n\n" + fence(code)))
    (claim,) = caught.value.timing_claims
    assert claim["measured"] == 1.5 and pages.claim_margin(claim) == 0.75


# ---------------------------------------------------------------- defects found by fault injection


def test_syntax_error_names_the_page_line_not_example():
    demo = page("# Demo\n\n" + fence("x = 1\nprint(x))"))
    with pytest.raises(PageFailure) as caught:
        run_page(demo)
    message = str(caught.value)
    assert "<example>" not in message
    assert message.startswith("docs/demo/test-page.md:3: unexpected exception")
    assert "SyntaxError: unmatched ')' (test-page.md, line 5)" in message
    assert 'File "docs/demo/test-page.md", line 5' in message


def test_sys_exit_in_a_block_names_the_block():
    demo = page("# Demo\n\n" + fence("print('ran')") + "\n" + fence("import sys\nsys.exit()"))
    with pytest.raises(PageFailure) as caught:
        run_page(demo)
    message = str(caught.value)
    assert message.startswith("docs/demo/test-page.md:7: unexpected exception")
    assert "SystemExit" in message and "exited" not in message


def test_recovered_corrupt_cache_entry_does_not_warn(tmp_path, caplog):
    """mkdocs --strict fails on any WARNING; a corrupt entry that simply runs again is no fault."""
    demo = page(fence("print('hello')"))
    execute_pages([demo], cache_dir=tmp_path, report=lambda line: None)
    entry = next(tmp_path.glob("*.json"))
    entry.write_text(entry.read_text()[:40])
    with caplog.at_level("DEBUG", logger="mkdocs.jitdocs"):
        results = execute_pages([demo], cache_dir=tmp_path, report=lambda line: None)
    assert results[demo.path].outcomes[0].output == "hello\n"
    notes = [r for r in caplog.records if "corrupt cache entry" in r.getMessage()]
    assert notes and all(r.levelno < logging.WARNING for r in notes)


# ---------------------------------------------------------------- the marker registry


def test_conventions_table_lists_exactly_the_registered_markers():
    conventions = "docs/about/conventions.md"
    parsed = read_page(conventions)
    assert [d.name for d in parsed.directives if d.name == "marker-table"] == ["marker-table"]
    text = (ROOT / conventions).read_text(encoding="utf-8")
    assert not re.search(r"^\| `<!--", text, re.MULTILINE), "a hand-written marker table"
    rows = [row for row in marker_table().splitlines() if row.startswith("| `<!--")]
    named = {re.match(r"\| `<!-- ([a-z-]+)", row)[1] for row in rows}
    assert named == set(MARKERS)
    assert f"default {DEFAULT_TIMEOUT:g} s" in marker_table()


def test_the_parser_accepts_only_registered_markers():
    for name, spec in MARKERS.items():
        for written, _ in spec.uses:
            if spec.standalone and name != "snippet":
                assert page(f"<!-- {written} -->\n").directives[0].name == name
    with pytest.raises(MarkupError, match=r"known markers: bad, good, skip"):
        page("<!-- unregistered -->\n")
    with pytest.raises(MarkupError, match=r":1: marker 'timeout' takes seconds, got 'soon'"):
        page(fence("x = 1", "timeout: soon"))


# ---------------------------------------------------------------- what a failure blames


def test_a_failure_blames_jax_only_when_the_code_passed_before_with_another_jax(tmp_path):
    demo = page("# Demo\n\n" + fence("assert 1 + 1 == 2"))
    code = cache.code_key(demo)
    result = run_page(demo)
    cache.store(demo, "some key", result, tmp_path, code)
    same_jax = pages.last_pass_hint(demo, code, tmp_path)
    assert "passed before with this JAX" in same_jax and "stress" in same_jax

    result.environment = {**result.environment, "jax": "0.0.1"}
    cache.store(demo, "some key", result, tmp_path, code)
    other_jax = pages.last_pass_hint(demo, code, tmp_path)
    assert "unchanged since it last passed, with jax 0.0.1" in other_jax

    assert pages.last_pass_hint(demo, "edited code", tmp_path) == ""  # new code: no blame on JAX
    assert pages.last_pass_hint(demo, code, tmp_path / "empty") == ""  # never passed


def test_a_failing_page_message_says_does_not_hold_without_guessing(tmp_path):
    demo = page("# Demo\n\n" + fence("assert 2 > 3", "fact: two beats three"))
    with pytest.raises(PageFailure) as caught:
        pages.execute_pages([demo], cache_dir=tmp_path, report=lambda line: None)
    message = str(caught.value)
    assert "the fact 'two beats three' does not hold" in message
    assert "JAX" not in message.split("\n")[0]  # a brand-new claim is not blamed on JAX


def test_plain_token_spans_are_unwrapped_and_styled_ones_kept():
    from engine.site.hook import unwrap_plain_tokens

    name, space = '<span class="n">x</span>', '<span class="w"> </span>'
    styled = '<span class="o">=</span><span class="nb">len</span>'
    assert unwrap_plain_tokens(name + space + styled) == "x " + styled


def test_names_are_drawn_in_the_code_colour_and_whitespace_has_no_style():
    """Unwrapping name and whitespace tokens changes nothing on screen only while this holds."""
    import material

    themes = Path(material.__file__).parent / "templates" / "assets" / "stylesheets"
    sheets = [*themes.glob("*.min.css"), *(ROOT / "docs" / "assets").glob("*.css")]
    css = "\n".join(sheet.read_text(encoding="utf-8") for sheet in sheets)
    assert set(re.findall(r"--md-code-hl-name-color:([^;}]+)", css)) == {"var(--md-code-fg-color)"}
    assert not re.search(r"\.highlight [^{}]*\.[nw][\s,{:)]", css.replace(".highlight .n{", "{"))


def test_sections_wrap_long_runs_but_not_headings_the_first_screen_or_question_blocks():
    from engine.site.sections import (
        FIRST_SCREEN_PX,
        MAX_SECTION_PX,
        estimated_height,
        least_heights,
        wrap_sections,
    )

    paragraph = "<p>" + "word " * 60 + "</p>\n"
    code = '<div class="highlight"><pre><code>' + "x = 1\n" * 30 + "</code></pre></div>\n"
    question = '<div class="jd-quiz"><h2 id="q1">Question</h2>' + paragraph + "</div>\n"
    # the last of these paragraphs starts just above FIRST_SCREEN_PX, at the least
    first_screen = paragraph * ((FIRST_SCREEN_PX - 1) // least_heights(paragraph)[0] + 1)
    content = first_screen + '<h2 id="a">A</h2>\n' + (paragraph + code) * 6 + question + paragraph

    wrapped = wrap_sections(content)
    section = r'<section class="jd-section" style="([^"]*)">(.*?)</section>'
    sections = re.findall(section, wrapped, re.S)
    assert re.sub(r"</?section[^>]*>", "", wrapped) == content  # nothing lost, nothing moved
    assert wrapped.startswith(first_screen)
    assert len(sections) >= 3  # the run after the heading is split, the question left whole
    assert all("<h2" not in body for _, body in sections)  # so the question stays whole, outside
    for style, body in sections:
        assert style == f"contain-intrinsic-size: auto {estimated_height(body)}px"
        assert estimated_height(body) < MAX_SECTION_PX + estimated_height(paragraph + code)


def test_an_element_that_starts_on_the_first_screen_is_never_wrapped_however_tall():
    """A placeholder painted on screen in the first frame would shift what follows it."""
    from engine.site.sections import FIRST_SCREEN_PX, wrap_sections

    tall = (
        '<div class="highlight"><pre><code>' + "x = 1\n" * FIRST_SCREEN_PX + "</code></pre></div>"
    )
    wrapped = wrap_sections("<p>intro</p>\n" + tall + "\n<p>after</p>\n")
    assert wrapped.startswith("<p>intro</p>\n" + tall)
    assert '<section class="jd-section"' in wrapped  # what follows it is still wrapped


def test_the_first_screen_is_measured_by_what_shows_at_its_least_height():
    """Chromium paints the first frame with placeholders: a short section on screen then shrinks
    and pulls what follows into view. A collapsed block or a hidden tab takes no room."""
    from engine.site.sections import FIRST_SCREEN_PX, least_heights, wrap_sections

    code = "<pre><code><span>x</span> = 1\n" * 9 + "y = 2\n</code></pre>"
    assert least_heights(code) == (12 + 10 * 15 + 16,) * 2  # gap, lines, padding
    assert least_heights(f"<details><summary>Setup</summary>{code}</details>") == (0, 0)
    opened = f"<details open><summary>Setup</summary>{code}</details>"
    assert least_heights(opened) == (12 + 166 + 20,) * 2
    assert least_heights(f'<div class="tabbed-block">{code}</div><div hidden>{code}</div>') == (
        0,
        0,
    )
    prose = "<p>" + "w " * 200 + "</p>"  # 399 characters: 7 lines of 60, or 3 of 180
    assert least_heights("<ul><li>a</li><li>b</li></ul>" + prose) == (24 + 9 * 20, 24 + 5 * 20)
    table = "<table><tr><th>a</th></tr><tr><td>b</td></tr></table>"
    assert least_heights(table) == (12 + 2 * 24 + 2 * 20,) * 2

    collapsed = "<details><summary>Setup</summary>" + code * FIRST_SCREEN_PX + "</details>\n"
    short = "<p>A short cell.</p>\n"
    wrapped = wrap_sections(collapsed + short * 3 + '<h2 id="a">A</h2>\n' + short * 200)
    assert wrapped.startswith(collapsed + short * 3 + '<h2 id="a">A</h2>\n' + short)


def test_sections_a_wider_first_screen_reaches_are_marked_near():
    """A phone's first screen ends sooner than a wider one's; the CSS always draws NEAR sections
    on a wider screen, so no placeholder is on screen at load there either."""
    from engine.site.sections import FIRST_SCREEN_PX, NEAR, least_heights, wrap_sections

    paragraph = "<p>" + "word " * 72 + "</p>\n"  # 359 characters: 6 lines on a phone, 2 wide
    phone, wide = least_heights(paragraph)
    assert phone > 2 * wide
    wrapped = wrap_sections(paragraph * (3 * FIRST_SCREEN_PX // wide))
    starts = [
        (match[1], wrapped[: match.start()].count("<p>") * wide)  # the least height above it
        for match in re.finditer(r'<section class="([^"]*)"', wrapped)
    ]
    assert starts[0][0] == f"jd-section {NEAR}" and starts[-1][0] == "jd-section"
    for classes, above in starts:
        assert (NEAR in classes) == (above < FIRST_SCREEN_PX), (classes, above)


def test_a_notebook_view_is_wrapped_inside_its_notebook_element():
    from engine.site.sections import wrap_sections

    heading = '<div class="jp-Cell"><h2 id="part">Part</h2></div>\n'
    cell = '<div class="jp-Cell"><pre>' + "x = 1\n" * 40 + "</pre></div>\n"
    cells = heading + cell * 4 + heading + cell * 4
    wrapped = wrap_sections(
        f'<div class="jupyter-wrapper"><div class="jp-Notebook">{cells}</div></div>'
    )

    assert wrapped.startswith('<div class="jupyter-wrapper"><div class="jp-Notebook">')
    assert wrapped.endswith("</div></div>") and wrapped.count('class="jd-section"') >= 2
    sections = re.findall(r"<section[^>]*>(.*?)</section>", wrapped, re.S)
    assert sections and all("<h2" not in body for body in sections)  # headings stay outside
    assert wrapped.split("<section", 1)[0].count("<pre") == 2  # the first screen stays bare


def test_a_page_without_headings_or_with_little_text_is_left_as_it_is():
    from engine.site.sections import wrap_sections

    assert wrap_sections("<p>short</p>\n<p>page</p>\n") == "<p>short</p>\n<p>page</p>\n"
    assert wrap_sections("") == ""
