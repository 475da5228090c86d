"""`nox -s matrix`: stable claim ids, verdicts from drift runs, what the data may lack, notes."""

from __future__ import annotations

import json

import pytest
import yaml
from timing_marks import runs_every_page

from engine.page.model import ROOT
from engine.page.parser import parse_page, read_pages
from engine.page.policy import policy
from engine.run import compatibility, environment, pages
from engine.run.results import NOT_RUN, Failure, Kind, Outcome, PageResult
from engine.site import run_step, version_notes
from engine.site.render import Site
from engine.tools import drift, matrix
from tests.helpers import fence, page

PINNED = environment.locked_versions()["jax"]
PAGE = "docs/course/pitfalls.md"
COURSE_PAGE = "docs/course/demo.md"  # where the made-up pages are
RERUN_HINT = "the data needs a run of the pinned JAX: `nox -s matrix` (see MAINTAINERS.md)"


def release(jax: str, verdicts: dict) -> dict:
    return {
        "requirement": f"jax=={jax}",
        "jax": jax,
        "jaxlib": jax,
        "date": "2026-01-01",
        "platform": "Linux",
        "python": "3.12.1",
        "verdicts": verdicts,
        "other": [],
    }


def all_hold(pages, jax: str = PINNED) -> dict:
    ids = {c.id: {"verdict": compatibility.HOLDS} for p in pages for c in p.claims}
    return {"aliases": {}, "releases": [release(jax, ids)]}


def real_page(text: str | None = None):
    return parse_page(PAGE, text if text is not None else (ROOT / PAGE).read_text("utf-8"))


# ---------------------------------------------------------------- ids


@pytest.mark.unit
def test_ids_survive_a_prose_edit_and_a_line_shift(tmp_path):
    original = (ROOT / PAGE).read_text(encoding="utf-8")
    title_end = original.index("\n", original.index("\n# ") + 1) + 1
    edited = (
        original[:title_end] + "\nA new paragraph.\n\nAnd another one.\n" + original[title_end:]
    )
    first_prose = next(line for line in original.splitlines()[5:] if line[:1].isalpha())
    edited = edited.replace(first_prose, first_prose + " Reworded.", 1)
    copy = tmp_path / "pitfalls.md"
    copy.write_text(edited, encoding="utf-8")

    before, after = real_page(), real_page(copy.read_text(encoding="utf-8"))
    assert [b.line + 4 for b in before.blocks] == [b.line for b in after.blocks]  # lines moved
    assert len(before.claims) >= 5
    assert before.claims == after.claims


@pytest.mark.unit
def test_editing_the_code_makes_a_new_id_that_an_alias_maps_to_the_old():
    demo = fence("assert 1 + 1 == 2", "fact: addition works")
    old, new = page(demo, COURSE_PAGE), page(demo.replace("1 + 1", "2 + 0"), COURSE_PAGE)
    (old_id,), (new_id,) = [c.id for c in old.claims], [c.id for c in new.claims]
    assert old_id != new_id and old_id.startswith("course/demo/fact-")
    data = all_hold([old], PINNED)
    assert version_notes.stale([new], data, PINNED) == []  # the edit forces no run
    assert version_notes.unchecked([new], data) == [new_id]
    assert version_notes.orphans([new], data) == {
        f"nox -s matrix -- --page {COURSE_PAGE}": [old_id]
    }
    data["aliases"] = {new_id: old_id}
    assert version_notes.unchecked([new], data) == [] and version_notes.orphans([new], data) == {}
    assert version_notes.cells(data, new_id) == " ✓ |"
    broken = {"verdict": "broken", "where": "docs/course/demo.md:2", "error": "AssertionError"}
    data["releases"][0]["verdicts"][old_id] = broken
    anchor = version_notes.cells(data, new_id).split("(#")[1].split(")")[0]
    assert f"{{: #{anchor} }}" in version_notes.details(data)  # the ✗ link finds its target


@pytest.mark.unit
def test_a_repeated_block_gets_its_own_id():
    demo = page(
        fence("assert 1 == 1", "fact: one") + "\nprose\n\n" + fence("assert 1 == 1", "fact: one"),
        COURSE_PAGE,
    )
    ids = [c.id for c in demo.claims]
    assert len(set(ids)) == 2 and ids[1] == ids[0] + "-2"


