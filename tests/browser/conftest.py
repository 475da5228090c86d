"""The site in a real browser: build it once, serve it on 127.0.0.1, drive Debian's chromium.

Every page that a test opens records its requests, console messages and failed loads. Requests to
any host but 127.0.0.1/localhost are recorded and aborted (the site must work with no network),
and the tests fail on them. Pages get the site's search index with no documents in it, except
where a test asks for the real one (``real_search=True``): Material's search worker indexes the
whole site's text on every page load, a CPU-second or more per load here, and only the search test
needs the words. The worker still loads, parses and answers: a page's script errors still show.

Set JITDOCS_SITE_DIR to a built site to test it instead of building one (a quick re-run). Under
pytest-xdist every worker collects, and collecting needs the site (its pages are parameters): set
it before the workers start, or each worker builds its own. Nothing else here builds a site but
test_a_warm_rebuild_runs_nothing_and_makes_the_same_views, on purpose (~9 s on a loaded machine).
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from find_browser import ENABLE_HINT
from page_survey import DESKTOP, NEXT_FRAME, Surveys
from served_site import (
    CHROMIUM,
    CHROMIUM_ARGS,
    FOREIGN,
    RENDERER,
    ROOT,
    build_site,
    page_urls,
    pages_with,
    serve,
    survey_sample,
    url_id,
)

from engine.tools.temp_root import TempRootError, temp_root, too_long
from tests import tiers

LOCAL_HOSTS = {"127.0.0.1", "localhost"}
SEARCH_INDEX = "**/search/search_index.json"
NOT_RUN = "browser test not run"
QUIET_SECONDS = 0.1  # Visit.settle: this long with no request in flight
POLL_MS = 25
SETTLE_TIMEOUT_SECONDS = 30.0

_site: Path | None = None
# The per-page tests the default tier samples, by the fixture that makes them costly, and what
# each verdict depends on besides the page's own source and HTML (tests/tiers.py).
# A change to the renderer, theme or CSS (RENDERER) widens the surveys to served_site.markup_cover.
SAMPLED = {
    "surveys": ["tests/browser/page_survey.py", "tests/browser/axe_check.py"],
    "zensical_site": ["mkdocs.yml", "engine/site/", "pyproject.toml", "uv.lock"],
}


def built_site() -> Path:
    """The site under test, built on first use (at collection: the pages are the parameters)."""
    global _site
    if _site is None:
        given = os.environ.get("JITDOCS_SITE_DIR")
        if given:
            _site = Path(given).resolve()
        else:
            folder = Path(tempfile.mkdtemp(prefix="jitdocs-site-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            _site = build_site(folder / "site")
    return _site


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "pages_with(needle): a test's `url` is only the pages whose HTML has needle"
    )
    config.addinivalue_line(
        "markers",
        "built_html(*subjects): a check of each page's built file; the default tier checks the "
        "survey sample, changed pages, and every page after a change to the RENDERER or subjects",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "url" in metafunc.fixturenames:
        wanted = metafunc.definition.get_closest_marker("pages_with")
        site = built_site()
        urls = pages_with(site, wanted.args[0]) if wanted else page_urls(site)
        assert urls, f"no page has {wanted.args[0]!r}: {metafunc.function.__name__} tests nothing"
        inputs = [SAMPLED[name] for name in SAMPLED if name in metafunc.fixturenames]
        html = metafunc.definition.get_closest_marker("built_html")
        inputs += [[*RENDERER, *html.args]] if html else []
        if inputs:  # a page's survey, or its Zensical twin, is the cost: sampled
            widen = "surveys" in metafunc.fixturenames and renderer_changed(metafunc.config)
            kept = survey_sample(site, urls, widen)
            urls = [
                tiers.sampled_param(url, [tiers.source_of(url), *inputs[0]], url in kept)
                for url in urls
            ]
        metafunc.parametrize("url", urls, ids=url_id)
    if "scheme" in metafunc.fixturenames:
        metafunc.parametrize("scheme", ["light", "dark"])


def renderer_changed(config: pytest.Config) -> bool:
    """In the default tier, did the renderer, theme or CSS change since main (RENDERER)?"""
    return not config.getoption(tiers.FULL_OPTION.removeprefix("--")) and tiers.touches(RENDERER)


@pytest.fixture(scope="session")
def site_dir() -> Path:
    return built_site()


@pytest.fixture(scope="session")
def base_url(site_dir: Path):
    with serve(site_dir) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        missing = f"no Chromium-family browser found; {ENABLE_HINT}"
        if os.environ.get("CI"):  # CI must run them: a missing browser is a broken set-up
            pytest.fail(missing, pytrace=False)
        pytest.skip(f"{NOT_RUN}: {missing}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, env=browser_env()
        )
        yield launched
        launched.close()


def browser_env() -> dict[str, str]:
    """The browser's environment, with a TMPDIR short enough for its socket (Chromium's
    SingletonSocket lives there): `nox -s tests` sets one, a bare `pytest` in a checkout with a
    long path may not have one."""
    env = dict(os.environ)
    if too_long(tempfile.gettempdir()):
        try:
            env["TMPDIR"] = str(temp_root(ROOT, "browser"))
        except TempRootError as error:
            pytest.fail(str(error), pytrace=False)
    return env


@dataclass
class Visit:
    """A page with everything it did recorded."""

    page: object
    base_url: str
    foreign: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    in_flight: set = field(default_factory=set)  # requests sent and not yet answered

    def goto(self, url: str, expect_status: int = 200, idle: bool = True):
        """Open a page; wait for its load event, and then (idle) for the network to go quiet."""
        response = self.page.goto(self.base_url + url, wait_until="load")
        assert response is not None and response.status == expect_status, (url, response)
        if idle:
            self.settle()
        return response

    def settle(self, timeout: float = SETTLE_TIMEOUT_SECONDS) -> None:
        """Wait until no request has been in flight for QUIET_SECONDS. (Playwright's
        "networkidle" waits for 500 ms of quiet: half a second per wait, with a core idle. What
        a page requests later is still recorded, and every test reads the records at its end.)"""
        deadline = time.monotonic() + timeout
        quiet_since = None
        while True:
            self.page.wait_for_timeout(POLL_MS)  # the driver's events arrive meanwhile
            now = time.monotonic()
            if self.in_flight:
                quiet_since = None
            elif quiet_since is None:
                quiet_since = now
            elif now - quiet_since >= QUIET_SECONDS:
                return
            if now > deadline:
                pending = sorted(request.url for request in self.in_flight)
                raise TimeoutError(f"in flight after {timeout:g} s: {pending}")

    def scroll_through(self) -> None:
        """Scroll to the bottom in screen-sized steps, so that lazy images load, and back."""
        self.page.evaluate(
            """async () => {
                const step = Math.max(window.innerHeight - 100, 200);
                for (let y = 0; y < document.body.scrollHeight; y += step) {
                    window.scrollTo(0, y);
                    await new Promise(r => requestAnimationFrame(() => setTimeout(r, 20)));
                }
                window.scrollTo(0, 0);
            }"""
        )
        self.settle()

    def show(self, locator) -> None:
        """Scroll to an element as a reader would, and wait until its section is rendered: a
        section off screen is skipped by the browser (content-visibility), its text empty."""
        locator.scroll_into_view_if_needed()
        self.page.evaluate(NEXT_FRAME)

    def leave(self) -> None:
        """Go to a blank page, in the same tab. What this page still loads is cancelled there:
        not its fault, nor the next page's, so wait for that news, then empty the records."""
        self.page.goto("about:blank")
        if self.in_flight:
            self.settle()
        self.forget()

    def forget(self) -> None:
        """Empty the records (before a new page is loaded in the same tab)."""
        for record in (self.foreign, self.console_errors, self.failed):
            record.clear()

    def problems(self) -> list[str]:
        return (
            [f"request to another host: {u}" for u in self.foreign]
            + [f"console error: {m}" for m in self.console_errors]
            + [f"failed load: {f}" for f in self.failed]
        )


