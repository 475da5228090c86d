"""The same pages built by Zensical, Material's successor, which runs Markdown extensions but no
MkDocs hooks or plugins: each page shows what the MkDocs build shows (the article, its header,
navigation, table of contents, footer and every link; zensical_compare.py), its header is as
tall, no link of the Zensical build leads nowhere, and its search box finds pages. The one
planned difference: the notebook views, which a MkDocs plugin renders, are not built there, nor
linked (the conventions page).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from html import unescape
from pathlib import Path
from urllib.parse import quote_plus, urlsplit

import pytest
from bs4 import BeautifulSoup
from page_survey import NEXT_FRAME
from served_site import FOREIGN, ROOT, page_urls, search_results, serve
from zensical_compare import ARTICLE, compare_sites, site_uris

from engine.page.parser import read_pages
from engine.site.labels import VIEW_OPT_IN
from engine.site.notebook_view import view_uri
from tests import tiers
from tests.search import quality

ZENSICAL_SITE = ".cache/zensical-site"  # Zensical writes only inside the project
HEADER_SLACK_PX = 3


def build_with_zensical() -> Path:
    """What `nox -s zensical` runs, from the run cache the MkDocs build filled."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    command = [sys.executable, "-m", "engine.site.run_step", ZENSICAL_SITE]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{command}:\n{done.stdout}{done.stderr}"
    return ROOT / ZENSICAL_SITE


@pytest.fixture(scope="session")
def zensical_site() -> Path:
    given = os.environ.get("JITDOCS_ZENSICAL_SITE_DIR")  # `nox -s tests` built it
    return Path(given) if given else build_with_zensical()


@pytest.fixture(scope="session")
def zensical_url(zensical_site):
    with serve(zensical_site) as url:
        yield url


def notebook_views() -> list[str]:
    """The pages with a notebook view: mkdocs-jupyter renders it, a plugin Zensical cannot run."""
    asking = [page.path for page in read_pages([]) if page.meta.get(VIEW_OPT_IN)]
    return sorted(view_uri(path).removesuffix("notebook.ipynb") for path in asking)


def test_the_zensical_build_has_every_page_but_the_notebook_views(site_dir, zensical_site):
    """The planned difference, and no other page missing on either side."""
    only_mkdocs = site_uris(site_dir) - site_uris(zensical_site)
    assert only_mkdocs == {f"{page}notebook/" for page in notebook_views()}
    assert site_uris(zensical_site) <= site_uris(site_dir)


def test_each_page_shows_what_the_mkdocs_build_shows(site_dir, zensical_site, url):
    """Article, header, navigation, table of contents, footer and links alike; only the notebook
    views and their links are MkDocs' alone. The default tier compares a sample (tests/tiers.py)."""
    views = notebook_views()
    if url.endswith("notebook/"):
        expected = [f"{url}: no article in the Zensical build"]
    else:
        expected = [f"{url}: view links: MkDocs has 1, Zensical 0"] if url in views else []
    found = [line.split("; #")[0] for line in compare_sites(site_dir, zensical_site, [url])]
    assert found == expected


def test_the_comparison_sees_each_part_rendered_differently(site_dir, tmp_path):
    """The check above can fail: a Zensical page whose output lost its text, whose article and
    navigation link elsewhere and whose search dialog lost its name is caught, part by part."""
    page = tmp_path / "course" / "loops" / "index.html"
    page.parent.mkdir(parents=True)
    soup = BeautifulSoup((site_dir / "course/loops/index.html").read_text("utf-8"), "html.parser")
    soup.select_one(f"{ARTICLE} .highlight .filename").find_parent().select_one("code").string = ""
    soup.select_one(f"{ARTICLE} a[href]:not(.jd-view)")["href"] = "../nowhere/"
    soup.select_one("nav.md-nav--primary a[href]")["href"] = "../nowhere/"
    del soup.select_one('[data-md-component="search"]')["aria-label"]
    page.write_text(str(soup), encoding="utf-8")
    differences = [line for line in compare_sites(site_dir, tmp_path) if "loops/:" in line]
    parts = ["outputs", "text", "article links", "header", "nav"]
    assert [line.split(": ")[1] for line in differences] == parts


# The search-quality suite through the Zensical build's worker, as its box asks it (under Node,
# tests/search/run_worker.js). Zensical's worker alone: 44% of the 77 questions answered by the
# first result, 19 listing nothing; with the site's front, 64% and none (MkDocs' build: 91%).
ZENSICAL_FIRST = 0.60


