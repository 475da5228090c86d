"""The run layer: block contracts, time limits, isolation between pages, the cache, charts,
timing claims, and what a failure says."""

from __future__ import annotations

import gc
import json
import logging
import threading
import time
from pathlib import Path

import pytest
from timing_marks import clockless

from engine.run import cache, environment, imports, pages, timing
from engine.run.execute import execute_block, new_namespace
from engine.run.pages import execute_pages, run_page
from engine.run.results import PageFailure, PageResult
from engine.run.sybil_setup import restore_state, snapshot_state
from tests.helpers import PAIR_GOOD, fence, page, recording

# ---------------------------------------------------------------- contracts


def test_a_page_run_leaves_no_pipe_open(recwarn):
    """An unclosed pipe warns when it is collected, into the output of whatever block runs then
    (a test that ran a block in-process beside page runs once caught four such warnings)."""
    before = threading.active_count()
    run_page(page("# Demo\n\n" + fence("print(1)")))
    deadline = time.monotonic() + 10
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.01)  # the threads that read the child's output end at its end
    gc.collect()
    leaks = [str(w.message) for w in recwarn if issubclass(w.category, ResourceWarning)]
    assert not leaks, leaks


def test_unexpected_exception_names_page_line_and_frames():
    demo = page("# Demo\n\n" + fence("x = 1\nraise KeyError('missing')"))
    with pytest.raises(PageFailure) as caught:
        run_page(demo)
    message = str(caught.value)
    assert message.startswith("docs/demo/test-page.md:3: unexpected exception")
    assert "KeyError: 'missing'" in message
    assert 'File "docs/demo/test-page.md", line 5' in message  # the traceback's last frame


def run_in_process(demo) -> list:
    """A page's blocks in one namespace, as its child process runs them, but in this process:
    the ❌/✅ contracts are execute_block's, so testing them needs no child (the tests above and
    below that start one test what the child adds: pipes, frames, time limits, isolation)."""
    namespace = new_namespace()
    return [execute_block(block, namespace) for block in demo.blocks]


def test_bad_block_that_runs_clean_fails():
    demo = page(fence("x = 1", "bad: raises ValueError") + PAIR_GOOD)
    with pytest.raises(PageFailure, match=r":2: the ❌ block should raise ValueError, but it ran"):
        run_in_process(demo)


def test_bad_block_with_the_wrong_error_fails():
    demo = page(fence("int('x')", "bad: raises TypeError") + PAIR_GOOD)
    with pytest.raises(PageFailure, match=r"should raise TypeError, but it raised ValueError"):
        run_in_process(demo)


def test_bad_block_with_the_declared_error_renders_it():
    demo = page(fence("int('x')", "bad: raises ValueError") + PAIR_GOOD)
    outcomes = run_in_process(demo)
    assert outcomes[0].error.startswith("ValueError: invalid literal for int()")
    assert outcomes[1].output == "fixed\n"


def test_bad_asserts_block_whose_assertions_stop_holding_fails():
    demo = page(fence("assert 1 + 1 == 3, 'wrong on purpose'", "bad: asserts") + PAIR_GOOD)
    with pytest.raises(PageFailure, match=r"the ❌ block's assertions do not hold"):
        run_in_process(demo)


def test_bad_warns_block_must_warn():
    demo = page(fence("x = 1", "bad: warns UserWarning") + PAIR_GOOD)
    with pytest.raises(PageFailure, match=r"should warn UserWarning, but it emitted no warning"):
        run_in_process(demo)


def test_good_block_that_raises_fails():
    demo = page(fence("1 / 0", "bad: raises ZeroDivisionError") + fence("1 / 0", "good"))
    with pytest.raises(PageFailure, match=r":6: unexpected exception .*ZeroDivisionError"):
        run_in_process(demo)


# ---------------------------------------------------------------- hangs


def test_hanging_block_is_stopped_by_its_own_time_limit():
    demo = page(fence("import time\ntime.sleep(60)", "timeout: 0.5"))  # any limit proves it
    with pytest.raises(PageFailure, match=r":2: block did not finish within 0.5 s"):
        run_page(demo)


def test_block_deaf_to_signals_is_killed_by_the_parent(monkeypatch):
    monkeypatch.setattr(pages, "KILL_GRACE_SECONDS", 0.3)  # short limits: the test waits them out
    code = (
        "import signal, time\n"
        "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\n"
        "time.sleep(60)"
    )
    demo = page(fence(code, "timeout: 0.5"))
    with pytest.raises(PageFailure, match=r":2: block did not finish within 0.8 s and was stopped"):
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


