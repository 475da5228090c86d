"""Where the test suite's time goes (`nox -s profile`; MAINTAINERS.md says how to read it).

Loaded into pytest (``-p benchmarks.suite_profile``, with PROFILE_VARIABLE naming a folder), each
pytest process, xdist workers included, writes one line per test: its wall and CPU seconds (its
own and its finished children's; for a test in tests/browser also the browser's, whose processes
run on under pytest) and the programs it started. Run as a script on that folder, it prints the
profile: the files by total time, the slowest tests, and what the tests started (site builds,
page runs, notebook kernels, checkers, other Python processes).
"""

from __future__ import annotations

import collections
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

PROFILE_VARIABLE = "JITDOCS_PROFILE_DIR"
SLOWEST = 25
BROWSER_TESTS = "tests/browser/"  # their CPU counts the browser's processes too
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

# What a started program is, from its command line: (kind, the arguments it has, each whole or
# as a file's name).
KINDS = [
    ("site build (MkDocs)", ("mkdocs", "build")),
    ("preview server (mkdocs serve)", ("mkdocs", "serve")),
    ("site build (Zensical)", ("engine.site.run_step",)),
    ("page run (engine.run.child)", ("engine.run.child",)),
    ("warm process that forks page runs (engine.run.zygote)", ("engine.run.zygote",)),
    ("notebook kernel", ("ipykernel_launcher",)),
    ("check.py in a fresh venv", ("check.py",)),
    ("pytest in a copy of the project", ("pytest",)),
    ("browser driver (Playwright)", ("run-driver",)),
]


def kind_of(command: list[str]) -> str:
    words = {*command, *(Path(argument).name for argument in command)}
    for kind, needed in KINDS:
        if words.issuperset(needed):
            return kind
    program = Path(command[0]).name if command else "?"
    return "other Python process" if program.startswith("python") else f"other: {program}"


class Recorder:
    """Counts what each test starts and costs; appends a line per test to this process's file."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.file = folder / f"{os.getpid()}.jsonl"
        self.started: list[str] = []
        original = subprocess.Popen.__init__

        def counting_init(popen, args, *rest, **options):
            command = [os.fsdecode(args)] if isinstance(args, str | bytes) else list(map(str, args))
            self.started.append(kind_of(command))
            original(popen, args, *rest, **options)

        subprocess.Popen.__init__ = counting_init

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item):
        self.started.clear()
        browser = item.nodeid.startswith(BROWSER_TESTS)
        wall, cpu = time.perf_counter(), cpu_seconds() + running_cpu_seconds(browser)
        result = yield
        line = {
            "test": item.nodeid,
            "wall": time.perf_counter() - wall,
            # Below 0 only when a browser ended unwaited-for (in the session's last test): its
            # CPU was counted in the tests that used it.
            "cpu": max(cpu_seconds() + running_cpu_seconds(browser) - cpu, 0.0),
            "started": self.started,
        }
        with self.file.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(line) + "\n")
        return result


def cpu_seconds() -> float:
    """This process's CPU time and that of the children it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(-1)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def running_cpu_seconds(wanted: bool = True) -> float:
    """CPU seconds of every process still running under this one (a browser's), each with the
    children it has waited for (Chromium waits for its renderers), read from /proc; 0 where there
    is none, or when not ``wanted``."""
    parents, spent = {}, {}
    found = wanted and os.path.isdir("/proc")
    processes = [e for e in os.scandir("/proc") if e.name.isdigit()] if found else []
    for entry in processes:
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:  # it just ended
            continue
        # The fields after the command's name, which may hold ")".
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry.name)] = int(fields[1])
        spent[int(entry.name)] = sum(map(int, fields[11:15])) / CLOCK_TICKS  # utime..cstime
    below = collections.defaultdict(list)
    for pid, parent in parents.items():
        below[parent].append(pid)
    todo, total = list(below[os.getpid()]), 0.0
    while todo:
        pid = todo.pop()
        total += spent[pid]
        todo += below[pid]
    return total


def pytest_configure(config: pytest.Config) -> None:
    folder = os.environ.get(PROFILE_VARIABLE)
    if folder:
        config.pluginmanager.register(Recorder(Path(folder)), "suite-profile-recorder")


# ---------------------------------------------------------------- the report


def file_of(test: str) -> str:
    path = test.split("::", 1)[0]
    return "docs/ (each page's examples, Sybil)" if path.endswith(".md") else path


def profile_table(folder: Path) -> str:
    tests = [
        json.loads(line)
        for file in sorted(folder.glob("*.jsonl"))
        for line in file.read_text(encoding="utf-8").splitlines()
    ]
    by_file: dict[str, list[dict]] = collections.defaultdict(list)
    for test in tests:
        by_file[file_of(test["test"])].append(test)
    rows = ["| File | Tests | Wall s | CPU s |", "| --- | ---: | ---: | ---: |"]
    for name, group in sorted(by_file.items(), key=lambda item: -total(item[1], "wall")):
        rows.append(
            f"| {name} | {len(group)} | {total(group, 'wall'):.1f} | {total(group, 'cpu'):.1f} |"
        )
    slowest = sorted(tests, key=lambda test: -test["wall"])[:SLOWEST]
    rows += ["", "| Slowest tests | Wall s | CPU s |", "| --- | ---: | ---: |"]
    rows += [f"| {t['test']} | {t['wall']:.1f} | {t['cpu']:.1f} |" for t in slowest]
    started = collections.Counter(kind for test in tests for kind in test["started"])
    starters = collections.Counter(kind for test in tests for kind in set(test["started"]))
    rows += [
        "",
        "| Started by the tests | Processes | Tests that start one |",
        "| --- | ---: | ---: |",
    ]
    rows += [f"| {kind} | {n} | {starters[kind]} |" for kind, n in started.most_common()]
    rows += [
        "",
        f"{len(tests)} tests; wall {total(tests, 'wall'):.0f} s and CPU "
        f"{total(tests, 'cpu'):.0f} s summed over the pytest processes.",
    ]
    return "\n".join(rows)


def total(tests: list[dict], key: str) -> float:
    return sum(test[key] for test in tests)


if __name__ == "__main__":
    print(profile_table(Path(sys.argv[1])))
