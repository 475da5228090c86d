"""The run step: parse and run every page once, and make the files the site adds. MkDocs' hook
calls ``run_site``; ``python -m engine.site.run_step SITE_DIR`` builds with Zensical.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
from functools import partial
from pathlib import Path

from engine.page.model import MarkupError, Page
from engine.page.parser import page_paths, read_page, split_front_matter
from engine.page.policy import policy, wants_notebook
from engine.run import accelerator, compatibility, record
from engine.run.environment import locked_versions
from engine.run.files import log, write_if_changed
from engine.run.pages import execute_pages
from engine.run.results import PageFailure
from engine.site import (
    differences,
    extension,
    practice,
    setup_steps,
    version_notes,
)
from engine.site.error_index import Index
from engine.site.kept import Conversions
from engine.site.labels import figure_uris
from engine.site.notebooks import build_notebook, dumps, notebook_uri
from engine.site.render import Site

FRESH_VARIABLE = "JITDOCS_FRESH"  # set by `nox -s docs -- --fresh`: ignore the cache
CACHE_VARIABLE = "JITDOCS_CACHE_DIR"  # another cache, e.g. for a build against another JAX


def refuse_copies(pages: dict[str, Page]) -> None:
    """Stop on two pages whose text is the same: the extension knows a page by its text (a
    builder hands it nothing else), so it could not tell which of the two it renders."""
    seen: dict[str, str] = {}
    for path, page in pages.items():
        if (first := seen.setdefault(page.text.strip(), path)) != path:
            raise MarkupError(
                f"{path}:1: its text is the same as {first}'s (a copy?); the build knows a page "
                f"by its text, so it cannot render both. Make {path} its own before building: "
                "its title and opening at least (or take it out of the nav)"
            )


def run_site(
    root: Path, paths: list[str], config: dict, preview=False, kept=Conversions, views=False
) -> Site:
    """Parse and run the pages at ``paths`` (relative to ``root``); ``config`` is mkdocs.yml's
    (its nav and site_url). ``preview``: a failing page shows its error, the others go on.
    ``views``: the builder makes notebook views (MkDocs' hook), which pages then link."""
    cache_dir = Path(os.environ.get(CACHE_VARIABLE) or root / policy(root).cache_dir)
    fresh = os.environ.get(FRESH_VARIABLE) == "1"
    site = Site(root, kept=kept(cache_dir, fresh), site_url=config.get("site_url") or "")
    for path in paths:
        try:
            site.pages[path] = read_page(path, root)
        except MarkupError as error:
            if not preview:
                raise
            site.failures[path] = str(error)
            text = split_front_matter((root / path).read_text(encoding="utf-8"))[0]
            site.pages[path] = Page(path, text=text)  # shown as written, under its error
    refuse_copies(site.pages)
    record_to = record.record_file()  # `nox -s tests`: its examples report this run
    keep_going = partial(keep_failure, failures=site.failures) if preview or record_to else None
    runnable = [page for path, page in site.pages.items() if path not in site.failures]
    results = execute_pages(
        runnable,
        fresh,
        cache_dir,
        on_failure=keep_going,
        record_to=record_to,
        project=root,
        preview=preview,
    )
    site.results = {path: results[path] for path in results if path not in site.failures}
    for path, result in site.results.items():
        add_figures(site, site.pages[path], result)
        add_notebook(site, site.pages[path], result)
    add_robots_txt(site)
    site.files[setup_steps.CHECKER_URI] = setup_steps.checker_script(root)
    site.course = practice.course_nav(config.get("nav") or [])
    site.practice = practice.items(site.pages, [path for _, path in site.course])
    recorded = compatibility.load(root / compatibility.DATA)
    site.compatibility = with_this_run(site, recorded) or {}
    site.device = accelerator.load(root / accelerator.DATA)
    site.errors = Index.of(site.pages, site.results)
    site.views = views  # before the search vectors render the pages, as they will be rendered
    from engine.site import search_vectors  # here: NumPy is no renderer's (test_kept_imports)

    if (root / search_vectors.TABLE).is_file():  # a project without the table searches by words
        site.files[search_vectors.URI] = search_vectors.site_vectors(site)
    log.info(version_notes.summary(list(site.pages.values()), recorded))
    return site


def with_this_run(site: Site, recorded: dict | None) -> dict | None:
    """The compatibility data the site renders: the file's, with this build's run of its pages
    as the record of the JAX release it ran them with (the pinned one, unless a build is given
    another), so a page the build ran shows its claims on that release even before
    ``nox -s matrix`` has run it."""
    run = compatibility.run_verdicts(site.pages, site.results)
    return compatibility.with_run(recorded, site.environment().get("jax", ""), run)


def keep_failure(page: Page, error: PageFailure, failures: dict[str, str]) -> None:
    """Preview and `nox -s tests` only: remember the error for the page, and say so loudly (at
    INFO: mkdocs' strict mode turns any warning into a stopped server, or a stopped test run
    that would not report the failing examples)."""
    failures[page.path] = str(error)
    log.info("jitdocs: PAGE FAILED, its error is shown on the page:\n%s", error)


def add_figures(site: Site, page: Page, result) -> None:
    """Each chart's light and dark SVG, named by their content."""
    for figure in (figure for outcome in result.outcomes for figure in outcome.figures):
        uris = figure_uris(figure, page.path)
        for uri, svg in zip(uris, (figure.light, figure.dark), strict=True):
            site.files.setdefault(uri, svg)


def add_notebook(site: Site, page: Page, result) -> None:
    """A chapter page (or the exercise workbook) as a Jupyter notebook next to it, with the
    outputs this build recorded (so a cached page needs no new run for its notebook)."""
    if not wants_notebook(page.path):
        return
    outputs = {"outcomes": result.outcomes, "environment": result.environment}
    pinned = locked_versions(site.root)["jax"]
    records = differences.recorded(page, site.device, site.compatibility, pinned)
    notebook = build_notebook(
        page, root=site.root, site_url=site.site_url, records=records, **outputs
    )
    site.notebooks[page.path] = notebook
    site.files[notebook_uri(page.path)] = dumps(notebook)


def add_robots_txt(site: Site) -> None:
    """robots.txt names the sitemap by its full address, so it follows ``site_url``."""
    site_url = site.site_url.rstrip("/")
    sitemap = [f"Sitemap: {site_url}/sitemap.xml"] if site_url else []
    site.files["robots.txt"] = "\n".join(["User-agent: *", "Allow: /", *sitemap]) + "\n"


def standalone(root: Path) -> Site:
    """The run step for a builder without hooks: mkdocs.yml read as MkDocs reads it (``!ENV``
    included), every Markdown file under its docs_dir run."""
    from mkdocs.utils.yaml import yaml_load  # the YAML tags MkDocs' config uses

    with open(root / "mkdocs.yml", encoding="utf-8") as file:
        config = yaml_load(file)
    return run_site(root, page_paths(root, config.get("docs_dir", "docs")), config)


def build_with_zensical(root: Path, site_dir: str) -> int:
    """``zensical build --strict`` of the project at ``root`` into ``site_dir``, in this process:
    the pages render from one run step (the Markdown extension finds its ``Site`` published),
    then the files the site adds are written (Zensical has no hook to add them). Never
    ``--clean``: it deletes all of .cache/ (the run cache too)."""
    import zensical  # only this build needs it (the `zensical` dependency group)

    site = standalone(root)
    extension.publish(site)
    os.environ |= {"JITDOCS_BUILD_DIR": site_dir, "JITDOCS_OUTPUTS": rendered_digest(site)}
    try:
        zensical.build(str(root / "mkdocs.yml"), {"strict": True, "clean": False})
    except Exception as error:
        log.error("zensical build failed: %s", error)
        return 1
    for uri, content in site.files.items():
        write_if_changed(root / site_dir / uri, content)
    return 0


def rendered_digest(site: Site) -> str:
    """Every page's Markdown as the extension renders it, and the engine that turns it into
    HTML: what a page's outputs depend on beyond its text. Zensical keeps each rendered page in
    .cache/ by its text and the Markdown extensions' options; this digest, as the extension's
    ``outputs`` option, renders every page again when any output changed, and none when none
    did."""
    digest = hashlib.sha256()
    for path in sorted(site.pages):
        digest.update(site.markdown(path).encode())
    for source in sorted((site.root / "engine").rglob("*")):
        if source.suffix in (".py", ".html", ".j2"):
            digest.update(source.read_bytes())
    return digest.hexdigest()


if __name__ == "__main__":  # python -m engine.site.run_step SITE_DIR: the Zensical build
    logging.basicConfig(format="%(message)s")
    sys.exit(build_with_zensical(Path.cwd(), sys.argv[1]))