# ---------------------------------------------------------------- cache


def test_corrupt_cache_entry_is_detected_and_recomputed_without_a_warning(tmp_path, caplog):
    """mkdocs --strict fails on any WARNING; a corrupt entry that simply runs again is no fault."""
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
    with caplog.at_level("DEBUG", logger="mkdocs.jitdocs"):
        results = execute_pages([demo], cache_dir=tmp_path, report=lines.append)
    assert [("executed" in line) for line in lines] == [True, True, True]
    assert results[demo.path].outcomes[0].output == "hello\n"
    notes = [r for r in caplog.records if "discarded the corrupt kept file" in r.getMessage()]
    assert notes and all(r.levelno < logging.WARNING for r in notes)


def test_warm_run_executes_nothing(tmp_path):
    demo = page(fence("print('hello')"))
    lines: list[str] = []
    execute_pages([demo], cache_dir=tmp_path, report=lines.append)
    result = execute_pages([demo], cache_dir=tmp_path, report=lines.append)[demo.path]
    assert result.cached and "cached" in lines[1]


@pytest.mark.unit
def test_changed_dependency_version_invalidates_the_cache(monkeypatch):
    demo = page(fence("print('hello')"))
    before = cache.cache_key(demo, environment.environment_fingerprint())
    real_version = environment.installed_version
    monkeypatch.setattr(
        environment,
        "installed_version",
        lambda name: "9.9.9" if name == "jaxlib" else real_version(name),
    )
    after = cache.cache_key(demo, environment.environment_fingerprint())
    assert before != after


@pytest.mark.unit
def test_prose_edits_keep_the_key_and_code_edits_change_it():
    fingerprint = environment.environment_fingerprint()
    original = cache.cache_key(page("Intro.\n\n" + fence("x = 1")), fingerprint)
    reworded = cache.cache_key(page("A new intro,\nlonger.\n\n" + fence("x = 1")), fingerprint)
    recoded = cache.cache_key(page("Intro.\n\n" + fence("x = 2")), fingerprint)
    assert original == reworded != recoded


@pytest.mark.unit
def test_imported_local_module_is_part_of_the_key():
    modules = imports.project_files(["from jitkit import time_it"])
    assert "def time_it" in modules["snippets/jitkit.py"]


NESTED_IMPORTS = """
import a.b
def f():
    from c import d
    class K:
        import e
if x:
    pass
else:
    import f1
try:
    import g
except ImportError:
    import h
finally:
    import i
for _ in y:
    with z:
        from j.k import m
while w:
    import n
match v:
    case 1:
        import o
lambda: __import__("not_a_statement")
from . import relative
"""


