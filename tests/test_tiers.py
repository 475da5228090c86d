"""The two tiers (tests/tiers.py): what the default tier leaves to the full one, and what it never
leaves out, a sampled test whose page or files changed since main."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.page.model import ROOT
from tests import tiers

sys.path.insert(0, str(ROOT / "tests" / "browser"))
from served_site import RENDERER, markup_pairs, survey_sample

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs


@pytest.fixture
def changed_since_main(monkeypatch):
    """changed_since_main(*files): what git would report, and nothing stored of main's HTML."""

    def set_changed(*files: str) -> None:
        monkeypatch.setattr(tiers, "changed_files", lambda: frozenset(files))
        monkeypatch.setattr(tiers, "pages_whose_html_changed", lambda files: set())
        tiers.changed.cache_clear()

    yield set_changed
    tiers.changed.cache_clear()


class Item:
    def __init__(self, name: str, mark, params: dict | None = None):
        self.name, self.mark, self.nodeid = name, mark, f"tests/{name}.py::test"
        self.callspec = SimpleNamespace(params=params or {})

    def get_closest_marker(self, name):
        return self.mark if name == tiers.MARK else None


def select(
    *items: Item, full: bool = False, shard: str | None = None, named: tuple = ()
) -> tuple[list, list]:
    """What the hook keeps and deselects."""
    deselected = []
    config = SimpleNamespace(
        args=named,
        getoption=lambda name: {"full": full, "shard": shard}[name],
        hook=SimpleNamespace(pytest_deselected=lambda items: deselected.extend(items)),
    )
    kept = list(items)
    tiers.pytest_collection_modifyitems(config, kept)
    return [item.name for item in kept], [item.name for item in deselected]


def test_a_sampled_test_runs_in_the_default_tier_only_when_a_subject_changed(changed_since_main):
    changed_since_main("docs/course/loops.md", "docs/assets/jitdocs.css")
    plain = Item(name="plain", mark=None)
    loops = Item(name="loops", mark=pytest.mark.sampled("docs/course/loops.md").mark)
    other = Item(name="other", mark=pytest.mark.sampled("docs/course/pitfalls.md").mark)
    styled = Item(name="styled", mark=pytest.mark.sampled("docs/x.md", "docs/assets/").mark)
    assert select(plain, loops, other, styled) == (["plain", "loops", "styled"], ["other"])
    assert select(plain, loops, other, styled, full=True) == (
        ["plain", "loops", "other", "styled"],
        [],
    )
    changed_since_main()  # a fresh clone of main: the sample alone
    assert select(plain, loops, other) == (["plain"], ["loops", "other"])
    # a test named on the command line runs (`nox -s page` names its page's notebook)
    assert select(plain, loops, other, named=(loops.nodeid,)) == (["plain", "loops"], ["other"])


def test_a_page_changes_with_its_source_its_snippets_and_the_modules_its_code_imports():
    changed = tiers.pages_whose_inputs_changed
    assert changed(frozenset({"docs/course/loops.md"})) == {"docs/course/loops.md"}
    snippet = next((ROOT / "snippets" / "why_compile").glob("*.py")).relative_to(ROOT)
    assert changed(frozenset({snippet.as_posix()})) == {"docs/course/why-compile.md"}
    importing = changed(frozenset({"snippets/jitkit.py"}))
    assert "docs/course/why-compile.md" in importing and "docs/index.md" not in importing
    assert changed(frozenset({"README.md"})) == set() == changed(frozenset())


def test_one_per_group_keeps_the_first_that_measures_no_time():
    values = [pytest.param("a/1", marks=pytest.mark.timing), "a/2", "a/3", "b/1"]
    params = tiers.one_per(values, lambda v: v.split("/")[0], lambda v: [v])
    kept = [p for p in params if not any(m.name == tiers.MARK for m in getattr(p, "marks", ()))]
    assert kept == ["a/2", "b/1"]
    timed = params[0]
    assert [m.name for m in timed.marks] == ["timing", tiers.MARK] and timed.values == ("a/1",)
    assert params[2].marks[0].args == ("a/3",)


def test_a_url_stands_for_its_source_page():
    assert tiers.source_of("") == "docs/index.md"
    assert tiers.source_of("course/loops/") == "docs/course/loops.md"
    assert tiers.source_of("course/loops/notebook/") == "docs/course/loops.md"
    assert tiers.source_of("track/") == "docs/track/index.md"
    assert tiers.source_of("404.html") == "404.html"


def built(site: Path, pages: dict[str, str]) -> Path:
    for name, html in pages.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(html, encoding="utf-8")
    return site