@pytest.fixture(scope="session")
def zensical_answers(zensical_site) -> dict[str, list]:
    """Each query's result groups from one run of the Zensical build's worker under Node: the
    suite's questions and word forms, and the searches typed in a browser below."""
    if shutil.which("node") is None:
        pytest.fail("the search-quality suite runs the site's search worker under Node.js")
    queries = quality.suite_queries(quality.load_suite()) + list(SEARCHES)
    return dict(zip(queries, quality.search(zensical_site, queries), strict=True))


def test_the_zensical_search_lists_sections_for_every_question(zensical_answers):
    questions, forms = quality.judge_suite(quality.load_suite(), zensical_answers)
    assert [o.query for o in questions + forms if not o.first] == []
    first = sum(1 for o in questions if o.first_answers) / len(questions)
    assert first >= ZENSICAL_FIRST, f"first result answers {first:.0%}"


# ---------------------------------------------------------------- in a browser

HEADER_WIDTHS = (1280, 412)
SEARCH_INDEXES = re.compile(r"/(search/search_index|search)\.json$")  # MkDocs', Zensical's
HEADER_HEIGHT = "() => document.querySelector('header.md-header').getBoundingClientRect().height"


# A header's height is the theme's templates (engine/site/overrides), the site's CSS and the
# header's words on the page measured, under the pinned Material and Zensical: the default tier
# measures it when one of them changed; the full tier always.
@tiers.only_when_changed(
    "mkdocs.yml",
    "engine/site/",
    "docs/assets/",
    tiers.source_of("course/loops/"),
    "tests/browser/test_zensical.py",
)
def test_the_zensical_header_is_as_tall_as_the_mkdocs_one(browser, base_url, zensical_url):
    """Zensical draws its own header; a template of Material's inside it (the search dialog
    once) stretched it to ~108 px with an unstyled form. At a desktop's and a phone's width, each
    measured on one load resized (the header's height is CSS layout, as on a load at that size);
    the search index, which no header reads, is not loaded."""
    heights = {}
    for name, url in (("MkDocs", base_url), ("Zensical", zensical_url)):
        page = browser.new_page(viewport={"width": HEADER_WIDTHS[0], "height": 900})
        page.route(FOREIGN, lambda route: route.abort("blockedbyclient"))
        page.route(SEARCH_INDEXES, lambda route: route.abort("blockedbyclient"))
        page.goto(url + "course/loops/", wait_until="load")
        for width in HEADER_WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.evaluate(NEXT_FRAME)
            heights[name, width] = page.evaluate(HEADER_HEIGHT)
        page.close()
    for width in HEADER_WIDTHS:
        mkdocs, zensical = heights["MkDocs", width], heights["Zensical", width]
        assert abs(mkdocs - zensical) <= HEADER_SLACK_PX, (width, heights)


# What a reader types into Zensical's search box, and where its first result must lead: three
# page titles and three API names, each to the page that teaches it, and a learner's question,
# to the section that answers it. Zensical's engine alone lists nothing for that question (no
# section holds "inside"); the site's search front (docs/assets/javascripts/workers/
# jitdocs-search.js) drops such words and asks again with fewer when nothing holds them all.
TITLES = {
    "Loops under jit": "course/loops/",
    "Why compiling is slow": "beyond/compile-time/",
    "Silent numeric traps": "beyond/numeric-traps/",
}
API_NAMES = {
    "static_argnums": "course/static-vs-traced/",
    "donate_argnums": "course/pitfalls/",
    "pure_callback": "beyond/callbacks/",
}
QUESTIONS = {"if statement inside jit error": "course/pitfalls/#1-a-python-if-on-a-traced-value"}
SEARCHES = TITLES | API_NAMES | QUESTIONS
# Zensical draws its search dialog in a shadow root (an open one, which Playwright's CSS
# selectors pierce): none of Material's .md-search__input or .md-search-result markup is there.
SEARCH_INPUT = "dialog input[role=combobox]"
RESULT = "dialog ol[role=listbox] a[role=option]"


# What a search's verdict depends on besides the page it opens: the Zensical build's inputs (as
# for the page comparison, tests/browser/conftest.py), the site's search front, and this proof.
SEARCH_INPUTS = ["mkdocs.yml", "engine/site/", "pyproject.toml", "uv.lock", "docs/assets/"]


