"""Every built page, as a reader's browser gets it: loads clean and offline, accessible (axe-core)
in both colour schemes, with its charts, description, favicon, sitemap entry and 404 page."""

from __future__ import annotations

import collections
import functools
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urljoin

import axe_check
import pytest
import yaml
from bs4 import BeautifulSoup
from page_survey import (
    COLOUR_ONLY,
    DARK,
    FIRST_SCREENS,
    NAVIGATION,
    OPENING_SCREEN,
    SECTION_WIDTHS,
    section_heights,
    switch_scheme,
)
from served_site import RENDERER, ROOT, html_file, html_of, page_urls, soup_of

from tests import tiers


def site_config() -> dict:
    """mkdocs.yml, read as data (a tag such as !!python/name reads as None)."""

    class Loader(yaml.SafeLoader):
        pass

    def env_tag(loader, node):  # `!ENV [NAME, default]`, resolved as mkdocs resolves it
        name, default = loader.construct_sequence(node)
        return os.environ.get(name, default)

    Loader.add_constructor("!ENV", env_tag)
    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


# ---------------------------------------------------------------- in the browser


def test_page_loads_clean_and_offline(surveys, url):
    """No console error, no failed load, no request to any host but 127.0.0.1, and every lazy
    image a reader can see loaded by the scroll through (page_survey.SCROLL_WINDOW)."""
    problems, heading, lazy_not_loaded = surveys.of(url)["clean"]
    assert not problems, "\n".join(problems)
    assert heading.strip()
    assert not lazy_not_loaded, lazy_not_loaded


def test_axe_finds_no_serious_violation(surveys, url, scheme):
    """axe-core, the whole page but the site navigation, light and dark: nothing of serious or
    critical impact. (The navigation is checked once per kind of place a page can have in it:
    test_axe_finds_no_serious_violation_in_the_navigation.)"""
    shown_scheme, violations, problems = surveys.of(url)[f"axe {scheme}"]
    assert shown_scheme == ("slate" if scheme == "dark" else "default")
    found = axe_check.blocking(violations)
    assert not found, "\n".join(found)
    assert not problems, "\n".join(problems)


@functools.cache
def navigation(site_dir: Path, url: str) -> tuple[str, tuple]:
    """A page's site navigation (page_survey.NAVIGATION), read from its built file: its skeleton,
    and the marks of the page's place in it. The skeleton has every link resolved, the page's
    own table of contents (hidden at the surveys' desktop size) taken out, and the marks taken
    off: the active classes, the open section's toggle and `aria-expanded`. The marks are listed
    by depth and kind, not by which link or section carries them."""
    text = html_of(site_dir, url)
    start = text.index(f'<div class="md-sidebar {NAVIGATION[1:]}"')
    end = text.index('<div class="md-sidebar md-sidebar--secondary"', start)
    nav = BeautifulSoup(text[start:end], "html.parser")
    for own in nav.select("#__toc, [for=__toc], nav.md-nav--secondary"):
        own.decompose()
    marks = []
    for element in nav.find_all(True):
        active = [name for name in element.get("class", []) if name.endswith("--active")]
        depth = len(element.find_parents("li"))
        if active:
            marks.append((depth, element.name, *element["class"]))
            element["class"] = [name for name in element["class"] if name not in active]
        for attribute in ("checked", "aria-expanded"):
            if element.has_attr(attribute):
                marks.append((depth, element.name, attribute, element[attribute]))
                del element[attribute]
        if element.has_attr("href"):
            element["href"] = urljoin(f"http://site/{url}", element["href"])
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", str(nav))), tuple(sorted(marks))


def places_in_the_navigation(site_dir: Path) -> list[str]:
    """The smallest page of each kind of place in the navigation."""
    pages = sorted(page_urls(site_dir), key=lambda url: html_file(site_dir, url).stat().st_size)
    smallest: dict[tuple, str] = {}
    for url in pages:
        smallest.setdefault(navigation(site_dir, url)[1], url)
    return list(smallest.values())