# ---------------------------------------------------------------- what the data may lack


@pytest.mark.unit
def test_the_committed_data_matches_the_pages():
    data = compatibility.load(ROOT / compatibility.DATA)
    assert version_notes.stale(read_pages([]), data) == [], RERUN_HINT


@pytest.mark.unit
def test_a_new_claim_waits_unchecked_and_a_removed_ones_verdict_waits_for_its_page():
    original = (ROOT / PAGE).read_text(encoding="utf-8")
    data = all_hold([real_page()])
    assert version_notes.stale([real_page()], data, PINNED) == []

    pair = fence("int('x')", "bad: raises ValueError") + fence("int('1')", "good")
    section = "\n\n## A new section\n<!-- badge: extra -->\n\n"
    added = real_page(original.rstrip("\n") + section + pair)
    assert version_notes.stale([added], data, PINNED) == []  # no whole-matrix run forced
    (new_claim,) = set(c.id for c in added.claims) - set(data["releases"][0]["verdicts"])
    assert version_notes.unchecked([added], data) == [new_claim]
    assert version_notes.UNCHECKED in version_notes.summary([added], data)

    parsed = real_page()
    bad = next(b for b in parsed.blocks if b.bad)
    good = parsed.blocks[parsed.blocks.index(bad) + 1]
    end = good.end
    for block in parsed.blocks[parsed.blocks.index(good) + 1 :]:  # the ✅'s folded checks go too
        if not block.check:
            break
        end = block.end
    removed = real_page(original[: bad.start] + original[end:])
    assert version_notes.stale([removed], data, PINNED) == []
    ((command, ids),) = version_notes.orphans([removed], data).items()
    assert command == f"nox -s matrix -- --page {PAGE}"
    assert ids[0].startswith("course/pitfalls/contract-")
    assert f"({command} clears them)" in version_notes.summary([removed], data)
    assert version_notes.orphans([], data) == {
        "nox -s matrix": sorted(ids + [c.id for c in removed.claims])
    }  # a page that is gone: only a whole run clears its verdicts


@pytest.mark.unit
def test_guard_fails_without_the_pinned_release():
    data = all_hold([real_page()], jax="0.0.1")
    assert version_notes.stale([real_page()], data, PINNED) == [
        f"the data has no run of the pinned jax {PINNED}"
    ]
    assert "STALE" in version_notes.summary([real_page()], None)


# ---------------------------------------------------------------- verdicts


def test_verdicts_come_from_a_drift_run_of_the_page():
    demo = page(
        fence("x = 1", "bad: raises ValueError")  # no longer raises: broken
        + fence("print('fixed')", "good")
        + fence("assert 1 + 1 == 2", "fact: addition works")
        + fence("assert False", "fact: skipped here", "skip: needs a GPU"),
        COURSE_PAGE,
    )
    result, failures, relaxed = drift.run_continuing(demo)
    outcomes = [None if i in relaxed else o for i, o in enumerate(result.outcomes)]
    contract, fact, skipped = (v for v in matrix.verdicts(demo, failures, outcomes).values())
    assert (
        contract["verdict"] == compatibility.BROKEN and contract["where"] == "docs/course/demo.md:2"
    )
    assert "should raise ValueError" in contract["error"]
    assert fact == {"verdict": compatibility.HOLDS}
    assert skipped == {"verdict": NOT_RUN, "why": "skipped on the site"}


def test_record_runs_each_page_under_the_installed_jax(tmp_path):
    """What `nox -s matrix` calls once per release: a page's claims come back with verdicts."""
    demo = page(fence("assert 1 + 1 == 2", "fact: addition works"), COURSE_PAGE)
    entry = matrix.record("pinned (uv.lock)", [demo], tmp_path)
    assert (entry["requirement"], entry["jax"]) == ("pinned (uv.lock)", PINNED)
    assert list(entry["verdicts"].values()) == [{"verdict": compatibility.HOLDS}]
    assert entry["other"] == []


