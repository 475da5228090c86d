"""What a reader sees on each page, read from two built sites: MkDocs + Material's and Zensical's
(issues 42 and 50). A helper for the test that builds with both; it defines no test itself.

Per page: the article (outputs, ❌/✅ pairs, fact lines and checks, figures, badges, its links
and its whole text), the header (titles, links, options, the search dialog's name), the
navigation, the table of contents and the footer, each link as the page it leads to. Both
builders use Material's markup for these, so one selector reads both sites. Left out, as each
builder's own: the skip link's anchor, the "Made with" credit, and the notebook views (MkDocs
only: a plugin renders them), whose links are listed apart as "view links". Build both from the
same run cache: outputs hold measured numbers.

    .nox/tests/bin/python tests/browser/zensical_compare.py MKDOCS_SITE ZENSICAL_SITE
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from urllib.parse import urljoin

from bs4 import BeautifulSoup, NavigableString, Tag

ARTICLE = "article.md-content__inner"
OUTPUT_TITLE = re.compile(r"(Output|Raises)\b")
FACT = "✔ Checked on every build:"  # a fact line under its block
CHECK = "Checked on every build:"  # a folded check's title
BAD = "Don't:"  # a pair's first admonition (its ❌ is drawn, no text); the next is its ✅
VIEW_LINK = "a.jd-view"  # engine/site/render.py's render_download_link
SEPARATOR = " · "  # between the download, view and set-up links
OWN_LINKS = "a.md-skip, .md-copyright a"  # each builder's skip anchor and credit
SITE = "http://site/"  # a base to resolve links against; never fetched


def page_features(site_dir: Path, page_uri: str) -> dict:
    """The features of one page: `page_uri` is its address ("course/loops/", "" for the home
    page) or its file ("404.html"). Empty when there is no such file or no article."""
    path = _html_file(site_dir, page_uri)
    soup = BeautifulSoup(path.read_text(encoding="utf-8") if path else "", "html.parser")
    article = soup.select_one(ARTICLE)
    if article is None:
        return {}
    for own in soup.select(OWN_LINKS):
        own.decompose()
    views = [_without_separator(link) for link in article.select(VIEW_LINK)]
    return {
        **article_features(article),
        "view links": [_link(page_uri, link) for link in views],
        "article links": _links(page_uri, article),
        "header": header_features(page_uri, soup.select_one("header.md-header")),
        "nav": _links(page_uri, soup.select_one("nav.md-nav--primary")),
        "toc": _links(page_uri, soup.select_one("nav.md-nav--secondary")),
        "footer": _links(page_uri, soup.select_one("footer.md-footer")),
    }


def article_features(article: Tag) -> dict:
    return {
        "outputs": [
            (title, block.select_one("code").get_text().rstrip("\n"))
            for block in article.select(".highlight")
            if OUTPUT_TITLE.match(title := _text(block.select_one(".filename")))
        ],
        "pairs": [  # each ❌ with the admonition right after it, its ✅
            (title, _title(bad.find_next_sibling(_is_admonition)))
            for bad in article.find_all(_is_admonition)
            if (title := _title(bad)).startswith(BAD)
        ],
        "facts": [
            text
            for tag in article.select("p, summary")
            if (text := _text(tag)).startswith(FACT if tag.name == "p" else CHECK)
        ],
        "figures": [(img["src"], img.get("alt")) for img in article.select('img[src*="#only-"]')],
        "badges": [_text(badge) for badge in article.select("span.jd-badge")],
        "text": _text(article),  # all of it: prose, code, tables, the practice box
    }


def header_features(page_uri: str, header: Tag | None) -> list:
    """What the header shows and does: its titles, links, colour options and search."""
    if header is None:
        return []
    search = header.select_one('[data-md-component="search"]')
    return [
        *(f"title: {_text(topic)}" for topic in header.select(".md-header__topic")),
        *_links(page_uri, header),
        *(f"option: {option.get('aria-label')}" for option in header.select("input.md-option")),
        f"search: {search.get('aria-label') if search else None}",
    ]


def site_uris(site: Path) -> set[str]:
    """Every HTML file's address in a built site (``course/loops/``, ``404.html``, ``""``)."""
    return {
        path.relative_to(site).as_posix().removesuffix("index.html")
        for path in site.rglob("*.html")
    }


def compare_sites(
    mkdocs_site: Path, zensical_site: Path, only: list[str] | None = None
) -> list[str]:
    """One line per page and feature that differs, and per page only one build has (``only``:
    these pages alone)."""
    sites = {"MkDocs": Path(mkdocs_site), "Zensical": Path(zensical_site)}
    uris = set(only) if only is not None else set().union(*map(site_uris, sites.values()))
    differences = []
    for uri in sorted(uris):
        where = uri or "/"
        if missing := [name for name, site in sites.items() if not _html_file(site, uri)]:
            differences.append(f"{where}: no article in the {missing[0]} build")
            continue  # the other build's page is not read: parsing is most of the time here
        features = {name: page_features(site, uri) for name, site in sites.items()}
        if missing := [name for name, found in features.items() if not found]:
            differences += [f"{where}: no article in the {name} build" for name in missing]
            continue
        for feature, ours in features["MkDocs"].items():
            if ours != (theirs := features["Zensical"][feature]):
                differences.append(f"{where}: {feature}: {_first_difference(ours, theirs)}")
    return differences


def target(page_uri: str, href: str) -> str:
    """Where a link leads, from the site's root: "course/loops/#semantics", or the address
    itself for another host. `./`, `././` and `../x/../` all read alike."""
    found = urljoin(SITE + page_uri, href)
    return found.removeprefix(SITE) if found.startswith(SITE) else found


def _html_file(site_dir: Path, page_uri: str) -> Path | None:
    path = Path(site_dir) / page_uri
    path = path / "index.html" if path.is_dir() else path
    return path if path.is_file() else None


def _links(page_uri: str, region: Tag | None) -> list:
    return [_link(page_uri, link) for link in region.select("a[href]")] if region else []


def _link(page_uri: str, link: Tag) -> tuple[str, str]:
    return (_text(link) or link.get("aria-label") or "", target(page_uri, link["href"]))


def _without_separator(link: Tag) -> Tag:
    """Take a view link out of its line with the separator before it, so the line reads as on a
    page without one."""
    before = link.previous_sibling
    if isinstance(before, NavigableString) and before.endswith(SEPARATOR):
        before.replace_with(before.removesuffix(SEPARATOR))
    return link.extract()


def _first_difference(ours: list, theirs: list) -> str:
    pairs = enumerate(zip(ours, theirs, strict=False))
    at = next((i for i, (a, b) in pairs if a != b), min(len(ours), len(theirs)))
    shown = [_short(items[at]) if at < len(items) else "(none)" for items in (ours, theirs)]
    return f"MkDocs has {len(ours)}, Zensical {len(theirs)}; #{at + 1}: {shown[0]} vs {shown[1]}"


def _short(value, limit: int = 90) -> str:
    text = re.sub(r"\s+", " ", repr(value))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_admonition(tag: Tag) -> bool:
    return tag.name == "details" or "admonition" in (tag.get("class") or [])


def _title(admonition: Tag | None) -> str:
    return _text(admonition and admonition.select_one(".admonition-title, summary"))


def _text(tag: Tag | None) -> str:
    return " ".join(tag.get_text().split()) if tag else ""


if __name__ == "__main__":
    found = compare_sites(Path(sys.argv[1]), Path(sys.argv[2]))
    print("\n".join(found) or "no differences", f"\n{len(found)} difference(s)")
    sys.exit(1 if found else 0)