def test_the_navigation_is_the_same_on_every_page_but_for_the_page_s_place_in_it(site_dir):
    """What lets axe check the navigation once per kind of place, not on every page."""
    skeletons = collections.defaultdict(list)
    for url in page_urls(site_dir):
        skeletons[navigation(site_dir, url)[0]].append(url)
    assert len(skeletons) == 1, [pages[:3] for pages in skeletons.values()]
    assert len(places_in_the_navigation(site_dir)) > 1  # the marks were found, and set apart


def test_axe_finds_no_serious_violation_in_the_navigation(open_page, site_dir, scheme):
    """The navigation, at the surveys' desktop size, on one page of each kind of place (its rules
    as the surveys run them in that scheme): nothing of serious or critical impact."""
    visit = open_page(scheme)
    rules = COLOUR_ONLY if scheme == "dark" else ()
    found = []
    for url in places_in_the_navigation(site_dir):
        visit.leave()
        visit.goto(url)
        shown = visit.page.get_attribute("body", "data-md-color-scheme")
        assert shown == ("slate" if scheme == "dark" else "default"), (url, shown)
        violations = axe_check.violations(visit.page, NAVIGATION, rules)
        found += [f"{url}: {line}" for line in axe_check.blocking(violations)]
    assert not found, "\n".join(found)
    assert not visit.problems(), visit.problems()


# Faults planted in a page, each a faint colour of its own, against each way the first text of a
# look could hide the rest (axe_check.LOOKS_CHECKED): in one code block each, the tokens of one
# of the four commonest classes made faint (one look), the first of them in turn clipped off (a
# copy of it, in a block that clips), covered by a box, beaten to it by a copy of one character
# (axe calls one character "short", not a violation), and given a positioned ::after with a
# background (axe gives up there); a paragraph of prose, a look of its own; and against leaving
# out text folded in a closed block, the title of a closed block, and text in a block opened.
# Returns the planted colours. (Worded tokens only: axe skips text that is all punctuation; shown:
# and text in a closed block.)
PLANT_FAINT_TEXT = """() => {
    const has_words = e => [...e.childNodes]
        .some(n => n.nodeType === Node.TEXT_NODE && /[A-Za-z]{2}/.test(n.data));
    const closed = [...document.querySelectorAll('article details:not([open])')]
        .filter(block => block.checkVisibility());
    const opened = closed.at(-1);
    opened.open = true;
    opened.classList.add('jd-opened');  // the plants below leave it to this one
    const unfolded = [...opened.querySelectorAll(':scope > :not(summary), :scope > * *')]
        .find(e => has_words(e) && e.checkVisibility() && !e.closest('summary'));
    unfolded.style.setProperty('color', 'rgb(201, 201, 201)', 'important');
    closed[0].querySelector(':scope > summary').style
        .setProperty('color', 'rgb(200, 200, 200)', 'important');
    const worded = root => [...root.querySelectorAll('pre span:not(:has(*))')]
        .filter(token => /[A-Za-z0-9]{2}/.test(token.textContent) && token.checkVisibility() &&
                !token.closest('.jd-opened'));
    const count = new Map();
    worded(document).forEach(t => count.set(t.className, (count.get(t.className) ?? 0) + 1));
    const classes = [...count].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([name]) => name);
    const colours = ['rgb(196, 196, 196)', 'rgb(197, 197, 197)', 'rgb(198, 198, 198)',
                     'rgb(199, 199, 199)', 'rgb(208, 208, 209)'];
    const firsts = classes.map((name, i) => {
        const faint = [...document.querySelectorAll('pre')]
            .map(block => worded(block).filter(token => token.className === name))
            .find(tokens => tokens.length >= 3);
        faint.forEach(token => token.style.setProperty('color', colours[i], 'important'));
        return faint[0];
    });
    const [clipped, covered, short, pseudo] = firsts;
    const hidden = clipped.cloneNode(true);
    hidden.style.setProperty('margin-left', '100000px');
    clipped.parentElement.prepend(hidden, '\\n');
    clipped.closest('pre').querySelector('code').style.setProperty('overflow', 'hidden');
    const box = covered.getBoundingClientRect(), cover = document.createElement('div');
    cover.style.cssText = `position: absolute; left: ${box.left + scrollX}px; width: ${box.width}px;
        top: ${box.top + scrollY}px; height: ${box.height}px; background: black`;
    document.body.append(cover);
    const one = short.cloneNode(true);
    one.textContent = 'x';
    short.before(one, ' ');
    const style = document.createElement('style');
    style.textContent = `.jd-planted { position: relative }
        .jd-planted::after { content: ''; position: absolute; inset: 0; background: #fff }`;
    document.head.append(style);
    pseudo.classList.add('jd-planted');
    const prose = [...document.querySelectorAll('article p')]
        .filter(p => p.checkVisibility() && has_words(p) && !p.closest('.jd-opened')).at(-1);
    prose.style.setProperty('color', colours[4], 'important');
    return [...colours, 'rgb(200, 200, 200)', 'rgb(201, 201, 201)'];
}"""