@runs_every_page
def test_the_pinned_column_agrees_with_the_live_build():
    data = compatibility.load(ROOT / compatibility.DATA)
    (pinned,) = [r for r in compatibility.tested(data) if r["jax"] == PINNED]
    every_page = read_pages([])
    live = pages.execute_pages(every_page, report=lambda line: None)  # the docs build's own cache
    for p in every_page:
        for claim_id, found in matrix.verdicts(p, [], live[p.path].outcomes).items():
            recorded = pinned["verdicts"].get(compatibility.recorded_id(data, pinned, claim_id))
            if recorded is not None:  # else "not yet checked", which the site says
                assert recorded["verdict"] == found["verdict"], (claim_id, recorded)


def pinned_cells(notes: str, data: dict) -> dict[str, str]:
    """Each table row of the rendered version notes (its first cell) and its pinned JAX cell."""
    names = [f"JAX {r['jax']}" for r in compatibility.tested(data)]
    from_end = len(names) - names.index(f"JAX {PINNED}")  # the release cells end each row
    rows = [line.strip() for line in notes.splitlines() if line.strip().startswith("| [")]
    return {row.split(" | ")[0]: row.rstrip("|").split("|")[-from_end].strip() for row in rows}


@runs_every_page
def test_every_page_the_build_ran_shows_its_claims_holding_on_the_pinned_jax():
    """A page newer than the matrix's last run showed a dash in the pinned column and no badge; its
    claims ran in this very build, so the site renders the build's own verdicts there."""
    every_page = read_pages([])
    site = Site(ROOT, pages={p.path: p for p in every_page})
    site.results = pages.execute_pages(every_page, report=lambda line: None)  # the docs build's
    data = run_step.with_this_run(site, compatibility.load(ROOT / compatibility.DATA))
    notes = version_notes.render(site.pages, data, site.environment(), version_notes.NOTES_PAGE)
    cells = pinned_cells(notes, data)
    assert len(cells) == sum(len(p.claims) for p in every_page)
    assert set(cells.values()) == {"✓"}, [row for row, cell in cells.items() if cell != "✓"]
    for p in every_page:
        badge = version_notes.title_badge(p, data)
        if p.claims and p.path.startswith(policy().noted_pages):
            count = "The claim holds" if len(p.claims) == 1 else f"All {len(p.claims)} claims hold"
            assert badge.startswith(f"\n[✓ {count} on the pinned JAX {PINNED}]("), (p.path, badge)


@pytest.mark.unit
def test_the_build_s_own_run_is_the_pinned_column_of_a_page_the_matrix_has_not_run(demo_data):
    demo, data = demo_data
    for found in data["releases"][1:]:
        found["verdicts"] = {}  # the page is newer than the matrix's last run
    notes = version_notes.NOTES_PAGE
    before = version_notes.render({demo.path: demo}, data, {"jax": PINNED}, notes)
    assert set(pinned_cells(before, data).values()) == {version_notes.DASH}  # what was shown
    assert version_notes.page_badge(demo, data, demo.path).startswith("[2 claims not yet")

    ran = PageResult([Outcome() for _ in demo.blocks], {"jax": PINNED, "produced": "now"})
    site = Site(ROOT, pages={demo.path: demo}, results={demo.path: ran})
    shown = run_step.with_this_run(site, data)
    after = version_notes.render({demo.path: demo}, shown, {"jax": PINNED}, notes)
    assert set(pinned_cells(after, shown).values()) == {"✓"}
    assert f'"Demo: 2 claims, all hold on JAX {PINNED}, 2 not yet checked on other' in after
    badge = version_notes.page_badge(demo, shown, demo.path)
    assert badge.startswith(f"[✓ All 2 claims hold on the pinned JAX {PINNED}](")
    assert "[2 claims not yet checked on other releases](" in badge
    assert version_notes.page_note(demo, shown, demo.path) == (
        f"2 claims on this page hold on the pinned JAX {PINNED} and are not yet checked on "
        "other releases."
    )
    assert data["releases"][2]["verdicts"] == {}  # the file's data is left as it was
    elsewhere = {**ran.environment, "jax": "0.11.2"}  # a build with another JAX: its own column
    site.results = {demo.path: PageResult(ran.outcomes, elsewhere)}
    assert run_step.with_this_run(site, data)["releases"][2]["verdicts"] == {}
    assert run_step.with_this_run(site, data)["releases"][1]["verdicts"]


