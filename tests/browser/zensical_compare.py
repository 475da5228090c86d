"""What a reader sees in each page's article, read from two built sites: MkDocs + Material's and
Zensical's (issue 42). A helper for the test that builds with both; it defines no test itself.

Both builders put the page body in `<article class="md-content__inner md-typeset">` (Zensical
0.0.73 only adds a skip-link anchor at its start), so one selector reads both sites and nothing
compared here is theme chrome. Build both from the same run cache: outputs hold measured numbers.

    .nox/tests/bin/python tests/browser/zensical_compare.py MKDOCS_SITE ZENSICAL_SITE
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from bs4 import BeautifulSoup, Tag

ARTICLE = "article.md-content__inner"
OUTPUT_TITLE = re.compile(r"(Output|Raises)\b")
FACT = "✔ Checked on every build:"  # a fact line under its block
CHECK = "Checked on every build:"  # a folded check's title
BAD = "Don't:"  # a pair's first admonition (its ❌ is drawn, no text); the next is its ✅


def article_features(site_dir: Path, page_uri: str) -> dict:
    """The features of one page's article: `page_uri` is its address ("course/loops/", "" for
    the home page) or its file ("404.html"). Empty when there is no such file or no article."""
    path = Path(site_dir) / page_uri
    path = path / "index.html" if path.is_dir() else path
    html = path.read_text(encoding="utf-8") if path.is_file() else ""
    article = BeautifulSoup(html, "html.parser").select_one(ARTICLE)
    if article is None:
        return {}
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


def compare_sites(mkdocs_site: Path, zensical_site: Path) -> list[str]:
    """One line per page and feature that differs, and per page only one build has."""
    sites = {"MkDocs": Path(mkdocs_site), "Zensical": Path(zensical_site)}
    uris = set()
    for site in sites.values():
        for path in site.rglob("*.html"):
            uris.add(path.relative_to(site).as_posix().removesuffix("index.html"))
    differences = []
    for uri in sorted(uris):
        features = {name: article_features(site, uri) for name, site in sites.items()}
        where = uri or "/"
        if missing := [name for name, found in features.items() if not found]:
            if len(missing) == 1:
                differences.append(f"{where}: no article in the {missing[0]} build")
            continue
        for feature, ours in features["MkDocs"].items():
            if ours != (theirs := features["Zensical"][feature]):
                differences.append(f"{where}: {feature}: {_first_difference(ours, theirs)}")
    return differences


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