# Each element axe finds too faint: [its colour, which element of the page it is].
FAINT = """async () => {
    const found = await axe.run(document, {runOnly: ['color-contrast'], elementRef: true,
                                           resultTypes: ['violations']});
    const all = [...document.querySelectorAll('*')];
    return found.violations.flatMap(v => v.nodes)
        .map(node => [getComputedStyle(node.element).color, all.indexOf(node.element)]);
}"""


# A lesson in both tiers; a notebook view (another template) when it, the survey's axe code, the
# markup or CSS, or this file change.
@pytest.mark.parametrize(
    "address",
    [
        "track/jit-of-scan/",
        pytest.param(
            "course/why-compile/notebook/",
            marks=tiers.only_when_changed(
                "docs/course/why-compile.md",
                *RENDERER,
                "tests/browser/axe_check.py",
                "tests/browser/page_survey.py",
                "tests/browser/test_pages.py",
            ),
        ),
    ],
)
def test_axe_checking_each_look_once_still_finds_faint_text(open_page, address):
    """axe_check leaves text to an earlier element that looks exactly like it. Each planted faint
    look is still found, whichever way its first element could have hidden the rest, and only
    where checking every element finds it: the page fails exactly when it would have."""
    visit = open_page()
    visit.goto(address)
    section_heights(visit.page)  # every section laid out, as the survey has it before axe
    planted = set(visit.page.evaluate(PLANT_FAINT_TEXT))
    axe_check.prepare(visit.page, every_element=True)
    everywhere = visit.page.evaluate(FAINT)
    looks, repeats = axe_check.prepare(visit.page)
    once_per_look = visit.page.evaluate(FAINT)
    assert repeats > looks > 0, (looks, repeats)  # the check really left text out
    assert 0 < len(once_per_look) < len(everywhere), (once_per_look, everywhere)
    assert {tuple(found) for found in once_per_look} <= {tuple(found) for found in everywhere}
    assert {colour for colour, _ in everywhere} == planted  # each plant is a fault, and no other
    assert {colour for colour, _ in once_per_look} == planted
    assert not visit.problems(), visit.problems()


@pytest.mark.parametrize("width", SECTION_WIDTHS)
def test_section_placeholders_are_never_shorter_than_their_sections(surveys, url, width):
    """A skipped section is drawn at its placeholder height; a shorter placeholder would let its
    contents spill over what follows, and axe then measures text against the wrong background."""
    short = [
        f"{where}: {real:.0f} px laid out, placeholder {placeholder:.0f} px"
        for where, real, placeholder in surveys.of(url)["section heights"][width]
        if real > placeholder
    ]
    assert not short, f"{url} at {width} px wide:\n" + "\n".join(short)


@pytest.mark.parametrize("width, height", FIRST_SCREENS)
def test_no_section_is_on_the_first_screen(surveys, url, width, height):
    """Chromium paints the first frame with each skippable section as its placeholder; one on
    screen would then change height and shift what follows it (as on three notebook views)."""
    top = surveys.of(url)["first screens"][width, height]
    assert top is None or top >= height, f"{url}: the first skippable section is at {top:.0f} px"