@pytest.mark.unit
def test_default_releases_skip_the_pinned_series_and_take_newest_patches():
    versions = ["0.9.2", "0.10.0", "0.10.2", "0.11.1", "0.11.2", "0.12.0", "0.12.0.1", "0.4.7"]
    assert matrix.default_releases("0.12.0.1", versions) == [
        "jax==0.11.2",
        "jax==0.10.2",
        "jax==0.9.2",
    ]
    assert matrix.default_releases("0.11.2", versions)[0] == "jax==0.12.0.1"
    # a newer patch of the pinned series is still the pinned series: skipped, as the docs say
    assert matrix.default_releases("0.12.0.1", [*versions, "0.12.1"])[0] == "jax==0.11.2"


@pytest.mark.unit
def test_the_session_runs_the_recorded_releases_unless_a_maintainer_names_others():
    data = {"aliases": {}, "releases": [release("0.9.2", {}), release(PINNED, {})]}
    data["releases"][1]["requirement"] = matrix.PINNED_REQUIREMENT
    page_only = matrix.session_plan(["--page", "docs/course/demo.md"], data)
    assert page_only == {"pages": ["docs/course/demo.md"], "releases": ["jax==0.9.2"], "new": False}
    assert matrix.session_plan([], data)["releases"] == ["jax==0.9.2"]  # every page, same list
    index = ["0.10.2", "0.11.2", "0.12.0.1", "0.12.1", "0.9.2"]
    chosen = matrix.session_plan(["--releases", "default"], data, versions=lambda: index)
    assert chosen == {"pages": [], "releases": ["jax==0.11.2", "jax==0.10.2", "jax==0.9.2"],
                      "new": True}  # fmt: skip
    named = matrix.session_plan(["--releases", "jax==0.10.*"], data)
    assert named["releases"] == ["jax==0.10.*"] and named["new"]
    one = matrix.session_plan(["--page", "docs/course/demo.md", "--releases", "jax==0.9.2"], data)
    assert one == {"pages": ["docs/course/demo.md"], "releases": ["jax==0.9.2"], "new": False}
    with pytest.raises(SystemExit):  # a page run never adds a release
        matrix.session_plan(["--page", "docs/course/demo.md", "--releases", "jax==0.13.0"], data)


@pytest.mark.unit
def test_a_page_merge_replaces_that_pages_records_only(tmp_path):
    path = tmp_path / "compat.json"
    held, broken = {"verdict": "holds"}, {"verdict": "broken", "where": "w", "error": "e"}
    old = release("0.11.2", {"course/a/fact-1": broken, "course/b/fact-2": held})
    old["other"] = ["docs/course/a.md:9: AssertionError", "docs/course/b.md:4: AssertionError"]
    compatibility.save(old, path, new=True)
    compatibility.save(release(PINNED, {"course/a/fact-1": held, "course/b/fact-2": held}), path)
    before = compatibility.load(path)
    before["aliases"] = {"course/a/fact-3": "course/a/fact-1"}
    path.write_text(json.dumps(before), "utf-8")

    run = release("0.11.2", {"course/a/fact-3": held})  # fact-1's code was edited: now fact-3
    run["date"] = "2026-02-02"
    data = compatibility.merge(run, path, ["docs/course/a.md"])
    older = data["releases"][0]
    assert older["verdicts"] == {"course/b/fact-2": held, "course/a/fact-3": held}
    assert older["other"] == ["docs/course/b.md:4: AssertionError"]  # the other page's kept
    assert data["releases"][1] == before["releases"][1]  # another release: untouched
    assert [r["jax"] for r in data["releases"]] == ["0.11.2", PINNED]
    assert data["aliases"] == before["aliases"]  # the pinned release still needs it
    assert compatibility.load(path) == data
    text = path.read_text("utf-8")
    compatibility.merge(release(PINNED, {"course/a/fact-1": held}), path, ["docs/course/a.md"])
    assert path.read_text("utf-8") == text  # a re-run that changes nothing changes no line
    with pytest.raises(ValueError, match="not among the recorded releases"):
        compatibility.merge(release("0.13.0", {}), path, ["docs/course/a.md"])


