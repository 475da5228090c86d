"""Zensical is pinned to a release the package registry here can install; the comment above the
pin and MAINTAINERS.md's "Upgrading Zensical" give the one line that upgrades it. These tests
read only files of the project, never the registry: they hold the pin, the lock and the notes
together, keep the version out of the code (what differs between releases is checked on the
installed Zensical, tests/browser/test_zensical.py), and check the key that keeps a warm
Zensical build from showing stale outputs."""

from __future__ import annotations

import re
import tomllib

import pytest
from packaging.requirements import Requirement

from engine.page.model import ROOT
from engine.run.results import Outcome, PageResult
from engine.site.render import Site, render_provenance
from engine.site.run_step import rendered_digest
from tests.helpers import fence, page

pytestmark = pytest.mark.unit  # every test here (tests/conftest.py)

SECTION = "## Upgrading Zensical"
BLOCKER = "zensical-ui"  # what every later release needs and the registry here does not serve


def pinned() -> Requirement:
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["dependency-groups"]
    (requirement,) = groups["zensical"]
    return Requirement(requirement)


def locked() -> dict[str, str]:
    lock = tomllib.loads((ROOT / "uv.lock").read_text("utf-8"))
    return {package["name"]: package["version"] for package in lock["package"]}


def upgrade_line() -> str:
    """The commented line above the pin: what the zensical group becomes once it installs."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    comment = re.search(r"((?:^#.*\n)+)zensical = \[", text, re.MULTILINE)[1]
    return re.search(r"^#\s+(zensical = \[.*\])$", comment, re.MULTILINE)[1]


def maintainers_section() -> str:
    text = (ROOT / "MAINTAINERS.md").read_text("utf-8")
    assert SECTION in text, f"MAINTAINERS.md has no {SECTION!r}"
    return text.split(SECTION, 1)[1].split("\n## ", 1)[0]


def test_the_pin_the_lock_and_the_upgrade_notes_agree():
    version = locked()["zensical"]
    assert str(pinned().specifier) == f"=={version}", "pyproject.toml and uv.lock differ: uv lock"
    section = maintainers_section()
    assert f"Zensical {version}" in section, f"{SECTION} names another release than {version}"
    assert upgrade_line() in section, f"{SECTION} does not give the comment's line {upgrade_line()}"
    upgrade = Requirement(tomllib.loads(upgrade_line())["zensical"][0])
    assert upgrade.name == "zensical"
    assert version not in upgrade.specifier, "the upgrade line would keep the pinned release"


def test_the_reason_for_the_pin_still_holds():
    """Once the lock holds zensical-ui, the upgrade has happened: the pin comment and the
    section must then describe the release in use, and this file its new constraint."""
    assert BLOCKER not in locked(), (
        f"{BLOCKER} is locked now: rewrite pyproject.toml's comment above the zensical group, "
        f"MAINTAINERS.md's {SECTION!r} and tests/test_zensical_upgrade.py for the new release"
    )
    assert BLOCKER in (ROOT / "pyproject.toml").read_text("utf-8")


def test_no_code_names_the_pinned_zensical_release():
    """Code that behaves by Zensical release asks the installed one, never a copy of the pin:
    the upgrade stays one line."""
    version = locked()["zensical"]
    places = [*ROOT.glob("engine/**/*"), *ROOT.glob("tests/**/*.py"), *ROOT.glob("docs/**/*.md")]
    places += [ROOT / "noxfile.py", ROOT / "mkdocs.yml", ROOT / "README.md"]
    naming = [
        path.relative_to(ROOT).as_posix()
        for path in places
        if path.suffix in {".py", ".html", ".j2", ".md", ".yml"}
        and version in path.read_text("utf-8")
    ]
    assert naming == []


def test_the_zensical_cache_key_follows_an_output_while_the_page_text_stays():
    """A warm Zensical build keeps each page by its text and the extension's options; the
    option the run step passes changes with an output, and only then."""
    demo = page(fence("print('hello')"))

    def digest(output: str) -> str:
        result = PageResult(outcomes=[Outcome(output=output)], environment={})
        return rendered_digest(Site(ROOT, pages={demo.path: demo}, results={demo.path: result}))

    assert digest("hello\n") == digest("hello\n")
    assert digest("hello\n") != digest("hello, again\n")


def test_a_code_less_page_names_the_same_run_whatever_order_the_builder_lists_pages_in():
    """MkDocs lists each folder's index first, Zensical's run step sorts: the footer of a page
    without code names the build's newest run in both (the first page's run made track/'s footer
    differ by a minute between the two builds when docs/index.md and docs/about/ ran apart)."""
    where = {"jax": "0.1", "jaxlib": "0.1", "python": "3.12", "platform": "Linux", "device": "cpu"}
    runs = {
        "docs/index.md": PageResult([Outcome()], {**where, "produced": "2026-12-06 20:29 UTC"}),
        "docs/about/a.md": PageResult([Outcome()], {**where, "produced": "2026-12-06 20:30 UTC"}),
        "docs/track/index.md": PageResult([], {}, cached=True),  # no code
    }

    def footer(order: list[str]) -> str:
        site = Site(ROOT, results={path: runs[path] for path in order})
        return render_provenance(site.results["docs/track/index.md"], site.environment())

    mkdocs = footer(["docs/index.md", "docs/about/a.md", "docs/track/index.md"])
    assert mkdocs == footer(sorted(runs))  # Zensical's order
    assert "This site was built" in mkdocs and "on 2026-12-06 20:30 UTC." in mkdocs