def test_built_html_changed_against_what_a_run_on_main_stored(tmp_path, monkeypatch):
    site = built(
        tmp_path / "site",
        {"index.html": "home", "course/loops/index.html": "a", "assets/x.html": "skipped"},
    )
    monkeypatch.setenv(tiers.SITE_VARIABLE, str(site))
    monkeypatch.setattr(tiers, "HTML_DIGESTS", tmp_path / "main-html.json")
    monkeypatch.setattr(tiers, "merge_base", lambda: "abc")
    assert tiers.pages_whose_html_changed(frozenset()) == set()  # on main: stored
    stored = json.loads((tmp_path / "main-html.json").read_text())
    assert stored["commit"] == "abc"
    assert set(stored["pages"]) == {"docs/index.md", "docs/course/loops.md"}
    built(site, {"course/loops/index.html": "b"})
    assert tiers.pages_whose_html_changed(frozenset({"x"})) == {"docs/course/loops.md"}
    monkeypatch.setattr(tiers, "merge_base", lambda: "def")  # main moved: nothing to compare
    assert tiers.pages_whose_html_changed(frozenset({"x"})) == set()


def test_the_survey_sample_has_each_kind_of_page_once_and_the_longest(tmp_path):
    site = built(
        tmp_path,
        {
            "index.html": "h",
            "course/a/index.html": "aa",
            "course/b/index.html": "b",
            "course/b/notebook/index.html": "bbbb",
            "course/c/notebook/index.html": "ccc",
            "practice/quiz/index.html": "q" * 50,
        },
    )
    urls = ["", "course/a/", "course/b/", "course/b/notebook/", "course/c/notebook/"]
    every = [*urls, "practice/quiz/"]
    assert survey_sample(site, every) == {"", "course/b/", "course/c/notebook/", "practice/quiz/"}
    assert survey_sample(site, ["course/a/"]) == {"course/a/"}  # none of the sample: the smallest


def test_the_longest_page_stands_for_its_part(tmp_path):
    """Here a notebook view: no other view is surveyed as well."""
    pages = {
        "index.html": "h",
        "course/a/index.html": "aa",
        "course/b/notebook/index.html": "b" * 9,
    }
    site = built(tmp_path, {**pages, "course/c/notebook/index.html": "ccc"})
    every = ["", "course/a/", "course/b/notebook/", "course/c/notebook/"]
    assert survey_sample(site, every) == {"", "course/a/", "course/b/notebook/"}


PAIR = '<div class="jd-pair">{}<div class="admonition success"><p>do</p></div></div>'
BAD = '<div class="admonition failure"><p>don\'t</p>{}</div>'
NOTE = '<div class="admonition warning"><p>on a TPU</p></div>'


def test_a_renderer_change_surveys_a_page_for_each_markup_pair(tmp_path):
    """The sample, and after a renderer change the fewest pages more that show every (parent,
    element) pair: here the fault a4d3049 fixed, a note moved out of its box into the pair."""
    site = built(
        tmp_path,
        {
            "index.html": "<p>home</p>",
            "course/a/index.html": PAIR.format(BAD.format("")),
            "course/b/index.html": PAIR.format(BAD.format(NOTE)) + "<p>longest</p>" * 9,
            "course/c/index.html": PAIR.format(BAD.format("") + NOTE),
            "course/d/index.html": PAIR.format(BAD.format(NOTE)),
        },
    )
    urls = ["", "course/a/", "course/b/", "course/c/", "course/d/"]
    sample = survey_sample(site, urls)
    assert sample == {"", "course/b/"}  # the longest stands for its part
    assert survey_sample(site, urls, renderer_changed=True) == {*sample, "course/c/"}
    assert ("div.jd-pair", "div.admonition.warning") in markup_pairs(site / "course/c/index.html")
    assert ("div.jd-pair", "div.admonition.warning") not in markup_pairs(
        site / "course/d/index.html"
    )


def test_the_renderer_the_theme_the_css_and_the_markdown_options_widen_the_surveys(
    changed_since_main,
):
    for name in ("engine/site/render.py", "engine/site/overrides/main.html", "mkdocs.yml"):
        changed_since_main(name)
        assert tiers.touches(RENDERER), name
    changed_since_main("docs/assets/jitdocs.css")
    assert tiers.touches(RENDERER)
    changed_since_main("docs/course/loops.md", "engine/run/cache.py", "tests/test_run.py")
    assert not tiers.touches(RENDERER)


def test_shards_split_the_tests_and_keep_a_page_s_tests_together(changed_since_main):
    changed_since_main()
    items = [Item(f"t{n}", None, {"url": f"page{n % 7}/"}) for n in range(70)]
    items += [Item(f"file{n}", None) for n in range(30)]
    shard_of = {}
    for k in (1, 2, 3):
        for name in select(*items, full=True, shard=f"{k}/3")[0]:
            assert name not in shard_of, name  # in one shard only
            shard_of[name] = k
    assert set(shard_of) == {item.name for item in items} and set(shard_of.values()) == {1, 2, 3}
    for page in range(7):
        assert len({shard_of[f"t{n}"] for n in range(page, 70, 7)}) == 1, page
    with pytest.raises(pytest.UsageError):
        select(*items, shard="4/3")