@pytest.mark.unit
def test_a_timing_claim_measured_on_a_busy_machine_is_not_recorded_as_a_jax_change():
    assert matrix.machine_busy(load=3.7, cores=2).startswith("timing, machine busy (load")
    assert matrix.machine_busy(load=1.1, cores=2) == ""  # the page itself counts about 1
    assert matrix.machine_busy(load=1.2, cores=1) == ""
    assert matrix.machine_busy(load=9.0, cores=13) == ""
    demo = page(fence("assert 1 + 1 == 2", "fact: addition works"), COURSE_PAGE)
    where = demo.blocks[0].where
    slow = drift.Finding("fact", where, "fact no longer holds", 0, timing=True)
    busy = matrix.machine_busy(load=4.0, cores=2)
    (found,) = matrix.verdicts(demo, [slow], [None], busy).values()
    assert found == {"verdict": NOT_RUN, "why": busy}
    (found,) = matrix.verdicts(demo, [slow], [None], "").values()  # idle: a real change
    assert found["verdict"] == compatibility.BROKEN
    plain = drift.Finding("fact", where, "fact no longer holds", 0)
    (found,) = matrix.verdicts(demo, [plain], [None], busy).values()  # not a timing: broken
    assert found["verdict"] == compatibility.BROKEN
    entry = release("0.11.2", {})
    entry["not_measured"] = [f"docs/course/hands-on.md:159: {busy}"]
    shown = version_notes.details({"aliases": {}, "releases": [entry]})
    assert "Timing checks not recorded: the machine was busy" in shown
    assert f"**JAX 0.11.2**, docs/course/hands-on.md:159: {busy}" in shown
    assert "Other checks that broke" not in shown  # never listed as a JAX change


@pytest.mark.unit
def test_a_failed_timing_claim_is_known_as_one():
    short = Failure(Kind.ASSERTION, COURSE_PAGE, 3, index=0)
    short.timing_claims = [{"label": "jit", "margin": 0.6}]
    demo = page(fence("assert 1 + 1 == 2", "fact: addition works"), COURSE_PAGE)
    assert drift.classify(short, demo).timing
    short.timing_claims = [{"label": "jit", "margin": 1.4}]  # held: something else failed
    assert not drift.classify(short, demo).timing
    assert drift.classify(Failure(Kind.SHARED_CPU, COURSE_PAGE, 3, index=0), demo).timing


@pytest.mark.unit
def test_save_replaces_a_release_and_keeps_uninstallable_ones(tmp_path):
    path = tmp_path / "compat.json"
    compatibility.save(release("0.11.2", {}), path, new=True)
    compatibility.save(matrix.uninstallable("jax==0.4.*"), path)
    data = compatibility.save(release("0.11.2", {"x": {"verdict": "holds"}}), path)
    assert [r["requirement"] for r in data["releases"]] == ["jax==0.4.*", "jax==0.11.2"]
    assert data["releases"][1]["verdicts"] == {"x": {"verdict": "holds"}}
    assert data["releases"][0]["not_installable"].startswith("not installable on Python 3.")
    assert json.loads(path.read_text("utf-8")) == data
    data["aliases"] = {"x": "old-x", "y": "old-y"}
    path.write_text(json.dumps(data), "utf-8")
    data = compatibility.save(release("0.11.2", {"x": {"verdict": "holds"}}), path)
    assert data["aliases"] == {"y": "old-y"}  # every release records x itself now


# ---------------------------------------------------------------- rendering


@pytest.fixture
def demo_data():
    demo = page(
        "# Demo\n\n"
        + fence("int('x')", "bad: raises ValueError")
        + fence("1", "good")
        + fence("assert 1 + 1 == 2", "fact: addition works"),
        COURSE_PAGE,
    )
    contract, fact = (c.id for c in demo.claims)
    broken = {"verdict": "broken", "where": "docs/course/demo.md:3", "error": "❌ `<ran>` fine"}
    data = {
        "aliases": {},
        "releases": [
            matrix.uninstallable("jax==0.4.*"),
            release("0.11.2", {contract: broken, fact: {"verdict": "holds"}}),
            release(PINNED, {contract: {"verdict": "holds"}, fact: {"verdict": "holds"}}),
        ],
    }
    return demo, data


