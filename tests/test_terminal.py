"""Page code that misbehaves cannot leak into the machine or the site (engine/run/terminal.py,
issue #29).

A block that leaves a process running, prints without end, or prints terminal control codes:
the build stops the processes and says where they came from, fails on oversized output with the
page, line and size, and renders colours as styled text with no raw control byte in the HTML.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shlex
import subprocess
import time
from pathlib import Path

import pytest

from engine.page import model
from engine.page.model import ROOT
from engine.page.parser import read_page
from engine.run import pages
from engine.run.execute import execute_block, new_namespace
from engine.run.pages import execute_pages, run_page
from engine.run.results import PageFailure
from engine.site.labels import marker_table
from engine.site.notebooks import build_notebook
from tests import tiers
from tests.helpers import build_one_page, fence, page

RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")  # \t and \n are text


def sleeper(pid_file: Path, seconds: int = 600) -> str:
    """Code that starts `sleep` in a child process, notes its pid, and does not wait for it."""
    return (
        "import subprocess\n"
        f"child = subprocess.Popen(['sleep', '{seconds}'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
    )


def gone(pid: int, within: float = 5.0) -> bool:
    """True once ``pid`` is no longer a running process (ended, or a zombie nobody reaped)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True
        if state in "ZX":
            return True
        time.sleep(0.05)
    return False


@pytest.fixture(autouse=True)
def _no_sleep_survives(tmp_path):
    """Whatever a test asserts, no `sleep` it started outlives it."""
    yield
    for pid_file in tmp_path.glob("*.pid"):
        pid = int(pid_file.read_text())
        if not gone(pid, within=0.1):
            os.kill(pid, 9)


needs_proc = pytest.mark.skipif(
    not Path("/proc/self/stat").is_file(), reason="finding a page's processes needs Linux /proc"
)


# ---------------------------------------------------------------- processes


@needs_proc
def test_a_process_a_block_leaves_running_is_stopped_and_named_with_its_line(tmp_path, caplog):
    pid_file = tmp_path / "sleep.pid"
    demo = page("# Demo\n\n" + fence("print('first')") + "\n" + fence(sleeper(pid_file)))
    with caplog.at_level(logging.WARNING, logger="mkdocs.jitdocs"):
        execute_pages([demo], cache_dir=tmp_path, report=lambda line: None)
    pid = int(pid_file.read_text())
    assert gone(pid), f"sleep 600 (pid {pid}) still runs after its page finished"
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings
    assert "docs/demo/test-page.md:7 left 1 process running; it was stopped" in warnings[0]
    assert f"sleep 600 (pid {pid})" in warnings[0]

    # The result is cached with what the block left behind, so a warm build says it again
    # (and `mkdocs build --strict` keeps failing until the page is fixed).
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="mkdocs.jitdocs"):
        results = execute_pages([demo], cache_dir=tmp_path, report=lambda line: None)
    assert results[demo.path].cached
    assert any("test-page.md:7 left 1 process" in r.getMessage() for r in caplog.records)


@needs_proc  # the warning and the stop are proven in-process above, in both tiers
@tiers.only_when_changed("engine/", "tests/helpers.py", "tests/test_terminal.py")
def test_a_strict_build_of_a_page_that_leaves_sleep_600_fails_naming_it_and_stops_it(tmp_path):
    pid_file = tmp_path / "sleep.pid"  # outside the project: page code may not write in it
    project = tmp_path / "project"
    project.mkdir()
    done, _ = build_one_page(project, "# Demo\n\n" + fence(sleeper(pid_file)))
    assert done.returncode != 0
    assert "docs/index.md:3 left 1 process running; it was stopped (sleep 600" in done.stderr
    assert "PermissionError" not in done.stderr
    assert gone(int(pid_file.read_text()))


