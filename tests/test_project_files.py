"""The project's own files: CI workflows, the CI entry point, pre-commit and the PR template.

GitHub Actions cannot run here, so these tests check what can be checked offline: the YAML
parses, every `nox -s NAME` it runs is a session in noxfile.py, the pull-request workflow cannot
write to the repository, and the README's test command is what CI runs.
"""

from __future__ import annotations

import ast
import re
import shlex
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

from engine.page.model import ROOT
from tests import tiers

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs

WORKFLOWS = ROOT / ".github" / "workflows"
NOX_CALL = re.compile(r"\bnox\b([^\n;&|`]*)")


def nox_sessions() -> set[str]:
    """Names of the functions decorated with @nox.session in noxfile.py (read, not imported)."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            call = decorator.func if isinstance(decorator, ast.Call) else decorator
            if ast.unparse(call) in {"nox.session", "session"}:
                renamed = [
                    kw.value.value
                    for kw in getattr(decorator, "keywords", [])
                    if kw.arg == "name" and isinstance(kw.value, ast.Constant)
                ]
                names.add(renamed[0] if renamed else node.name)
    return names


def called_sessions(text: str) -> list[str]:
    """Every session named after `nox -s` / `nox --sessions` in shell text or Markdown."""
    found = []
    for match in NOX_CALL.finditer(text):
        try:
            words = shlex.split(match[1], comments=False)
        except ValueError:
            words = match[1].split()
        taking = False
        for word in words:
            if word.startswith("#"):
                break  # a shell comment
            if word in {"-s", "--session", "--sessions"}:
                taking = True
            elif word.startswith("-"):
                taking = False
            elif taking:
                found.append(word)
    return found


def load_workflow(name: str) -> dict:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    if True in data:  # YAML 1.1 reads the key `on:` as the boolean True
        data["on"] = data.pop(True)
    return data


def run_scripts(workflow: dict) -> str:
    """The shell text a workflow runs, with the CI entry point inlined where it is called."""
    scripts = []
    for job in workflow["jobs"].values():
        for step in job.get("steps", []):
            script = step.get("run", "")
            if ".ci/run" in script:
                script += "\n" + (ROOT / ".ci" / "run").read_text(encoding="utf-8")
            scripts.append(script)
    return "\n".join(scripts)


def readme_test_command() -> str:
    """The README's quick-start line that runs the tests, without its trailing comment."""
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if re.search(r"\bnox -s tests\b", line) and "pip install" in line:
            return line.split(" #", 1)[0].strip()
    raise AssertionError("README.md has no quick-start line that installs nox and runs the tests")


ALL_WORKFLOWS = sorted(p.name for p in WORKFLOWS.glob("*.y*ml"))


def test_the_three_workflows_exist():
    assert {"pr.yml", "deploy.yml", "drift.yml"} <= set(ALL_WORKFLOWS)


def test_session_reader_finds_the_known_sessions():
    assert {"docs", "tests", "lint", "serve", "new", "drift"} <= nox_sessions()
    assert called_sessions('nox -s drift -- "jax==0.11.*"\nnox -s lint tests') == [
        "drift",
        "lint",
        "tests",
    ]


@pytest.mark.parametrize("name", ALL_WORKFLOWS)
def test_workflow_parses_and_calls_only_existing_sessions(name):
    workflow = load_workflow(name)
    assert workflow["on"] and workflow["jobs"], name
    for job_name, job in workflow["jobs"].items():
        assert "runs-on" in job, f"{name}: job {job_name} has no runs-on"
        assert job.get("steps"), f"{name}: job {job_name} has no steps"
        for step in job["steps"]:
            assert ("run" in step) != ("uses" in step), f"{name}: {step} needs run or uses"
            if "uses" in step:
                assert re.search(r"@(v\d+|[0-9a-f]{40})$", step["uses"]), (
                    f"{name}: pin {step['uses']} to a version"
                )
    called = called_sessions(run_scripts(workflow))
    assert called, f"{name} runs no nox session"
    assert set(called) <= nox_sessions(), (
        f"{name} calls unknown sessions {set(called) - nox_sessions()}"
    )