@pytest.mark.pages_with("#notes-course-")  # the course's chapters (their badge's link)
def test_a_chapter_opens_on_a_phone_with_its_title_one_line_of_provenance_and_its_idea(
    surveys, url
):
    """A reader on a phone sees what the chapter is about before any maintainer's detail."""
    opening = surveys.of(url)["first screens"]["opening"]
    height = OPENING_SCREEN[1]
    assert opening["title"] < height, (url, opening)
    assert opening["badgeLines"] <= 1, f"{url}: the provenance badge wraps: {opening}"
    assert opening["idea"] is not None and opening["idea"] <= height, (
        f"{url}: the opening idea's first two lines end at {opening['idea']} px, below the first "
        f"screen ({height} px)"
    )


TOP_LEVEL_CODE = ".md-content__inner > .highlight, .md-content__inner > .jd-section > .highlight"
EDGES = """selector => [...document.querySelectorAll(selector)].map(block => {
    const section = block.closest('.jd-section');
    section?.style.setProperty('content-visibility', 'visible');
    const box = block.getBoundingClientRect();
    return [section ? 'in a section' : 'outside', block.className, Math.round(box.left),
            Math.round(box.right)];
})"""


# The longest page in both tiers; a second chapter, the same template and CSS, when it or the
# site's markup or CSS or this file change.
@pytest.mark.parametrize(
    "address",
    [
        "course/pitfalls/",
        pytest.param(
            "course/why-compile/",
            marks=tiers.only_when_changed(
                "docs/course/why-compile.md", *RENDERER, "tests/browser/test_pages.py"
            ),
        ),
    ],
)
def test_code_blocks_in_sections_run_edge_to_edge_on_a_phone(open_page, address):
    """Material draws the article's own code blocks edge to edge on a phone; a section clips what
    overflows it, so the blocks inside one must still reach both edges of the content column."""
    visit = open_page()
    visit.page.set_viewport_size({"width": 360, "height": 800})
    visit.goto(address, idle=False)
    column = visit.page.locator(".md-content").bounding_box()
    edges = (round(column["x"]), round(column["x"] + column["width"]))
    blocks = visit.page.evaluate(EDGES, TOP_LEVEL_CODE)
    assert any(where == "in a section" for where, *_ in blocks), blocks
    misplaced = [block for block in blocks if tuple(block[2:]) != edges]
    assert not misplaced, f"content column {edges}: {misplaced}"


def test_a_link_into_a_skipped_section_lands_on_its_target(open_page, site_dir):
    """The last element with an id on the longest page sits in a section the browser skipped at
    load; following a link to it must still put it on screen."""
    visit = open_page()
    visit.goto("course/pitfalls/")
    target = visit.page.evaluate(
        "() => [...document.querySelectorAll('.jd-section [id]')].pop().id"
    )
    reader = open_page()  # a new tab: a fresh load, not a jump within the page
    reader.goto(f"course/pitfalls/#{target}")
    box = reader.page.locator(f"[id='{target}']").bounding_box()
    assert box is not None and 0 <= box["y"] < reader.page.viewport_size["height"], (target, box)


# Scroll a heading to the top as a reader does, again while rendering the sections on the way
# moves it (on a busy machine that can happen after the first scroll), until it stays put.
SCROLL_TO_AND_SETTLE = """async heading => {
    let top = NaN;
    for (let tries = 0; tries < 20; tries++) {
        heading.scrollIntoView({block: 'start'});
        await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
        const now = heading.getBoundingClientRect().top;
        if (Math.abs(now - top) < 1) return;
        top = now;
    }
    throw new Error(`the heading never settled (last top ${top})`);
}"""


def test_the_table_of_contents_follows_into_skipped_sections(open_page):
    """Material marks the heading being read in the table of contents from heading positions; the
    sections rendered on the way down change those, and the mark must still be right."""
    from playwright.sync_api import expect

    visit = open_page()
    visit.goto("course/pitfalls/")
    headings = visit.page.locator("article h2")
    last = headings.nth(headings.count() - 1)
    last.evaluate(SCROLL_TO_AND_SETTLE)
    identifier = last.get_attribute("id")
    active = visit.page.locator(".md-sidebar--secondary .md-nav__link--active")
    expect(active).to_have_attribute("href", f"#{identifier}")