def start_visit(
    browser, base_url: str, scheme: str = "light", real_search: bool = False, **options
) -> Visit:
    """A page in a fresh browser context (its own storage), recording on; close its context."""
    context = browser.new_context(color_scheme=scheme, viewport=DESKTOP, **options)
    return open_tab(context, base_url, real_search)


def open_tab(context, base_url: str, real_search: bool = False) -> Visit:
    """A new page in ``context``, recording on; the empty search index unless ``real_search``."""
    page = context.new_page()
    visit = Visit(page, base_url)

    def block_foreign(route):
        visit.foreign.append(route.request.url)
        route.abort("blockedbyclient")

    page.route(FOREIGN, block_foreign)
    if not real_search:
        page.route(SEARCH_INDEX, lambda route: route.fulfill(json=empty_search_index()))
    page.on("request", lambda request: visit.in_flight.add(request))
    page.on("requestfinished", lambda request: visit.in_flight.discard(request))
    page.on("requestfailed", lambda request: visit.in_flight.discard(request))
    page.on("console", lambda m: m.type == "error" and visit.console_errors.append(m.text))
    page.on("pageerror", lambda error: visit.console_errors.append(f"uncaught: {error}"))
    page.on(
        "response",
        lambda r: r.status >= 400 and visit.failed.append(f"{r.status} {r.url}"),
    )
    page.on(
        "requestfailed",
        lambda r: (
            urlsplit(r.url).hostname in LOCAL_HOSTS and visit.failed.append(f"{r.failure} {r.url}")
        ),
    )
    return visit