def test_the_zensical_search_lists_first_the_page_each_search_opens(
    zensical_site, zensical_answers
):
    """What the box lists first for each search below, from its worker under Node: the page that
    teaches it (the section, for a question), whose title is the title typed, or whose article
    shows the API name typed."""
    for query, expected in SEARCHES.items():
        groups = zensical_answers[query]
        first = groups[0][0]["location"] if groups else ""
        path, _, anchor = expected.partition("#")
        assert (first if anchor else first.partition("#")[0]) == expected, (query, first)
        if anchor:  # a question: its section is the answer
            continue
        # The article's text, read with patterns: parsing six long pages took ~0.8 s.
        html = (zensical_site / path / "index.html").read_text(encoding="utf-8")
        [article] = re.findall(
            r'<article class="md-content__inner[^"]*">(.*?)</article>', html, re.S
        )
        if query in TITLES:  # the page's own title (after its permalink's ¶)
            [title] = re.findall(r"<h1\b[^>]*>(.*?)</h1>", article, re.S)
            assert tagless_text(title).removesuffix("¶") == query
        else:  # an API name: the page shows it
            assert query in tagless_text(article), query


def tagless_text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def search_params() -> list:
    """Every search; the default tier types the question (its words go through the site's search
    front, which asks again with fewer) and those whose page or inputs changed, `--full` all (a
    browser session each, ~3 s alone, ~6 s beside another worker). What the box lists first for
    each, and that page's title or text, the test above checks in both tiers."""
    return [
        tiers.sampled_param(
            query,
            [
                tiers.source_of(SEARCHES[query].partition("#")[0]),
                *SEARCH_INPUTS,
                "tests/browser/test_zensical.py",
            ],
            keep=query in QUESTIONS,
        )
        for query in SEARCHES
    ]


@pytest.mark.parametrize("query", search_params())
def test_the_zensical_search_opens_the_page_a_reader_looks_for(open_page, zensical_url, query):
    """On the Zensical build, served as any static host serves it: the search button, the words
    typed key by key, the first result clicked. The page that teaches what was typed opens (the
    section, for a question), and nothing is requested off the site."""
    visit = open_page(real_search=True, at=zensical_url)
    visit.goto("")
    page = visit.page
    page.click(".md-search__button")
    page.locator(SEARCH_INPUT).press_sequentially(query, delay=20)
    # Each key's results replace the last ones: a result's link carries the words it answers.
    first = page.locator(f'{RESULT}[href*="?h={quote_plus(query)}"]').first
    first.wait_for(timeout=15_000)
    search_results(page, RESULT)  # a click while the list is replaced can land on another result
    first.click()
    path, _, anchor = SEARCHES[query].partition("#")
    page.wait_for_url(f"{zensical_url}{path}**")
    opened = urlsplit(page.url)
    assert opened.path == "/" + path
    assert opened.fragment == anchor or not anchor  # a title or a name: any section of the page
    if query in TITLES:  # the page's own title (after its permalink's ¶)
        assert page.locator("article h1").inner_text().removesuffix("¶") == query
    elif query in API_NAMES:  # the page shows it
        assert query in page.locator("article.md-content__inner").inner_text()
    assert not visit.problems(), visit.problems()


LINKS_AND_ANCHORS = """() => ({
    links: [...document.querySelectorAll('a[href]')].map(a => a.href)
        .concat([...document.images].map(image => image.src)),
    anchors: [...document.querySelectorAll('[id]')].map(e => e.id)
        .concat([...document.querySelectorAll('a[name]')].map(a => a.name)),
})"""