def test_a_missing_page_gets_the_404_page(open_page):
    visit = open_page()
    response = visit.goto("no/such/page/", expect_status=404)
    assert "text/html" in response.headers["content-type"]
    page = visit.page
    assert page.locator("h1").inner_text() == "Page not found"
    # Its styles and scripts load from the site root whatever the address's depth.
    assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") in {
        "sticky",
        "fixed",
    }
    stray = [p for p in visit.problems() if "no/such/page" not in p and "404" not in p]
    assert not stray, "\n".join(stray)
    page.get_by_role("link", name="home page").click()
    page.wait_for_load_state("load")
    assert page.url == visit.base_url


def test_the_favicon_is_served(open_page, site_dir):
    visit = open_page()
    visit.goto("")
    href = visit.page.get_attribute("link[rel=icon]", "href")
    assert href.endswith(".svg"), href
    response = visit.page.request.get(visit.page.url + href)
    assert response.status == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in response.body()


# ---------------------------------------------------------------- in the built files


def test_the_tests_visit_every_page_the_sources_define(site_dir):
    """The pages these tests visit are the built HTML files: one per source page, plus 404."""

    def url_of(source: Path) -> str:
        parts = list(source.relative_to(ROOT / "docs").with_suffix("").parts)
        if parts[-1] == "index":
            parts.pop()
        return "".join(f"{part}/" for part in parts)

    markdown = {url_of(s) for s in (ROOT / "docs").rglob("*.md")}
    notebooks = {url_of(s) for s in (ROOT / "docs").rglob("*.ipynb")}  # if rendered as pages
    built = set(page_urls(site_dir))
    assert markdown | {"404.html"} <= built
    views = {f"{url}notebook/" for url in markdown}  # engine/site/notebook_view.py, under its page
    assert built <= markdown | notebooks | views | {"404.html"}


# What the engine and theme write into each page's file: a verdict depends on that file alone, so
# the default tier checks the surveys' sample, changed pages, and every page after a change to
# the renderer, theme or CSS (served_site.RENDERER) or to this file; the full tier every page.
BUILT_HTML = pytest.mark.built_html("tests/browser/test_pages.py")


@functools.lru_cache(maxsize=2)
def built_page(site_dir: Path, url: str) -> BeautifulSoup:
    """A built page, parsed once for the checks below, which only read it: under xdist a page's
    tests run one after another, so the page they share is the last one kept."""
    return soup_of(site_dir, url)


@BUILT_HTML
def test_every_page_has_its_own_description(site_dir, url):
    """A non-empty meta description on every page; content pages carry their own."""
    meta = built_page(site_dir, url).select('meta[name="description"]')
    descriptions = [m.get("content", "").strip() for m in meta]
    assert len(descriptions) == 1 and descriptions[0], descriptions
    if url != "404.html":
        assert descriptions[0] != " ".join(site_config()["site_description"].split()), (
            f"{url}: no `description:` in the page's front matter, so it shows the site's"
        )


LABELLED = {"input", "select", "textarea", "button", "meter", "output", "progress"}


@BUILT_HTML
def test_every_label_names_a_control(site_dir, url):
    """A ``<label for=X>`` names a form control with id X on its own page. The W3C validator
    found the notebook views' table-of-contents title naming Material's "__toc" toggle, which
    only pages in the nav have."""
    page = built_page(site_dir, url)
    controls = {control.get("id") for control in page.find_all(LABELLED)}
    named = [label["for"] for label in page.select("label[for]") if label["for"]]
    assert named, "no label at all: the check would pass on anything"
    assert [name for name in named if name not in controls] == []


def test_every_source_page_declares_a_description():
    for source in sorted((ROOT / "docs").rglob("*.md")):
        text = source.read_text(encoding="utf-8")
        front = re.match(r"---\n(.*?)\n---\n", text, re.DOTALL)
        meta = yaml.safe_load(front[1]) if front else {}
        assert str(meta.get("description") or "").strip(), f"{source}: no description"