@pytest.mark.unit
def test_version_notes_gain_a_column_per_tested_release(demo_data):
    demo, data = demo_data
    notes = "docs/reference/version-notes.md"
    text = version_notes.render({demo.path: demo}, data, {"jax": PINNED}, notes)
    anchor, _, title, _, head, _, contract_row, fact_row = text.splitlines()[2:10]
    assert anchor == '<a id="notes-course-demo"></a>'  # the page badge's target
    assert title == '???+ abstract "Demo: 2 claims, 1 broken on 0.11.2"'  # unfolded: it broke
    assert head.endswith(f"| JAX 0.11.2 | JAX {PINNED} |")
    anchor = contract_row.split("(#")[1].split(")")[0]
    assert contract_row.endswith(f"| [✗](#{anchor}) | ✓ |") and fact_row.endswith("| ✓ | ✓ |")
    assert f"{{: #{anchor} }}" in text  # the ✗ lands on what broke
    assert "<code>&lt;ran&gt;</code>" in text and "docs/course/demo.md:3" in text
    assert "`jax==0.4.*`: not installable on Python 3." in text


@pytest.mark.unit
def test_page_note_says_which_claims_hold_where(demo_data):
    demo, data = demo_data
    note = version_notes.page_note(demo, data, demo.path)
    link = "[2 JAX releases tested](../reference/version-notes.md)"
    tested = f"the {link} (0.11.2{version_notes.DASH}{PINNED})"
    assert note == f"1 of the 2 claims on this page holds on {tested}; 1 broken on 0.11.2."
    data["releases"][1]["verdicts"] = data["releases"][2]["verdicts"]
    assert (
        version_notes.page_note(demo, data, demo.path)
        == f"Both claims on this page hold on {tested}."
    )
    for found in data["releases"][1:]:
        found["verdicts"] = {}  # claims added since the matrix ran: waiting, not failing
    assert version_notes.page_note(demo, data, demo.path) == (
        "2 claims on this page are not yet checked on other releases."
    )
    assert version_notes.page_badge(demo, data, demo.path).startswith(
        "[2 claims not yet checked on other releases]("
    )
    data["releases"][1]["verdicts"] = data["releases"][2]["verdicts"] = {
        demo.claims[0].id: {"verdict": "holds"}
    }
    assert version_notes.page_note(demo, data, demo.path) == (
        f"The one claim on this page holds on {tested}; "
        "1 claim on this page is not yet checked on other releases."
    )
    badge = version_notes.page_badge(demo, data, demo.path)
    assert badge.startswith(f"[✓ The claim holds on the pinned JAX {PINNED}]")
    assert "[1 claim not yet checked on other releases](" in badge
    notes = version_notes.render({demo.path: demo}, data, {}, version_notes.NOTES_PAGE)
    assert "Demo: 2 claims, holds on JAX 0.11.2" in notes and "1 not yet checked on" in notes
    data["releases"][1]["verdicts"] = data["releases"][2]["verdicts"] = {
        c.id: {"verdict": "holds"} for c in demo.claims
    }
    text = version_notes.title_badge(demo, data)
    assert demo.title_end == 7 and text.endswith("{ .jd-compat }\n")
    assert version_notes.title_badge(page("# x\n", "docs/practice/x.md"), data) == ""
    assert page("No title here.\n", COURSE_PAGE).title_end == 0  # so Page.pieces has no place


@pytest.mark.unit
def test_the_badge_under_the_title_is_one_short_line_that_opens_to_the_details(demo_data):
    """The badge speaks of the pinned JAX; how older releases differ is a separate, quieter note."""
    demo, data = demo_data
    target = "../reference/version-notes.md#notes-course-demo"
    badge = version_notes.page_badge(demo, data, demo.path)
    whole = "1 of the 2 claims on this page holds on the 2 JAX releases tested"
    assert badge.startswith(f'[✓ All 2 claims hold on the pinned JAX {PINNED}]({target} "{whole}')
    older = f"[Older JAX: 1 claim differs on 0.11.2]({target}){{ .jd-compat .jd-compat--older }}"
    assert badge.endswith('; 1 broken on 0.11.2."){ .jd-compat } ' + older)
    data["releases"][1]["verdicts"] = data["releases"][2]["verdicts"]
    assert version_notes.page_badge(demo, data, demo.path).endswith("){ .jd-compat }")
    data["releases"][1]["other"] = ["docs/course/demo.md:9: AssertionError at `assert x`"]
    assert "[Older JAX: a check differs on 0.11.2]" in version_notes.page_badge(
        demo, data, demo.path
    )
    broken = {"verdict": "broken", "where": "", "error": ""}
    data["releases"][2]["verdicts"] = {**data["releases"][2]["verdicts"], demo.claims[0].id: broken}
    assert version_notes.page_badge(demo, data, demo.path).startswith(
        f"[⚠ 1 of 2 claims hold on the pinned JAX {PINNED}]"
    )
    notes = version_notes.render({demo.path: demo}, data, {}, version_notes.NOTES_PAGE)
    assert '<a id="notes-course-demo"></a>' in notes  # where the badge lands


