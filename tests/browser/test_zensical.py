"""The same pages built by Zensical, Material's successor, which runs Markdown extensions but no
MkDocs hooks or plugins: each article shows what the MkDocs build shows (outputs, ❌/✅ pairs,
fact lines and folded checks, figures, badges, its whole text). The differences are listed in
ZENSICAL_GAPS, and on the conventions page."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from served_site import ROOT, page_urls, soup_of
from zensical_compare import ARTICLE, compare_sites

from engine.page.parser import read_pages
from engine.site.labels import VIEW_OPT_IN
from engine.site.notebook_view import view_uri

ZENSICAL_SITE = ".cache/zensical-site"  # Zensical writes only inside the project


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


def notebook_views() -> list[str]:
    """The notebook views: mkdocs-jupyter renders them, a plugin Zensical cannot run."""
    asking = [page.path for page in read_pages([]) if page.meta.get(VIEW_OPT_IN)]
    return sorted(view_uri(path).removesuffix(".ipynb") + "/" for path in asking)


ZENSICAL_GAPS = {uri: "no article in the Zensical build" for uri in notebook_views()}


def test_every_article_shows_what_the_mkdocs_build_shows(site_dir, zensical_site):
    expected = [f"{uri}: {gap}" for uri, gap in sorted(ZENSICAL_GAPS.items())]
    assert compare_sites(site_dir, zensical_site) == expected


def test_the_comparison_sees_a_page_rendered_differently(site_dir, tmp_path):
    """The check above can fail: a Zensical page whose output block lost its text is caught."""
    page = tmp_path / "course" / "loops" / "index.html"
    page.parent.mkdir(parents=True)
    soup = BeautifulSoup((site_dir / "course/loops/index.html").read_text("utf-8"), "html.parser")
    soup.select_one(f"{ARTICLE} .highlight .filename").find_parent().select_one("code").string = ""
    page.write_text(str(soup), encoding="utf-8")
    differences = [line for line in compare_sites(site_dir, tmp_path) if "loops/:" in line]
    assert [line.split(": ")[1] for line in differences] == ["outputs", "text"]


def test_every_chart_and_notebook_link_of_the_zensical_site_resolves(zensical_site):
    missing = []
    for url in page_urls(zensical_site):
        article = soup_of(zensical_site, url).select_one(ARTICLE)
        targets = [img["src"] for img in article.select("img")]
        targets += [a["href"] for a in article.select("a.jd-download")]
        for target in targets:
            here = zensical_site / (url if url.endswith("/") else Path(url).parent)
            file = (here / target.split("#")[0]).resolve()
            missing += [] if file.is_file() else [f"{url}: {target}"]
    assert not missing