@needs_proc
def test_a_block_that_waits_for_its_processes_leaves_nothing_to_report(tmp_path, caplog):
    code = "import subprocess\nsubprocess.run(['sleep', '0.1'], check=True)\nprint('done')"
    with caplog.at_level(logging.WARNING, logger="mkdocs.jitdocs"):
        execute_pages([page(fence(code))], cache_dir=tmp_path, report=lambda line: None)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@needs_proc
def test_a_process_caught_exiting_is_not_reported_and_a_running_one_is(tmp_path):
    """A process seen with no command line is in its last moment (the kernel has dropped its
    memory): stop_all does not report it as a leftover. A zombie is in that state for good."""
    from engine.run import terminal

    exiting = subprocess.Popen(["true"])
    running = subprocess.Popen(["sleep", "600"])
    (tmp_path / "sleep.pid").write_text(str(running.pid))
    deadline = time.monotonic() + 5.0  # until `sleep` has replaced the forked Python (exec)
    while terminal.command_line(running.pid) != "sleep 600" and time.monotonic() < deadline:
        time.sleep(0.01)
    assert gone(exiting.pid)  # a zombie: ended, not yet waited for
    assert terminal.command_line(exiting.pid) == ""
    rounds = iter([{exiting.pid}])
    assert terminal.stop_all(lambda: next(rounds, set())) == []
    rounds = iter([{running.pid}])
    assert terminal.stop_all(lambda: next(rounds, set())) == [f"sleep 600 (pid {running.pid})"]
    assert gone(running.pid)
    exiting.wait(), running.wait()


@needs_proc
def test_a_daemon_that_forks_twice_and_leaves_the_session_is_stopped_too(tmp_path):
    pid_file = tmp_path / "daemon.pid"
    code = f"""
    import os, subprocess, time
    if os.fork() == 0:  # the classic daemon: fork, new session, fork again, parent exits
        os.setsid()
        if os.fork() == 0:
            open({str(pid_file)!r}, 'w').write(str(os.getpid()))
            time.sleep(600)
        os._exit(0)
    while not os.path.exists({str(pid_file)!r}):
        time.sleep(0.01)
    time.sleep(0.1)
    """
    outcome = run_page(page(fence(code))).outcomes[0]
    pid = int(pid_file.read_text())
    assert gone(pid)
    assert len(outcome.stopped) == 1 and f"(pid {pid})" in outcome.stopped[0]


@needs_proc
def test_a_block_that_times_out_has_its_processes_stopped_and_reported(tmp_path):
    pid_file = tmp_path / "sleep.pid"
    demo = page(fence(sleeper(pid_file) + "import time\ntime.sleep(60)", "timeout: 0.5"))
    with pytest.raises(PageFailure) as caught:
        run_page(demo)
    message = str(caught.value)
    assert message.startswith("docs/demo/test-page.md:2: block did not finish within 0.5 s")
    assert "docs/demo/test-page.md:2 left 1 process running; it was stopped" in message
    assert gone(int(pid_file.read_text()))


def fails_and_stops(demo, failure: str, pid_file: Path, line: int, caplog) -> None:
    """The page fails as ``failure`` says; its `sleep` is gone, and a warning names it."""
    with (
        caplog.at_level(logging.WARNING, logger="mkdocs.jitdocs"),
        pytest.raises(PageFailure, match=failure),
    ):
        run_page(demo)
    pid = int(pid_file.read_text())
    assert gone(pid)
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    where = f"test-page.md:{line} left 1 process running"
    assert any(where in m and f"(pid {pid})" in m for m in said), said


@needs_proc
def test_processes_of_a_page_killed_by_the_parent_are_stopped_too(tmp_path, monkeypatch, caplog):
    """A hang the block's own timer cannot stop: the build kills the page's process, then
    everything left in the page's session."""
    monkeypatch.setattr(pages, "KILL_GRACE_SECONDS", 0.3)  # short limits: the test waits them out
    pid_file = tmp_path / "sleep.pid"
    code = (  # deaf first: a slow start of `sleep` must not let the block's own timer stop it
        "import signal, time\n"
        "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\n"
        + sleeper(pid_file)
        + "time.sleep(60)"
    )
    failure = r":2: block did not finish within 0.8 s and was stopped"
    fails_and_stops(page(fence(code, "timeout: 0.5")), failure, pid_file, 2, caplog)