@pytest.mark.unit
def test_imports_are_found_wherever_a_statement_may_stand():
    """The import finder walks statements only; ast.walk (every node) must find no more."""
    import ast

    def every_node_import(tree):  # the full walk, as the finder did before
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                yield from (alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                yield node.module
                yield from (f"{node.module}.{alias.name}" for alias in node.names)

    modules = [NESTED_IMPORTS, *(path.read_text() for path in imports.ROOT.glob("snippets/*.py"))]
    for source in modules:
        tree = ast.parse(source)
        assert set(every_node_import(tree)) <= imports._imported_names(tree)
    names = imports._imported_names(ast.parse(NESTED_IMPORTS))
    assert {"a.b", "c.d", "e", "f1", "g", "h", "i", "j.k.m", "n", "o"} <= names
    assert "not_a_statement" not in names and "relative" not in names


@pytest.mark.unit
def test_a_module_is_parsed_once_for_every_page_that_imports_it(monkeypatch):
    """Each page's key and notebook follow its imports; jitkit, which most pages import, is
    parsed once per process (kept by its text), and a block without an import not at all."""
    parsed = []
    parse = imports.ast.parse
    monkeypatch.setattr(imports.ast, "parse", lambda source: parsed.append(source) or parse(source))
    imports._imports_and_reads.cache_clear()
    pages = ["from jitkit import time_it\nx = 1", "import jitkit\ny = 2", "z = jnp.ones(3)"]
    found = [imports.project_files([source]) for source in pages]

    jitkit = (imports.ROOT / "snippets" / "jitkit.py").read_text(encoding="utf-8")
    assert found[0]["snippets/jitkit.py"] == found[1]["snippets/jitkit.py"] == jitkit
    assert found[2] == {}
    assert parsed.count(jitkit) == 1 and pages[2] not in parsed
    assert parsed.count(pages[0]) == parsed.count(pages[1]) == 1


@pytest.mark.unit
def test_a_module_that_is_no_project_file_is_not_looked_for(monkeypatch):
    """jax, numpy and the standard library are most imports: no file is asked for under
    snippets/ or the root unless its first name is there."""
    from pathlib import Path

    asked = []
    is_file = Path.is_file
    monkeypatch.setattr(Path, "is_file", lambda path: asked.append(path) or is_file(path))
    modules = imports.project_files(["import jax.numpy as jnp\nimport functools\nimport jitkit"])
    assert "snippets/jitkit.py" in modules
    assert asked and not [path for path in asked if "jax" in path.parts or "functools" in path.name]


# ---------------------------------------------------------------- facts and version notes


def test_fact_that_stops_holding_names_the_fact():
    demo = page(fence("assert jnp.zeros(2).dtype == jnp.int8", "fact: zeros are int8"))
    with pytest.raises(PageFailure, match=r":2: the fact 'zeros are int8' does not hold"):
        run_in_process(demo)  # the fact's verdict is execute_block's


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


@pytest.mark.unit
def test_checker_and_the_check_files_it_reads_are_part_of_the_key():
    modules = imports.project_files(["from check_solution import checks_for"])
    assert "snippets/check_solution.py" in modules
    assert not [name for name in modules if name.startswith("engine/")]  # learner code only
    assert any(name.startswith("snippets/_checks/") for name in modules)


# ---------------------------------------------------------------- timing claims


@clockless
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


@clockless
def test_a_failed_timing_claim_travels_with_the_failure():
    code = "from jitkit import claim_ratio\nclaim_ratio('x vs y', 1.5, at_least=2)"
    with pytest.raises(PageFailure) as caught:
        run_page(page("# Demo\n\n" + fence(code)))
    (claim,) = caught.value.failure.timing_claims
    assert claim["measured"] == 1.5 and claim["margin"] == 0.75


# ---------------------------------------------------------------- defects found by fault injection


def test_syntax_error_names_the_page_line_not_example():
    demo = page("# Demo\n\n" + fence("x = 1\nprint(x))"))
    with pytest.raises(PageFailure) as caught:
        run_in_process(demo)  # the message is made in execute_block, as the child runs it
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


# ---------------------------------------------------------------- side by side (issue #28)


def records(log_dir) -> dict[str, dict]:
    return {path.stem: json.loads(path.read_text()) for path in log_dir.glob("*.json")}


def overlap(first: dict, second: dict) -> bool:
    return first["start"] < second["end"] and second["start"] < first["end"]


def quiet_build(demos, tmp_path, **options):
    return execute_pages(demos, cache_dir=tmp_path / "cache", report=lambda line: None, **options)


def test_pages_without_timing_claims_run_side_by_side(tmp_path):
    """Each page waits until the other has started: both pass only if they ran at once."""
    demos = [
        page(recording(tmp_path, "a", wait_for=("b",)), "docs/demo/a.md"),
        page(recording(tmp_path, "b", wait_for=("a",)), "docs/demo/b.md"),
    ]
    results = quiet_build(demos, tmp_path, workers=2)
    assert sorted(results) == ["docs/demo/a.md", "docs/demo/b.md"]
    a, b = records(tmp_path)["a"], records(tmp_path)["b"]
    assert a["pid"] != b["pid"] and overlap(a, b)


CLAIM = "from jitkit import claim_ratio\nclaim_ratio('fixed ratio', 8.0, at_least=2)"


@clockless
def test_a_timing_page_runs_with_no_other_page_beside_it(tmp_path, monkeypatch):
    monkeypatch.delenv(cache.TIMING_BESIDE_VARIABLE, raising=False)  # as `nox -s docs` builds
    claim = CLAIM
    demos = [
        page(recording(tmp_path, "a", wait_for=("b",)), "docs/demo/a.md"),
        page(recording(tmp_path, "timed", then=claim), "docs/demo/timed.md"),
        page(recording(tmp_path, "b", wait_for=("a",)), "docs/demo/b.md"),
    ]
    lines: list[str] = []
    results = execute_pages(demos, cache_dir=tmp_path / "cache", report=lines.append, workers=2)
    (claim_made,) = results["docs/demo/timed.md"].outcomes[0].timing_claims  # not shared-cpu
    assert claim_made["label"] == "fixed ratio" and "timing claims: 1" in lines[-1]
    seen = records(tmp_path)
    assert overlap(seen["a"], seen["b"])  # the others did run side by side
    assert not overlap(seen["timed"], seen["a"]) and not overlap(seen["timed"], seen["b"])


@clockless
def test_in_the_suites_build_a_timing_page_runs_beside_the_others_for_the_suite_only(
    tmp_path, monkeypatch
):
    """`nox -s tests` sets the variable: each page waits until the other has started."""
    monkeypatch.setenv(cache.TIMING_BESIDE_VARIABLE, "1")
    demos = [
        page(recording(tmp_path, "a", wait_for=("timed",)), "docs/demo/a.md"),
        page(recording(tmp_path, "timed", wait_for=("a",), then=CLAIM), "docs/demo/timed.md"),
    ]
    results = quiet_build(demos, tmp_path, workers=2)
    (claim_made,) = results["docs/demo/timed.md"].outcomes[0].timing_claims  # not told: no refusal
    assert claim_made["label"] == "fixed ratio"
    seen = records(tmp_path)
    assert overlap(seen["timed"], seen["a"])
    fingerprint = environment.environment_fingerprint()
    untimed, timed = ((d, cache.cache_key(d, fingerprint), tmp_path / "cache") for d in demos)
    assert cache.load_cached(*timed) and cache.load_cached(*untimed)  # the suite's tests count it
    monkeypatch.delenv(cache.TIMING_BESIDE_VARIABLE)
    assert cache.load_cached(*timed) is None  # a site to publish runs it again, alone
    assert cache.load_cached(*untimed)


@pytest.mark.unit
def test_a_run_stored_as_beside_others_is_read_back_only_for_the_suite(tmp_path, monkeypatch):
    demo = page("# Demo\n\n" + fence("x = 1"))
    monkeypatch.delenv(cache.TIMING_BESIDE_VARIABLE, raising=False)
    cache.store(demo, "key", PageResult([], {}), tmp_path, beside=True)
    assert cache.load_cached(demo, "key", tmp_path) is None
    monkeypatch.setenv(cache.TIMING_BESIDE_VARIABLE, "1")
    assert cache.load_cached(demo, "key", tmp_path).cached
    monkeypatch.setenv(cache.TIMING_BESIDE_VARIABLE, "0")
    assert cache.load_cached(demo, "key", tmp_path) is None
    cache.store(demo, "key", PageResult([], {}), tmp_path)  # run alone: read back by any build
    assert cache.load_cached(demo, "key", tmp_path).cached


def test_a_timing_claim_the_rule_cannot_see_fails_loudly_even_with_one_worker(tmp_path):
    hidden = "import jitkit\ngetattr(jitkit, 'claim' + '_ratio')('hidden', 8.0, at_least=2)"
    demo = page("# Demo\n\n" + fence(hidden))
    assert not timing.measures_time(demo)  # misclassified: it runs beside other pages
    with pytest.raises(PageFailure) as caught:
        quiet_build([demo], tmp_path, workers=1)
    assert caught.value.failure.kind == "shared-cpu"
    message = str(caught.value)
    assert message.startswith(
        "docs/demo/test-page.md:3: a timing claim ran beside other work: "
        "SharedCPUError: timing claim 'hidden' refused"
    )
    assert "@pytest.mark.timing" in message


FAIL = "raise AssertionError('{name} is broken')"


B_FAILS = "(log / 'b.failing').write_text(str(os.getpid()))\n" + FAIL.format(name="b")

A_FAILS_ONCE_B_IS_GONE = """
while not (log / "b.failing").exists():
    time.sleep(0.01)
while pathlib.Path(f"/proc/{(log / 'b.failing').read_text()}").exists():
    time.sleep(0.01)  # until the build has reaped b's process: b's failure came in first
""" + FAIL.format(name="a")


def test_the_failure_raised_is_the_earliest_in_page_order_and_later_pages_are_cancelled(
    tmp_path, monkeypatch
):
    """b fails first; a, before it in page order, still runs and fails, and is what is raised
    (as in a serial build); c, after b, never starts."""
    started, real_run_page = [], pages.run_page
    monkeypatch.setattr(
        pages,
        "run_page",
        lambda demo, **how: started.append(demo.path) or real_run_page(demo, **how),
    )
    demos = [
        page(recording(tmp_path, "a", then=A_FAILS_ONCE_B_IS_GONE), "docs/demo/a.md"),
        page(recording(tmp_path, "b", then=B_FAILS), "docs/demo/b.md"),
        page(recording(tmp_path, "c"), "docs/demo/c.md"),
    ]
    with pytest.raises(PageFailure, match=r"^docs/demo/a\.md:1: .*a is broken"):
        quiet_build(demos, tmp_path, workers=2)
    assert sorted(started) == ["docs/demo/a.md", "docs/demo/b.md"]


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in "ZX"


SLOW_WITH_A_CHILD = """
import subprocess
sleeper = subprocess.Popen(["sleep", "60"])
(log / "sleeper").write_text(str(sleeper.pid))
time.sleep(60)
"""


def test_a_failure_stops_the_later_pages_still_running_with_their_processes(tmp_path):
    """b (after a in page order) and the process it started are killed when a fails: b never
    records its end, and nothing of it is left running."""
    wait_for_sleeper = "while not (log / 'sleeper').exists():\n    time.sleep(0.01)\n"
    demos = [
        page(
            recording(tmp_path, "a", then=wait_for_sleeper + FAIL.format(name="a")),
            "docs/demo/a.md",
        ),
        page(recording(tmp_path, "b", then=SLOW_WITH_A_CHILD), "docs/demo/b.md"),
    ]
    with pytest.raises(PageFailure, match=r"^docs/demo/a\.md:1: .*a is broken"):
        quiet_build(demos, tmp_path, workers=2)
    assert not (tmp_path / "b.json").exists()
    assert not running(int((tmp_path / "sleeper").read_text()))


def test_the_preview_reports_each_failing_page_and_runs_the_others(tmp_path):
    demos = [
        page(recording(tmp_path, "a", then=FAIL.format(name="a")), "docs/demo/a.md"),
        page(recording(tmp_path, "b"), "docs/demo/b.md"),
        page(recording(tmp_path, "c", then=FAIL.format(name="c")), "docs/demo/c.md"),
        page(recording(tmp_path, "d"), "docs/demo/d.md"),
    ]
    failed = {}
    results = quiet_build(
        demos, tmp_path, workers=2, on_failure=lambda p, error: failed.update({p.path: error})
    )
    assert sorted(results) == ["docs/demo/b.md", "docs/demo/d.md"]
    assert sorted(failed) == ["docs/demo/a.md", "docs/demo/c.md"]
    assert "c is broken" in str(failed["docs/demo/c.md"])


def test_the_longest_page_starts_first(tmp_path):
    """With one worker the pages run one by one, longest first: by the seconds of their last
    run when the cache has one, else by their number of blocks."""
    short, long, known = (f"docs/demo/{name}.md" for name in ("short", "long", "known"))
    demos = [
        page(recording(tmp_path, "short"), short),
        page(recording(tmp_path, "long") + fence("x = 1") + fence("y = 2"), long),
        page(recording(tmp_path, "known"), known),
    ]
    last_run = PageResult([], {}, seconds=30.0)  # a stale entry: its key does not match
    cache.store(demos[2], "an older key", last_run, tmp_path / "cache")
    lines: list[str] = []
    execute_pages(demos, cache_dir=tmp_path / "cache", report=lines.append, workers=1)
    seen = records(tmp_path)
    assert (
        seen["known"]["end"]
        <= seen["long"]["start"]
        < seen["long"]["end"]
        <= seen["short"]["start"]
    )
    assert [line.split()[1] for line in lines] == [known, long, short]  # as they end


def test_logged_warnings_show_in_the_output_as_a_terminal_shows_them():
    """JAX's cache-miss report is a warning of the ``jax`` logger: the reader's one line shows it,
    here under pytest too (whose log capture would otherwise take it)."""
    code = (
        "double = jax.jit(lambda v: v * 2)\n"
        "with jax.explain_cache_misses(True):\n"
        "    double(jnp.ones(3))\n"
        "    double(jnp.ones(4))\n"
    )
    (block,) = page(f"# T\n\n```python\n{code}```\n").blocks
    output = execute_block(block, new_namespace()).output
    assert output.count("TRACING CACHE MISS") == 2
    assert "* at v, now f32[4] and before f32[3]" in output


def test_each_block_is_its_own_file_so_jax_never_mixes_up_two_blocks_call_sites():
    """JAX's cache-miss report says a function is "being re-defined repeatedly" when it sees a new
    function at a call site it saw before; blocks that all ran as one file made that false hint
    whenever two blocks called a new function at the same line and column."""
    code = (
        "def {name}(v):\n    return v + 1\n"
        "with jax.explain_cache_misses(True):\n    jax.jit({name})(jnp.ones(2))\n"
    )
    parsed = page("# T\n\n" + "".join(fence(code.format(name=name)) for name in ("one", "two")))
    namespace = new_namespace()
    first, second = (execute_block(block, namespace).output for block in parsed.blocks)
    assert "never seen function" in first and "never seen function" in second
    assert "<example 2>:4:4" in second and "re-defined repeatedly" not in second