@BUILT_HTML
def test_charts_have_alt_text_size_and_both_renderings(site_dir, url):
    """Each chart: a light and a dark SVG with the same alt text, a size, and real SVG files."""
    page_file = html_file(site_dir, url)
    figures = [image.attrs for image in built_page(site_dir, url).select("img.jd-figure")]
    assert len(figures) % 2 == 0, figures
    for light, dark in zip(figures[::2], figures[1::2], strict=True):
        assert light["src"].endswith(".svg#only-light"), light["src"]
        assert dark["src"].endswith(".svg#only-dark"), dark["src"]
        assert light["alt"] == dark["alt"]
        assert len(light["alt"].split()) >= 5, f"alt text too thin: {light['alt']!r}"
        for image in (light, dark):
            assert image.get("width", "").isdigit() and image.get("height", "").isdigit(), image
            svg = (page_file.parent / image["src"].split("#")[0]).resolve()
            assert svg.is_file() and svg.is_relative_to(site_dir.resolve()), svg
            assert "<svg" in svg.read_text(encoding="utf-8")[:2000]
        light_svg = (page_file.parent / light["src"].split("#")[0]).read_bytes()
        dark_svg = (page_file.parent / dark["src"].split("#")[0]).read_bytes()
        assert light_svg != dark_svg, "the dark rendering is the light one"


def test_the_sitemap_lists_every_page_under_site_url(site_dir, base_url):
    site_url = site_config()["site_url"].rstrip("/") + "/"
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    tree = ET.parse(site_dir / "sitemap.xml")
    locations = [loc.text.strip() for loc in tree.getroot().findall("s:url/s:loc", namespace)]
    assert all(loc.startswith(site_url) for loc in locations), locations
    listed = {loc[len(site_url) :] for loc in locations}
    assert listed == set(page_urls(site_dir)) - {"404.html"}
    robots = (site_dir / "robots.txt").read_text(encoding="utf-8")
    assert f"Sitemap: {site_url}sitemap.xml" in robots.splitlines()


@pytest.mark.parametrize("name", ["sitemap.xml", "robots.txt", "404.html"])
def test_the_host_files_are_at_the_site_root(site_dir, name):
    assert (site_dir / name).is_file()


def test_dark_reruns_every_colour_rule_of_the_bundled_axe(open_page):
    """The survey runs only axe_check.COLOUR_RULES again in dark: every enabled rule about colour
    in the axe it injects, so a new one in an axe upgrade fails here until it is listed."""
    visit = open_page()
    visit.goto("")
    axe_check.prepare(visit.page)
    assert tuple(visit.page.evaluate(axe_check.ENABLED_COLOUR_RULES)) == axe_check.COLOUR_RULES


LONGEST_PAGE = "course/pitfalls/"  # the most elements, code blocks and boxes


# Its verdict depends on axe (uv.lock), the page, the theme and CSS and the survey's code alone:
# the default tier runs it when one of them changed; the survey's dark pass runs meanwhile.
@tiers.only_when_changed(
    "docs/course/pitfalls.md",
    *RENDERER,
    "tests/browser/axe_check.py",
    "tests/browser/page_survey.py",
    "tests/browser/test_pages.py",
)
def test_a_switch_to_dark_changes_no_verdict_but_the_colour_rules(open_page):
    """Why dark reruns only the colour rules: on the longest page, axe's every other rule finds
    the same in both schemes (here any impact counts, not only serious ones)."""
    visit = open_page()
    visit.goto(LONGEST_PAGE)
    section_heights(visit.page)  # every section laid out, as the survey has it before axe

    def others(found: list[dict]) -> list[tuple]:
        return sorted(
            (v["id"], tuple(v["targets"])) for v in found if v["id"] not in axe_check.COLOUR_RULES
        )

    light = others(axe_check.violations(visit.page))
    dark = others(axe_check.violations(switch_scheme(visit, DARK).page))
    assert light == dark