@needs_proc
def test_processes_of_a_page_whose_process_dies_are_stopped_and_named(tmp_path, caplog):
    pid_file = tmp_path / "sleep.pid"
    code = sleeper(pid_file) + "import os\nos._exit(3)"
    failure = r":1: the page's process exited \(3\)"
    fails_and_stops(page(fence(code)), failure, pid_file, 1, caplog)


@needs_proc
def test_without_proc_the_page_process_group_is_killed(tmp_path, monkeypatch):
    """Where the build cannot list processes, it kills the page's process group instead."""
    monkeypatch.setattr(pages, "KILL_GRACE_SECONDS", 0.3)
    monkeypatch.setattr(pages.terminal, "PROC", tmp_path / "no-proc")  # in the build only
    pid_file = tmp_path / "sleep.pid"
    code = sleeper(pid_file) + "import os, time\nos.kill(os.getpid(), 19)"  # SIGSTOP: a hang
    with pytest.raises(PageFailure, match="did not finish"):
        run_page(page(fence(code, "timeout: 0.5")))
    assert gone(int(pid_file.read_text()))


@needs_proc
def test_what_a_process_started_before_the_block_starts_meanwhile_is_left_alone(tmp_path):
    """The test suite runs blocks in its own process, beside a browser the browser tests keep
    open: a process that existed before the block, and what it starts, is not the block's."""
    go, started = (shlex.quote(str(tmp_path / name)) for name in ("go", "started"))
    # It starts its `sleep 30` once the block has begun, and the block ends once it has: in step,
    # with no fixed wait.
    waits = f"until [ -e {go} ]; do sleep 0.01; done; sleep 30 & touch {started}; wait"
    helper = subprocess.Popen(["sh", "-c", waits])
    try:
        code = (
            f"import os, pathlib, time\npathlib.Path({str(tmp_path / 'go')!r}).touch()\n"
            f"while not os.path.exists({str(tmp_path / 'started')!r}):\n    time.sleep(0.01)"
        )
        outcome = execute_block(page(fence(code)).blocks[0], new_namespace())
        assert outcome.stopped == []
        assert helper.poll() is None  # its second sleep started during the block, and runs
    finally:
        helper.kill()
        helper.wait()


def test_the_build_starts_each_page_in_a_session_of_its_own():
    """The guarantee that holds without /proc too: the page's processes share a session (and
    a process group) that the build's own process is not in, so killing it spares the build."""
    code = "import os\nprint(os.getsid(0) == os.getpid(), os.getpgid(0) == os.getpid())"
    outcome = run_page(page(fence(code))).outcomes[0]
    assert outcome.output == "True True\n"


def test_temporary_files_a_page_forgets_are_removed_with_its_process():
    code = (
        "import os, tempfile\n"
        "handle, path = tempfile.mkstemp()\n"
        "print(path)\n"
        "assert os.path.exists(path)"
    )
    path = Path(run_page(page(fence(code))).outcomes[0].output.strip())
    assert path.name and not path.exists() and not path.parent.exists()
    assert path.parent.name.startswith("jitdocs-page-")


# ---------------------------------------------------------------- output size