@pytest.mark.parametrize("name", ALL_WORKFLOWS)
def test_no_workflow_runs_untrusted_code_with_secrets(name):
    text = (WORKFLOWS / name).read_text(encoding="utf-8")
    workflow = load_workflow(name)
    assert "pull_request_target" not in workflow["on"], f"{name}: use pull_request"
    assert workflow.get("permissions") == {"contents": "read"}, f"{name}: top-level token read-only"
    assert "secrets." not in text, f"{name} must not use secrets"
    # Inputs reach scripts through env, never pasted into the shell text.
    for step in (s for job in workflow["jobs"].values() for s in job["steps"]):
        assert "${{" not in step.get("run", ""), f"{name}: pass {step['run']!r} values via env"


def test_pull_requests_lint_test_and_build_read_only():
    workflow = load_workflow("pr.yml")
    assert "pull_request" in workflow["on"]
    assert all("permissions" not in job for job in workflow["jobs"].values())
    assert {"lint", "tests", "docs"} <= set(called_sessions(run_scripts(workflow)))
    for job in workflow["jobs"].values():
        for step in job["steps"]:
            if step.get("uses", "").startswith("actions/checkout"):
                assert step["with"]["persist-credentials"] is False


def test_main_builds_and_deploys_with_the_official_pages_actions():
    workflow = load_workflow("deploy.yml")
    assert workflow["on"]["push"]["branches"] == ["main"]
    uses = [s.get("uses", "") for j in workflow["jobs"].values() for s in j["steps"]]
    for action in (
        "actions/configure-pages",
        "actions/upload-pages-artifact",
        "actions/deploy-pages",
    ):
        assert any(u.startswith(action + "@") for u in uses), action
    assert "docs" in called_sessions(run_scripts(workflow))
    deploy = workflow["jobs"]["deploy"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert "permissions" not in workflow["jobs"]["build"]  # the job running page code: read-only


def test_drift_runs_weekly():
    workflow = load_workflow("drift.yml")
    assert workflow["on"]["schedule"][0]["cron"].split()[-1] in {"0", "1", "2", "3", "4", "5", "6"}
    assert "drift" in called_sessions(run_scripts(workflow))


def test_ci_entry_point_runs_the_readme_test_command_in_the_full_tier():
    """The README's command with `-- --full` (tests/tiers.py): CI runs every test."""
    command = readme_test_command()
    assert command == 'python3 -m pip install "nox[uv]" && nox -s tests'
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert f"{command} -- {tiers.FULL_OPTION}" in [line.strip() for line in lines]


@pytest.mark.parametrize(
    "name", ["README.md", "CONTRIBUTING.md", "MAINTAINERS.md", ".github/pull_request_template.md"]
)
def test_documented_sessions_exist(name):
    called = called_sessions((ROOT / name).read_text(encoding="utf-8"))
    assert called, f"{name} names no nox session"
    assert set(called) <= nox_sessions(), (
        f"{name} names unknown sessions {set(called) - nox_sessions()}"
    )


def test_pull_request_template_has_the_checklist():
    text = (ROOT / ".github" / "pull_request_template.md").read_text(encoding="utf-8")
    items = re.findall(r"^- \[ \] (.+)$", text, flags=re.MULTILINE)
    assert len(items) >= 6, items
    needed_items = ("nox -s lint", "nox -s tests", "nox -s docs", "assert", "alt text", "stress")
    for needed in (*needed_items, "own words"):
        assert any(needed in item for item in items), f"checklist misses {needed!r}"


def test_pre_commit_hooks_are_local_and_pinned():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = {}
    for repo in config["repos"]:
        assert repo["repo"] == "local", "hooks are installed from PyPI, never cloned from GitHub"
        hooks.update({hook["id"]: hook for hook in repo["hooks"]})
    wanted = {
        "ruff-check",
        "ruff-format",
        "codespell",
        "end-of-file-fixer",
        "trailing-whitespace",
        "validate-pyproject",
    }
    assert wanted <= set(hooks)
    for hook in hooks.values():
        for requirement in hook.get("additional_dependencies", []):
            assert re.fullmatch(r"[\w.\[\]-]+==[\w.]+", requirement), f"pin {requirement}"
    locked = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))["package"]
    ruff = next(p["version"] for p in locked if p["name"] == "ruff")
    for hook_id in ("ruff-check", "ruff-format"):
        assert hooks[hook_id]["additional_dependencies"] == [f"ruff=={ruff}"], (
            f"{hook_id}: keep ruff at uv.lock's version {ruff}"
        )


def nox_function(name: str) -> str:
    source = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    found = next(
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and node.name == name
    )
    return ast.get_source_segment(source, found)


def test_lint_session_runs_pre_commit():
    assert '"pre-commit"' in nox_function("lint")