def dead_links(browser, base_url: str, urls: list[str]) -> list[str]:
    """Open every page and follow every link (and image) that stays on the site: a page's anchor
    must name an element on it, and any other file must be served. One line per dead link,
    with the first page that has it."""
    context = browser.new_context()
    page = context.new_page()
    page.route(FOREIGN, lambda route: route.abort("blockedbyclient"))
    anchors: dict[str, set[str]] = {}  # a page's address -> the anchors on it
    linked_from: dict[str, str] = {}  # a link's target -> the first page with it
    for url in urls:
        page.goto(base_url + url, wait_until="load")
        found = page.evaluate(LINKS_AND_ANCHORS)
        anchors[base_url + url] = set(found["anchors"])
        for link in found["links"]:
            if link.startswith(base_url):
                linked_from.setdefault(link, url)
    served: dict[str, bool] = {}  # a file's address (not a page) -> whether it is served
    dead = []
    for link, source in sorted(linked_from.items()):
        address, _, anchor = link.partition("#")
        if address in anchors:
            alive = not anchor or anchor in anchors[address]
        else:  # a chart's "#only-light" picks a colour scheme; no anchor to check in a file
            if address not in served:
                served[address] = context.request.get(address).ok
            alive = served[address]
        dead += [] if alive else [f"{source or '/'}: {link.removeprefix(base_url)}"]
    context.close()
    return dead


# Every link of every page, clicked through: a page's broken link already fails the strict MkDocs
# build (mkdocs.yml's validation), so the default tier runs it when a page or the Zensical build's
# inputs changed; the full tier always.
@tiers.only_when_changed(
    "docs/",
    "mkdocs.yml",
    "engine/site/",
    "tests/browser/test_zensical.py",
    "tests/browser/zensical_compare.py",
)
def test_no_link_of_the_zensical_build_leads_nowhere(browser, zensical_url, zensical_site):
    assert dead_links(browser, zensical_url, page_urls(zensical_site)) == []


# The link walk's own check: its verdict is this file's code, the server's and the browser's; the
# default tier runs it when this file or the server changed, the full tier always.
@tiers.only_when_changed("tests/browser/test_zensical.py", "tests/browser/served_site.py")
def test_the_link_check_finds_a_missing_page_file_and_anchor(browser, tmp_path):
    """The check above can fail: each kind of dead link is reported, and live ones are not."""
    (tmp_path / "page").mkdir()
    (tmp_path / "page" / "index.html").write_text('<h2 id="here">Here</h2>', encoding="utf-8")
    (tmp_path / "file.txt").write_text("a file", encoding="utf-8")
    links = ["page/", "page/#here", "file.txt", "gone/", "gone.txt", "page/#nowhere", "#top"]
    home = "".join(f'<a href="{link}">{link}</a>' for link in links) + '<img src="gone.svg">'
    (tmp_path / "index.html").write_text(f'<p id="top">{home}</p>', encoding="utf-8")
    with serve(tmp_path) as url:
        dead = dead_links(browser, url, ["", "page/"])
    assert dead == ["/: gone.svg", "/: gone.txt", "/: gone/", "/: page/#nowhere"]


# ---------------------------------------------------------------- the installed Zensical

STAMP_EXTENSION = """
import os
from markdown import Extension
from markdown.postprocessors import Postprocessor

class Stamp(Postprocessor):
    def run(self, text):
        return text + "<p>stamp " + os.environ["STAMP"] + "</p>"

class StampExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {"outputs": ["", "the cache key"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md):
        md.postprocessors.register(Stamp(md), "stamp", 0)

def makeExtension(**kwargs):
    return StampExtension(**kwargs)
"""


# The installed Zensical's behaviour, which changes only with the lock file: the default tier
# checks it when that or this file changed; the full tier always.
@tiers.only_when_changed("tests/browser/test_zensical.py")
def test_the_installed_zensical_renders_a_page_again_when_an_extension_option_changes(tmp_path):
    """What a warm Zensical build relies on (engine/site/run_step.py): a page is rendered again
    when the extension's `outputs` option changes, and kept while it does not. Checked on the
    installed Zensical, so an upgrade that keys its cache otherwise fails here."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nSame text.\n", encoding="utf-8")
    (tmp_path / "stamp.py").write_text(STAMP_EXTENSION, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        textwrap.dedent("""\
            site_name: stamp
            markdown_extensions:
              - stamp:
                  outputs: !ENV [OUTPUTS, ""]
            """),
        encoding="utf-8",
    )

    def build(outputs: str, stamp: str) -> str:
        env = dict(os.environ, PYTHONPATH=str(tmp_path), OUTPUTS=outputs, STAMP=stamp)
        command = [sys.executable, "-m", "zensical", "build", "--strict"]
        done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        return (tmp_path / "site" / "index.html").read_text(encoding="utf-8")

    assert "stamp 1" in build("a", "1")
    assert "stamp 1" in build("a", "2")  # kept: the text and the option are the same
    assert "stamp 2" in build("b", "2")  # the option changed: rendered again