@pytest.mark.unit
def test_a_release_newer_than_the_pinned_one_is_called_newer(demo_data):
    """0.12.1 is newer than the pinned 0.12.0.1: its differences are not "Older JAX"."""
    demo, data = demo_data
    newer = release("0.12.1", dict(data["releases"][1]["verdicts"]))  # the contract broke there
    data["releases"][1]["verdicts"] = data["releases"][2]["verdicts"]
    data["releases"].append(newer)
    badge = version_notes.page_badge(demo, data, demo.path)
    assert "[Newer JAX: 1 claim differs on 0.12.1]" in badge and "Older JAX" not in badge
    data["releases"][1]["other"] = ["docs/course/demo.md:9: AssertionError at `assert x`"]
    badge = version_notes.page_badge(demo, data, demo.path)
    assert "[Older JAX: a check differs on 0.11.2]" in badge
    assert badge.index("Older JAX") < badge.index("Newer JAX")


@pytest.mark.unit
def test_page_note_tells_a_failing_plain_check_from_a_claim(demo_data):
    """Every claim holding while a plain assert fails must not read as 'this page is wrong'."""
    demo, data = demo_data
    data["releases"][1]["verdicts"] = data["releases"][2]["verdicts"]
    data["releases"][1]["other"] = ["docs/course/demo.md:9: AssertionError at `assert x`"]
    data["releases"][2]["other"] = ["docs/elsewhere.md:9: AssertionError at `assert y`"]
    note = version_notes.page_note(demo, data, demo.path)
    assert note.startswith("Both claims on this page hold on the [2 JAX releases tested]")
    assert note.endswith("; 1 other check (not a claim) fails on 0.11.2.")
    assert "Not every claim" not in note
    assert "demo.md:9: AssertionError at <code>assert x</code>" in version_notes.details(data)
    data["releases"][2]["other"] = ["docs/course/demo.md:12: AssertionError at `assert z`"]
    assert "; 2 other checks (not claims) fail on 0.11.2 and " in version_notes.page_note(
        demo, data, demo.path
    )


@pytest.mark.unit
def test_page_note_is_left_out_where_it_tells_a_reader_nothing(demo_data):
    """A page with no claim and no failing check gets no maintainer-facing line under its title."""
    _, data = demo_data
    plain = page("# Plain\n\nProse only.\n\n" + fence("print(1)"), "docs/track/plain.md")
    assert version_notes.page_note(plain, data, plain.path) == ""
    assert version_notes.title_badge(plain, data) == ""
    index = parse_page("docs/track/index.md", (ROOT / "docs/track/index.md").read_text("utf-8"))
    assert version_notes.title_badge(index, compatibility.load(ROOT / compatibility.DATA)) == ""
    data["releases"][2]["other"] = ["docs/track/plain.md:5: AssertionError at `assert 0`"]
    note = version_notes.page_note(plain, data, plain.path)
    check = "[check](../reference/version-notes.md)"
    assert note == f"1 {check} on this page (not a claim) fails on {PINNED}."


@pytest.mark.unit
def test_the_weekly_workflow_refreshes_the_matrix_and_uploads_it():
    """It proposes the default releases as an artifact; a maintainer commits it or not."""
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "drift.yml").read_text("utf-8"))
    steps = workflow["jobs"]["drift"]["steps"]
    runs = [s.get("run", "") for s in steps]
    assert "nox -s matrix -- --releases default" in runs
    uploads = [s["with"] for s in steps if s.get("uses", "").startswith("actions/upload-artifact")]
    assert {"name": "compatibility", "path": compatibility.DATA.as_posix()} in [
        {k: u[k] for k in ("name", "path")} for u in uploads
    ]