@functools.cache
def empty_search_index() -> dict:
    """The site's own search index, its configuration kept and its documents left out."""
    index = json.loads((built_site() / "search" / "search_index.json").read_text(encoding="utf-8"))
    return {**index, "docs": []}


@pytest.fixture
def open_page(browser, base_url):
    """open_page(scheme="light", real_search=False, at=None, **context_options) -> Visit (fresh
    context, recording on); ``at``: another served site's address (the Zensical build's)."""
    contexts = []

    def opener(scheme="light", real_search=False, at: str | None = None, **options) -> Visit:
        visit = start_visit(browser, at or base_url, scheme, real_search, **options)
        contexts.append(visit.page.context)
        return visit

    yield opener
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def open_shared_page(browser, base_url):
    """open_page for the tests of one module that only read a loaded page: a page opened once
    serves them all (a load, and the scrolling that lays out a long page, cost seconds); its
    context closes after the module."""
    contexts = []

    def opener(scheme="light", **options) -> Visit:
        visit = start_visit(browser, base_url, scheme, **options)
        contexts.append(visit.page.context)
        return visit

    yield opener
    for context in contexts:
        context.close()


@pytest.fixture
def visit_each(browser, base_url):
    """visit_each(urls) -> (url, Visit) for each URL once it has loaded, all in one tab: a new
    tab (a new renderer process) per page cost more than the page's load. For tests that store
    nothing in the browser; the records start empty for each page."""
    visit = start_visit(browser, base_url)

    def visits(urls: list[str]) -> Iterator[tuple[str, Visit]]:
        for url in urls:
            visit.leave()
            visit.goto(url, idle=False)  # test_page_loads_clean_and_offline waits for the rest
            yield url, visit

    yield visits
    visit.page.context.close()


@pytest.fixture(scope="session")
def surveys(browser, base_url):
    """What one load of each page showed, kept for this worker's session."""
    found = Surveys(lambda: start_visit(browser, base_url))
    yield found
    found.close()


def pytest_terminal_summary(terminalreporter) -> None:
    """Without a browser, end with a loud, counted notice instead of a quiet list of skips."""
    skipped = terminalreporter.stats.get("skipped", [])
    not_run = [report for report in skipped if NOT_RUN in str(report.longrepr)]
    if not_run:
        terminalreporter.write_sep("!", f"{len(not_run)} BROWSER TESTS NOT RUN", red=True)
        terminalreporter.write_line(
            f"No Chromium-family browser was found. To run them, {ENABLE_HINT}."
        )