def test_a_block_that_prints_50_mb_fails_with_page_line_and_size_as_fast_as_a_normal_page():
    started = time.perf_counter()
    run_page(page(fence("print('x' * 10)")))
    normal = time.perf_counter() - started
    started = time.perf_counter()
    with pytest.raises(PageFailure) as caught:
        run_page(page("# Demo\n\n" + fence("print('x' * 50_000_000)")))
    huge = time.perf_counter() - started
    assert str(caught.value).startswith(
        "docs/demo/test-page.md:3: the block printed 47.7 MB, more than its limit of "
        f"{model.DEFAULT_MAX_OUTPUT_KB} KB"
    )
    assert caught.value.failure.kind == "output"
    assert huge < normal + 5.0, (huge, normal)  # generous: a 50 MB string still gets built


@pytest.mark.unit
def test_captured_output_past_the_limit_is_counted_not_kept():
    from engine.run import terminal

    buffer = terminal.CappedOutput(limit=1024)
    for _ in range(1000):
        buffer.write("é" * 1000)  # 2 bytes each in UTF-8
    assert buffer.size == 2_000_000 and buffer.overflowed
    assert len(buffer.getvalue()) <= 1024


def test_the_max_output_marker_lets_one_block_print_more():
    """In-process: execute_block applies the limit; the 50 MB test above proves it in a child."""
    code = "print('y' * 200_000)"
    with pytest.raises(PageFailure, match=r"printed 195.3 KB, more than its limit of 100 KB"):
        execute_block(page(fence(code)).blocks[0], new_namespace())
    outcome = execute_block(page(fence(code, "max-output: 300")).blocks[0], new_namespace())
    assert len(outcome.output) == 200_001
    assert "`<!-- max-output: KB -->`" in marker_table()
    with pytest.raises(Exception, match="takes a whole number of KB"):
        page(fence(code, "max-output: lots"))


# ---------------------------------------------------------------- control characters

COLOURED = r"""
import sys
print("\x1b[31mred\x1b[0m, \x1b[1;32mbold green\x1b[0m, <b>not a tag</b>")
print("a NUL\x00, a bell\x07, a DEL\x7f, an escape alone \x1b.")
sys.stdout.write("10%\r50%\r100%\n")
print("\x1b]0;a window title\x07\x1b[2Kcleared line")
print("\n\nafter two blank lines")
"""


def test_terminal_output_is_cleaned_as_a_terminal_shows_it():
    block = page(fence(COLOURED)).blocks[0]
    output = execute_block(block, new_namespace()).output
    assert output == (
        "\x1b[31mred\x1b[0m, \x1b[1;32mbold green\x1b[0m, <b>not a tag</b>\n"
        "a NUL\\x00, a bell\\x07, a DEL\\x7f, an escape alone \\x1b.\n"
        "100%\n"
        "cleared line\n"
        "\n\nafter two blank lines\n"
    )
    assert not RAW_CONTROL.search(output.replace("\x1b[", ""))  # only colour codes are left


# A throwaway build (its own config): the engine's behaviour, which no page changes. In-process
# in both tiers meanwhile: test_terminal_output_is_cleaned_as_a_terminal_shows_it and
# test_kept.py::test_the_renderer_draws_coloured_outputs.
@tiers.only_when_changed("engine/", "tests/helpers.py", "tests/test_terminal.py")
def test_colours_and_control_characters_in_a_built_page(tmp_path):
    """Top level and inside a ❌ box (an admonition): no raw control byte reaches the HTML, the
    colours are nbconvert's classes, and the text outside them is escaped."""
    error = "raise ValueError('\\x1b[33mwarned\\x1b[0m\\x00')"
    text = "# Demo\n\n" + fence(COLOURED) + "\n" + fence(COLOURED + error, "bad: raises ValueError")
    done, html = build_one_page(tmp_path, text + "\n" + fence("print('fine')", "good"))
    assert done.returncode == 0, done.stderr
    text = html.read_text(encoding="utf-8")
    assert not RAW_CONTROL.search(text), RAW_CONTROL.findall(text)
    assert text.count('<span class="ansi-red-fg">red</span>') == 2
    assert text.count('<span class="ansi-green-intense-fg ansi-bold">bold green</span>') == 2
    assert text.count("bold green</span>, &lt;b&gt;not a tag&lt;/b&gt;") == 2
    assert "<b>not a tag" not in text
    assert text.count("a NUL\\x00, a bell\\x07") == 2
    assert text.count("\n\n\nafter two blank lines\n</code>") == 2  # blank lines kept in <pre>
    assert 'ValueError: <span class="ansi-yellow-fg">warned</span>\\x00' in text
    assert "jitdocs-colour-" not in text  # every placeholder was swapped for its HTML


