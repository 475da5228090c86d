"""The notebook views (engine/site/notebook_view.py): rendered by mkdocs-jupyter, linked both ways,
slim and offline, the same outputs as their page, dark charts in dark mode, out of search, and
rebuilt from the cache without running anything.

Every view is also one of the site's pages, so test_pages.py checks each one for console errors,
requests off 127.0.0.1 and axe violations in light and dark (the first test here makes sure).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urljoin

import pytest
from bs4 import BeautifulSoup
from served_site import RENDERER, ROOT, html_file, html_of, page_urls, soup_of
from test_pages import site_config

from engine.page.parser import read_page
from engine.site.labels import VIEW_OPT_IN
from engine.site.notebook_view import view_uri
from tests import tiers

SIZE_LIMIT = 60 * 1024  # gzipped bytes of a view's own HTML and stylesheet
PER_EXERCISE = 8 * 1024  # the workbook's instead: each exercise has a starter and a solution
CHART_VIEW = "course/why-compile/notebook/"
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))
VIEWS = [p for p in PAGES if read_page(p).meta.get(VIEW_OPT_IN)]  # pages that ask for a view
# A view's checks depend on its built file: the default tier checks one view of each part (course,
# beyond, practice), the views of changed pages, and every view after a change to the renderer,
# theme or CSS or to this file; the full tier every view.
SAMPLED_VIEWS = tiers.one_per(
    VIEWS,
    lambda path: Path(path).parent.name,
    lambda path: [path, *RENDERER, "tests/browser/test_notebook_view.py"],
)


def view_url(page_path: str) -> str:
    return view_uri(page_path).removesuffix(".ipynb") + "/"


def page_url(page_path: str) -> str:
    return page_path.removeprefix("docs/").removesuffix(".md") + "/"


@pytest.mark.page_rule
def test_the_workbook_and_every_chapter_have_a_view_and_the_page_tests_visit_them(site_dir):
    chapters = {
        p.relative_to(ROOT).as_posix()
        for part in ("course", "beyond")
        for p in (ROOT / "docs" / part).glob("*.md")
    }
    assert {"docs/practice/exercises.md", *chapters} <= set(VIEWS)
    assert {view_url(p) for p in VIEWS} <= set(page_urls(site_dir))


@pytest.mark.parametrize("page_path", SAMPLED_VIEWS)
def test_view_is_mkdocs_jupyter_markup_linked_both_ways(site_dir, page_path):
    view = html_of(site_dir, view_url(page_path))
    view_links = BeautifulSoup(view, "html.parser")  # the text read once, searched both ways
    page = soup_of(site_dir, page_url(page_path))
    assert '<div class="jupyter-wrapper">' in view and 'class="jp-Notebook"' in view
    assert page.select('a[href="notebook/"]')[0]["class"] == ["jd-view"]
    back = view_links.select('a[href="../"]')
    assert back and "Back to the page" in view
    download = view_links.find_all("a", href=f"../../{Path(page_path).stem}.ipynb")
    assert download and (site_dir / page_url(page_path).rstrip("/")).with_suffix(".ipynb").is_file()


def test_the_workbook_view_folds_its_reference_solutions_as_the_page_does(site_dir):
    view = html_of(site_dir, view_url("docs/practice/exercises.md"))
    folded = view.split('<details class="success"><summary>Reference solution')[1:]
    inside = [part.split("</details>")[0].count("celltag_solution") for part in folded]
    assert folded and all(inside)
    assert sum(inside) == view.count("celltag_solution")  # no solution cell left unfolded


@pytest.mark.parametrize("page_path", SAMPLED_VIEWS)
def test_view_folds_its_install_and_setup_cells_as_plain_text(site_dir, page_path):
    """Long and at the top of every view: folded and unhighlighted, they cost a phone's first
    screen nothing to style (the install cell's highlighted code was most of it)."""
    cells = BeautifulSoup(html_of(site_dir, view_url(page_path)), "html.parser")
    for tag in ("install", "setup"):
        cell = cells.select_one(f".jp-Cell.celltag_{tag} .jp-InputArea-editor")
        assert cell is not None, (page_path, tag)
        folded = cell.select_one(":scope > details:not([open])")
        assert folded is not None and folded.summary.text.startswith(tag.title()), (page_path, tag)
        assert folded.pre.code.text.strip() and not folded.pre.select("span"), (page_path, tag)


@pytest.mark.parametrize("page_path", SAMPLED_VIEWS)
def test_view_is_slim_and_references_no_other_host(site_dir, page_path, record_property):
    view = html_file(site_dir, view_url(page_path))
    text = view.read_text(encoding="utf-8")
    own = view.read_bytes() + (site_dir / "assets/notebook-view.css").read_bytes()
    size = len(gzip.compress(own, compresslevel=6))
    record_property("gzipped_bytes", size)
    exercises = len(re.findall(r"^## Exercise \d+", (ROOT / page_path).read_text(), re.M))
    limit = PER_EXERCISE * exercises if exercises else SIZE_LIMIT
    assert size <= limit, f"{page_path}: {size} bytes gzipped (limit {limit})"
    site = site_config()["site_url"].rstrip("/")
    loaded = [
        element[name]
        for element in BeautifulSoup(text, "html.parser").find_all(True)
        for name in ("src", "href")
        if element.has_attr(name) and (element.name != "a" or element.get("rel") == ["stylesheet"])
    ]
    foreign = [u for u in loaded if re.match(r"(https?:)?//", u) and not u.startswith(site)]
    assert not foreign, foreign
    for loader in ("mathjax", "require.js", "requirejs", "mermaid", "<style"):
        assert loader not in text.lower(), loader


@pytest.mark.parametrize("page_path", SAMPLED_VIEWS)
def test_view_shows_the_outputs_of_its_page(site_dir, page_path):
    """Text outputs, errors and charts: the same on the view as on the page it mirrors (the
    view moves reference solutions to an appendix, so the order may differ). Read from the
    built HTML: the outputs are in it as text, so no browser is needed to compare them."""
    page = soup_of(site_dir, page_url(page_path))
    expected = [*output_texts(page), *figures(page, page_url(page_path))]
    view = soup_of(site_dir, view_url(page_path))
    shown = [
        *(pre.get_text().rstrip() for pre in view.select("article .jp-OutputArea-output pre")),
        *figures(view, view_url(page_path), "article .jp-OutputArea-output img.jd-figure"),
    ]
    assert expected, f"{page_path}: no outputs found on the page"
    assert sorted(shown) == sorted(expected)


def output_texts(html: BeautifulSoup) -> list[str]:
    """The text of each code block titled as an output ("Output ...", "Raises ...")."""
    titled = [(block, block.select_one(".filename")) for block in html.select("article .highlight")]
    return [
        block.select_one("code").get_text().rstrip()
        for block, title in titled
        if title and re.match(r"Output|Raises ", title.get_text())
    ]


def figures(html: BeautifulSoup, url: str, selector: str = "article img.jd-figure") -> list[str]:
    """The charts' addresses, resolved against the page's own (as a browser resolves them)."""
    return [urljoin(f"http://site/{url}", img["src"]) for img in html.select(selector)]


def test_view_shows_the_dark_charts_in_dark_mode(open_page):
    visit = open_page("dark")
    visit.goto(CHART_VIEW)
    page = visit.page
    light = page.locator('article img.jd-figure[src$="#only-light"]')
    dark = page.locator('article img.jd-figure[src$="#only-dark"]')
    assert dark.count() >= 1 and dark.count() == light.count()
    for index in range(dark.count()):
        dark.nth(index).scroll_into_view_if_needed()
        assert dark.nth(index).is_visible() and not light.nth(index).is_visible()
    assert page.locator("article pre > code").count() >= 1  # code marked up as the site's
    assert not visit.problems(), visit.problems()


def test_search_indexes_the_page_and_not_its_view(site_dir):
    index = json.loads((site_dir / "search/search_index.json").read_text(encoding="utf-8"))
    locations = {doc["location"].split("#")[0] for doc in index["docs"]}
    for page_path in VIEWS:
        assert page_url(page_path) in locations
        assert view_url(page_path) not in locations


def test_a_warm_rebuild_runs_nothing_and_makes_the_same_views(site_dir, tmp_path):
    """The views come from the outputs the build cached: a rebuild executes no page and
    renders the very same views."""
    command = [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(tmp_path / "site")]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # it makes every `import jax` ~3x slower
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    statuses = re.findall(r"jitdocs: \S+\s+\d+ blocks\s+(\w[\w ]*?)\s+[\d.]+ s", done.stderr)
    assert statuses and "executed" not in statuses, statuses
    for page_path in VIEWS:
        url = view_url(page_path)
        rebuilt = html_file(tmp_path / "site", url).read_bytes()
        assert rebuilt == html_file(site_dir, url).read_bytes(), url
