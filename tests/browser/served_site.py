"""Build the site and serve it on 127.0.0.1, as a plain static host would: for the browser tests
(conftest.py) and the Lighthouse benchmark (benchmarks/bench_lighthouse.py).

The site is built into a folder of its own, never into site/, which other commands rebuild at
any moment. Page code comes from the engine's cache (.cache/jitdocs), so a warm build takes
seconds; a cold one runs every page once.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

from bs4 import BeautifulSoup
from find_browser import find_chromium

ROOT = Path(__file__).resolve().parents[2]

# Any Chromium-family browser (Debian's package here: test tools' own downloads fail on these
# machines); None when there is none, and the browser tests then say so.
CHROMIUM = find_chromium()
# A URL on a host other than this machine's. A pattern, not a function, so that the browser's
# driver matches it: a local request then makes no round trip to Python.
FOREIGN = re.compile(r"^(?:https?|wss?)://(?!(?:127\.0\.0\.1|localhost)(?::\d+)?(?:[/?#]|$))")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


RESULT_LINKS = ".md-search-result__item a"
HREFS = "links => links.map(link => link.getAttribute('href'))"


def search_results(
    page, links: str = RESULT_LINKS, quiet_s: float = 0.3, wait_s: float = 15
) -> list:
    """The search's result links once the list has stopped changing, read in one call. Material
    answers each key as it is typed, and a later key's results replace an earlier one's: links
    counted before a replacement and read after it timed out (tests/browser/test_features.py)."""
    deadline = time.monotonic() + wait_s
    hrefs, since = None, time.monotonic()
    while time.monotonic() < deadline:
        now, latest = time.monotonic(), page.locator(links).evaluate_all(HREFS)
        if latest != hrefs:
            hrefs, since = latest, now
        elif hrefs and now - since >= quiet_s:
            break
        page.wait_for_timeout(50)
    return hrefs or []


def build_site(destination: Path) -> Path:
    """`mkdocs build` (strict, as configured) into ``destination``; fails with mkdocs' output."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # it makes every `import jax` ~3x slower
    command = [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(destination)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"mkdocs build failed:\n{done.stdout}\n{done.stderr}")
    return destination


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """Files from the site folder, text gzipped as any real static host sends it (Lighthouse
    times the transfer); an unknown address gets the site's 404.html with status 404."""

    COMPRESSIBLE: ClassVar[set[str]] = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt"}
    _gzipped: ClassVar[dict[tuple[str, float], bytes]] = {}

    def log_message(self, format: str, *args) -> None:
        pass

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir() and urlsplit(self.path).path.endswith("/"):
            path = path / "index.html"
        wants_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (wants_gzip and path.is_file() and path.suffix in self.COMPRESSIBLE):
            super().do_GET()
            return
        key = (str(path), path.stat().st_mtime)
        if key not in self._gzipped:
            self._gzipped[key] = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        body = self._gzipped[key]
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class QuietServer(http.server.ThreadingHTTPServer):
    """Says nothing when a browser hangs up mid-reply (a tab closed between tests: routine)."""

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exception(), ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on a free port of 127.0.0.1; yields the base URL (ending in /)."""
    handler = functools.partial(StaticHandler, directory=str(directory))
    server = QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def url_id(url: str) -> str:
    """A page's part of a browser test's id (conftest.py's scheduler reads it back)."""
    return url or "home"


def page_urls(site: Path) -> list[str]:
    """Site-relative URL of every HTML page in a built site (``about/x/``, ``404.html``...)."""
    urls = []
    for path in sorted(site.rglob("*.html")):
        relative = path.relative_to(site)
        if relative.parts[0] == "assets":
            continue
        if path.name == "index.html":
            urls.append("".join(f"{part}/" for part in relative.parent.parts))
        else:
            urls.append(relative.as_posix())
    return urls


def html_file(site: Path, url: str) -> Path:
    """The built file a page's URL serves."""
    return site / (url if url.endswith(".html") else f"{url}index.html")


def html_of(site: Path, url: str) -> str:
    return html_file(site, url).read_text(encoding="utf-8")


def soup_of(site: Path, url: str) -> BeautifulSoup:
    """A built page parsed, for CSS selectors over what the browser would get."""
    return BeautifulSoup(html_of(site, url), "html.parser")


def pages_with(site: Path, needle: str) -> list[str]:
    """URLs of the built pages whose HTML contains ``needle``."""
    return [url for url in page_urls(site) if needle in html_of(site, url)]


# What every page's markup, styles and scripts come from: the renderer and the theme's templates
# (engine/site/), the site's CSS and scripts, the Markdown options. A change to one widens the
# default tier's surveys (tests/tiers.py) to ``markup_cover``.
RENDERER = ["engine/site/", "docs/assets/", "mkdocs.yml"]


def survey_sample(site: Path, urls: list[str], renderer_changed: bool = False) -> set[str]:
    """The default tier's surveyed pages among ``urls``: the site's sample (``kinds_sample``)
    where it has some of them, else the smallest of them; after a change to the RENDERER, also
    the fewest more pages that show every markup pair that ``urls`` show (``markup_cover``)."""
    kept = kinds_sample(site) & set(urls)
    kept = kept or {min(urls, key=lambda url: html_file(site, url).stat().st_size)}
    return markup_cover(site, urls, kept) if renderer_changed else kept


def markup_cover(site: Path, urls: list[str], kept: set[str]) -> set[str]:
    """``kept``, then the page that adds the most, again, until every (parent, element) pair in
    the HTML of ``urls`` is on a chosen page. A change to the renderer, a template or the CSS
    that puts an element somewhere new makes a new pair (a note between a pair's two boxes: the
    pair box holds a warning box), and a surveyed page then shows it. About half of the site's
    pages cover it: surveying every page would cost twice as much."""
    pairs = {url: markup_pairs(html_file(site, url)) for url in sorted(urls)}
    chosen = set(kept)
    left = set().union(*pairs.values()) - set().union(*(pairs[url] for url in chosen))
    while left:
        best = max(pairs, key=lambda url: len(pairs[url] & left))
        chosen.add(best)
        left -= pairs[best]
    return chosen


class _Pairs(HTMLParser):
    """Each element under its parent, an element named by its tag and its sorted classes."""

    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta"})
    VOID |= {"source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, str]] = [("", "")]  # (tag, name) of each open element
        self.pairs: set[tuple[str, str]] = set()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        classes = sorted((dict(attrs).get("class") or "").split())
        name = ".".join([tag, *classes])
        self.pairs.add((self.open[-1][1], name))
        if tag not in self.VOID:
            self.open.append((tag, name))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.open) - 1, 0, -1):  # an unclosed child closes with it
            if self.open[depth][0] == tag:
                del self.open[depth:]
                return


@functools.cache
def markup_pairs(page: Path) -> frozenset[tuple[str, str]]:
    """The (parent, element) pairs of a built page's HTML."""
    parser = _Pairs()
    parser.feed(page.read_text(encoding="utf-8"))
    return frozenset(parser.pairs)


@functools.cache
def kinds_sample(site: Path) -> set[str]:
    """The longest page (the most of everything a survey measures), and for each other part of
    the site (its first folder: the home page, 404.html, about, beyond, ...) its smallest page,
    the notebook views counting as one part (one template, whichever part they are under). A page
    shares its template, CSS and scripts with the others of its part; depth within a part adds no
    template (a part's index page and its lessons differ only in content, which a changed page
    gets surveyed for)."""
    urls = page_urls(site)
    size = {url: html_file(site, url).stat().st_size for url in urls}

    def part(url: str) -> str:
        return "notebook view" if url.endswith("notebook/") else url.split("/")[0]

    longest = max(urls, key=size.get)
    kinds = {part(longest): longest}
    for url in sorted(urls, key=size.get):
        kinds.setdefault(part(url), url)
    return set(kinds.values())