def test_a_stale_lock_fails_lint_and_ci():
    """`uv sync --frozen` alone never compares uv.lock with pyproject.toml."""
    assert '"uv", "lock", "--check"' in nox_function("lint")
    assert '"--locked" if os.environ.get("CI")' in nox_function("install")


def test_the_browser_tests_get_node_for_the_search_suite():
    """tests/browser/test_search_quality.py runs the site's search worker under Node.js: the
    session installs Debian's nodejs as it does chromium, and CI without it stops at once."""
    assert "ensure_node(session)" in nox_function("run_suite")
    assert 'apt_install(session, "nodejs")' in nox_function("ensure_node")
    assert 'os.environ.get("CI")' in nox_function("ensure_node")


def test_the_page_session_tests_what_each_page_has():
    """A page without code has no examples: pytest given only that page would stop with
    "no tests ran" and fail `nox -s page` on a page that is fine."""
    from engine.tools.page_outputs import page_tests

    assert '"engine.tools.page_outputs", "--tests"' in nox_function("page")
    pages = ["docs/reference/summary.md", "docs/reference/cheat-sheet.md", "docs/course/loops.md"]
    assert page_tests(pages) == [
        "docs/reference/cheat-sheet.md",
        "docs/course/loops.md",
        "tests/test_notebooks.py::test_notebook_runs_top_to_bottom[docs/course/loops.md]",
    ]


def test_listing_the_sessions_runs_nothing():
    """`nox -l` reads the noxfile: at import it starts no process and changes no variable."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    module_level = [
        node for node in tree.body if not isinstance(node, ast.FunctionDef | ast.ClassDef)
    ]
    code = "\n".join(ast.unparse(node) for node in module_level)
    assert "subprocess" not in code.replace("import subprocess", "")
    assert "os.environ[" not in code and "os.environ.pop" not in code
    assert "os.environ.setdefault" not in code
    source = nox_function("find_python")
    assert "subprocess" not in source and ".run(" not in source


def test_pytest_rejects_unknown_config_keys():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    addopts = options["tool"]["pytest"]["ini_options"]["addopts"]
    assert "--strict-config" in addopts and "--strict-markers" in addopts


def test_contributing_covers_the_newcomer_path():
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for needed in (
        "docs/about/conventions.md",
        "nox -s new --",
        "nox -s serve",
        "nox -s page -- docs/",
        "nox -s tests -- docs/",
        "fig.set_label",
        "<!-- bad: raises",
        "nox -s check --",
        "nox -s drift",
    ):
        assert needed in text, f"CONTRIBUTING.md should explain {needed!r}"
    assert (ROOT / "docs" / "about" / "conventions.md").is_file()


DEMAND_SECTION = "## What learners ask:"  # a table of learners' questions, not guide text


def guide_words() -> int:
    """CONTRIBUTING.md's words, the demand table's section left out (it is data)."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    if DEMAND_SECTION in text:
        before, after = text.split(DEMAND_SECTION, 1)
        text = before + (after.split("\n## ", 1)[1] if "\n## " in after else "")
    return len(text.split())


def test_the_contributor_guide_fits_in_about_3000_words():
    """What a contributor reads to add a section; maintainers' notes live in MAINTAINERS.md."""
    assert guide_words() <= 3000, f"CONTRIBUTING.md has {guide_words()} words: move or cut"
    head = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8").split("\n## ")[1]
    assert head.startswith("Add a section") and "nox -s new --" in head  # the path comes first


GUIDES = ("README.md", "CONTRIBUTING.md", "MAINTAINERS.md")  # their links to their own headings


def heading_anchors(text: str) -> set[str]:
    """GitHub's anchors for a Markdown file's headings (lowercase, punctuation dropped)."""
    return {
        re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        for heading in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)
    }


def test_every_link_into_the_guides_finds_its_heading():
    broken = []
    for document in [*prose_files(), *tracked_text_files()]:
        if document.suffix not in (".md", ".py", ".toml", ".js"):
            continue
        text = document.read_text("utf-8", "replace")
        own = re.findall(r"\]\(#([\w-]+)\)", text) if document.name in GUIDES else []
        links = re.findall(r"((?:CONTRIBUTING|MAINTAINERS)\.md)#([\w-]+)", text)
        for guide, anchor in [*links, *((document.name, anchor) for anchor in own)]:
            if anchor not in heading_anchors((ROOT / guide).read_text("utf-8")):
                broken.append(f"{document.relative_to(ROOT)}: {guide}#{anchor}")
    assert not broken, broken