ADDRESSES = """class Holder:
    pass


def scale(v):
    return v


holder, other = Holder(), Holder()
print(scale, scale)  # the same function twice: one number
print(f"<Holder {id(holder)}> and <Holder {id(other)}>, not 0x3f800000 or 1234")
print(f"scale id={id(scale)} defined here, holder id={id(holder)}")
raise TypeError(f"cannot trace {scale}")"""


def test_memory_addresses_and_object_ids_are_numbered_in_outputs_and_errors():
    """They change with every run; numbered in order of first appearance, a rebuild shows the same
    output and one object keeps one number. Other hex and numbers stay as printed."""
    block = page(fence(ADDRESSES, "bad: raises TypeError") + fence("pass", "good")).blocks[0]
    first, second = (execute_block(block, new_namespace()) for _ in range(2))
    assert first.output == second.output and first.error_message == second.error_message
    assert first.output == (
        "<function scale at @1> <function scale at @1>\n"
        "<Holder @2> and <Holder @3>, not 0x3f800000 or 1234\n"
        "scale id=@1 defined here, holder id=@2\n"
    )
    assert first.error_message == "cannot trace <function scale at @1>"


@pytest.mark.unit
def test_every_colour_nbconvert_emits_has_a_light_and_a_dark_value():
    from nbconvert.filters.ansi import _ANSI_COLORS

    css = (ROOT / "docs" / "assets" / "jitdocs.css").read_text(encoding="utf-8")
    schemes = {
        name: " ".join(re.findall(rf"^{re.escape(selector)} \{{(.*?)\}}", css, re.DOTALL | re.M))
        for name, selector in (
            ("light", ':root, [data-md-color-scheme="default"]'),
            ("dark", '[data-md-color-scheme="slate"]'),
        )
    }
    for colour in _ANSI_COLORS:
        for scheme in schemes.values():
            assert f"--jd-{colour}: #" in scheme, colour
        for end in ("fg", "bg"):
            assert f".md-typeset .{colour}-{end} {{" in css, (colour, end)


def test_the_notebook_and_its_view_show_the_output_as_the_page_does(tmp_path):
    """The downloadable notebook holds the same cleaned text (Jupyter colours SGR codes itself);
    the notebook view, rendered by mkdocs-jupyter with the project's template, has the page's
    coloured HTML."""
    from mkdocs_jupyter.nbconvert2 import nb2html
    from nbconvert.filters.ansi import ansi2html

    (tmp_path / "docs" / "course").mkdir(parents=True)
    (tmp_path / "snippets").mkdir()
    (tmp_path / "docs" / "course" / "demo.md").write_text("# Demo\n\n" + fence(COLOURED))
    parsed = read_page("docs/course/demo.md", tmp_path)
    outcome = execute_block(parsed.blocks[0], new_namespace())
    notebook = build_notebook(parsed, outcomes=[outcome], root=tmp_path)
    streams = [
        output["text"]
        for cell in notebook["cells"]
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream"
    ]
    assert streams == [outcome.output]
    path = tmp_path / "demo.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    view = nb2html(
        str(path), custom_template=str(ROOT / "engine" / "site" / "notebook_view.html.j2")
    )
    assert not RAW_CONTROL.search(view)
    assert '<span class="ansi-red-fg">red</span>' in view
    assert str(ansi2html(outcome.output.rstrip("\n"))) in view  # as colour_outputs makes it