def test_paths_are_relative_to_the_project():
    assert Path(ROOT, "noxfile.py").is_file()


def test_readme_images_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    assert images, "the README shows the site"
    for image in images:
        assert (ROOT / image).is_file(), image


# `snippets/why_compile/chart.py` in backticks: a path in the repository, possibly with :line.
NAMED_PATH = re.compile(r"`((?:snippets|engine|docs|tests)/[^`\s:]*)(?::\d+)?`")
PLACEHOLDER = re.compile(r"[<>*{}]|\bNAME\b")  # `snippets/<page_slug>/NAME.py` is a pattern


def named_paths(text: str) -> list[str]:
    return [path for path in NAMED_PATH.findall(text) if not PLACEHOLDER.search(path)]


def prose_files() -> list[Path]:
    guides = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "MAINTAINERS.md"]
    return [*sorted((ROOT / "docs").rglob("*.md")), *guides]


@pytest.mark.parametrize("document", prose_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_project_path_the_prose_names_exists(document):
    missing = [
        path for path in named_paths(document.read_text("utf-8")) if not (ROOT / path).exists()
    ]
    assert not missing, f"{document.relative_to(ROOT)} names paths that do not exist: {missing}"


def test_the_path_guard_catches_a_missing_path_and_skips_patterns():
    text = "see `snippets/why_compile/chart.py:12`, `snippets/<slug>/NAME.py` and `engine/nope.py`"
    assert named_paths(text) == ["snippets/why_compile/chart.py", "engine/nope.py"]
    assert not (ROOT / "engine/nope.py").exists()


def test_the_deployed_site_gets_the_real_pages_address():
    """Canonical links, the sitemap and notebook links must not point at a placeholder host."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^site_url: !ENV \[SITE_URL, \"http://127\.0\.0\.1:8000/\"\]$", config, re.M)
    steps = load_workflow("deploy.yml")["jobs"]["build"]["steps"]
    pages = next(
        i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/configure-pages")
    )
    build = next(i for i, s in enumerate(steps) if "nox -s docs" in s.get("run", ""))
    assert pages < build, "configure-pages must run before the build to know the address"
    step_id = steps[pages].get("id")
    assert steps[build]["env"]["SITE_URL"] == f"${{{{ steps.{step_id}.outputs.base_url }}}}/"


# Places a clone does not have: the workspace around the repository and its private notes.
OUTSIDE = re.compile("|".join([r"\.\./" + "shared", "/" + "work/", "reference " + "notes"]))


def tracked_text_files() -> list[Path]:

    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    binary = {".png", ".ico", ".svg", ".lock"}
    return [ROOT / n for n in names if n and (ROOT / n).is_file() and Path(n).suffix not in binary]


def test_no_project_file_names_a_path_outside_the_repository():
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in tracked_text_files()
        for number, line in enumerate(path.read_text("utf-8", "replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not offenders, "\n".join(offenders)


def test_the_outside_pattern_matches_what_it_guards_against():
    assert OUTSIDE.search("run ../" + "shared/tools/overlap")
    assert not OUTSIDE.search("see ../course/pitfalls.md")  # a link inside the docs is fine


def test_engine_module_names_cannot_be_mistaken_for_each_other():
    """`engine/check.py` beside `engine/checker.py` sent readers to the wrong one."""
    names = sorted(path.stem for path in (ROOT / "engine").rglob("*.py") if path.stem != "__init__")
    for name in names:
        clashes = [other for other in names if other != name and other.startswith(name)]
        assert not clashes, f"engine/{name}.py is a prefix of {clashes}: name what each does"


def test_every_engine_command_in_the_docs_exists():
    commands = set()
    docs = (
        "README.md",
        "CONTRIBUTING.md",
        "MAINTAINERS.md",
        "noxfile.py",
        "engine/tools/scaffold.py",
    )
    for doc in docs:
        text = (ROOT / doc).read_text(encoding="utf-8")
        commands |= set(re.findall(r"-m[\"', ]+engine\.([\w.]+\w)", text))
    assert {"tools.page_outputs", "tools.drift", "tools.scaffold"} <= commands
    for name in commands:
        assert (ROOT / "engine" / f"{name.replace('.', '/')}.py").is_file(), (
            f"python -m engine.{name}: no such module"
        )
