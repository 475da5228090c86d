"""`mkdocs build` on a tiny throwaway project that uses the real hook: exit codes and HTML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import tiers
from tests.helpers import CONFIG, build_one_page, mkdocs_build

# What a throwaway build's verdict depends on: the engine (its hook), the test's project.
BUILD = ["engine/", "tests/helpers.py", "tests/test_build_end_to_end.py"]


# In-process: test_site.py::test_the_extension_renders_a_compile_log_escaped; the default tier's
# site build passes every page through the hook.
@tiers.only_when_changed(*BUILD)
def test_compile_log_reaches_the_page_escaped(tmp_path):
    done, html = build_one_page(
        tmp_path,
        """\
        # Demo

        ```python
        jax.config.update("jax_log_compiles", True)
        jax.jit(lambda v: v * 2)(1.0)
        ```
        """,
    )
    assert done.returncode == 0, done.stderr
    text = html.read_text()
    assert "Compiling jit(&lt;lambda&gt;)" in text
    assert "jit(<lambda>)" not in text
    assert "jitdocs: docs/index.md" in done.stderr  # one progress line per page


# One broken page shows that the build fails with the message; the messages themselves are
# tested in-process (test_run.py, test_page.py), so the other two run in the full tier.
@pytest.mark.parametrize(
    ("page", "message"),
    [
        ("# Demo\n\n```python\nx = 1\nx.missing\n```\n", "docs/index.md:3: unexpected exception"),
        pytest.param(
            "# Demo\n\n<!-- expected: error -->\n```python\nx = 1\n```\n",
            "unknown marker",
            marks=tiers.only_when_changed(*BUILD),
        ),
        pytest.param(
            "# Demo\n\n<!-- snippet: absent -->\n",
            "docs/index.md:3: snippet file",
            marks=tiers.only_when_changed(*BUILD),
        ),
    ],
    ids=["exception", "unknown-marker", "missing-snippet"],
)
def test_broken_page_fails_the_build_naming_file_and_line(tmp_path, page, message):
    done, _ = build_one_page(tmp_path, page)
    assert done.returncode != 0
    assert message in done.stderr


@tiers.only_when_changed(*BUILD)  # the engine's own behaviour: no page can change it
def test_each_page_is_read_and_parsed_once_per_build(tmp_path, monkeypatch):
    """One read of each page file, one parse of its front matter and of its body: the hook, the
    Markdown extension and the notebook writer share them."""
    import builtins
    import io

    import yaml
    from mkdocs.commands.build import build as build_site
    from mkdocs.config import load_config
    from mkdocs.utils import meta

    from engine.page import parser

    events: list[tuple[str, str]] = []
    pages = {tmp_path / "docs" / "index.md": "index", tmp_path / "docs" / "course" / "ch.md": "ch"}
    inside: set[str] = set()  # a read or parse inside another (get_data's yaml.load) is part of it

    def spy(kind: str, real, name_of):
        def called(*args, **kwargs):
            outer = kind not in inside
            name = name_of(*args, **kwargs) if outer else None
            events.extend([(kind, name)] if name else [])
            inside.add(kind)
            try:
                return real(*args, **kwargs)
            finally:
                if outer:
                    inside.discard(kind)

        return called

    def opened(file, mode="r", *args, **kwargs):
        if "b" in mode:  # the write guard's snapshot of the project's bytes, not the page's text
            return None
        return pages.get(Path(file).resolve()) if isinstance(file, (str, Path)) else None

    def front_matter(text, *args, **kwargs):  # a text that holds the chapter's front matter
        text = text if isinstance(text, str) else ""
        return "ch" if "description: One block." in text else None

    monkeypatch.setenv("JITDOCS_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "docs" / "course").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text(CONFIG)
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n<!-- version-notes -->\n")
    chapter = "---\ndescription: One block.\n---\n\n# Chapter\n\n```python\nprint(2 + 2)\n```\n"
    (tmp_path / "docs" / "course" / "ch.md").write_text(chapter)
    real_open = builtins.open
    monkeypatch.setattr(builtins, "open", spy("read", real_open, opened))
    monkeypatch.setattr(io, "open", spy("read", real_open, opened))
    monkeypatch.setattr(meta, "get_data", spy("front matter", meta.get_data, front_matter))
    monkeypatch.setattr(yaml, "load", spy("front matter", yaml.load, front_matter))
    body = spy("body", parser.parse_page, lambda page, *a, **k: Path(page).stem)
    monkeypatch.setattr(parser, "parse_page", body)
    build_site(load_config(str(tmp_path / "mkdocs.yml")))
    assert sorted(events) == [
        ("body", "ch"),
        ("body", "index"),
        ("front matter", "ch"),
        ("read", "ch"),
        ("read", "index"),
    ]
    assert (tmp_path / "site" / "course" / "ch.ipynb").is_file()  # the notebook was made
    html = (tmp_path / "site" / "course" / "ch" / "index.html").read_text()
    assert "Download this page as a Jupyter notebook" in html and "<code>4" in html
    assert '<meta name="description" content="One block.">' in html  # the one parse reached it


def _garble(path: Path) -> str:
    """Damage a kept file as an interrupted copy or a full disk would; what the build then says."""
    data = path.read_bytes()
    if path.parent.name == "templates":  # Jinja's format: its magic, then a pickled checksum
        from jinja2.bccache import bc_magic

        path.write_bytes(bc_magic + b"\x00not a pickle")
        return "discarded the corrupt kept file"
    path.write_bytes(data[: len(data) // 2] + b"\xff")  # truncated, and no longer UTF-8
    return f"discarded the corrupt kept file {path}"


@tiers.only_when_changed(*BUILD)  # the engine's own behaviour: no page can change it
def test_a_corrupt_kept_file_is_discarded_and_the_next_build_recovers(tmp_path):
    """Each kind of file a build keeps under .cache, all damaged before one build: the strict
    build passes, makes the same page, and says in one line per file that it discarded it.
    (Damaged together rather than in turn, one build instead of one per kind: a damaged file
    the build did not read, or did not discard, would leave its line out.)"""
    page = '# Demo\n\n```python\nprint("\\x1b[31mred\\x1b[0m", sum(range(4)))\n```\n'
    done, html = build_one_page(tmp_path, page)
    assert done.returncode == 0, done.stderr
    shown = html.read_text()
    cache = tmp_path / ".cache" / "jitdocs"
    kinds = sorted(cache.glob("*.json")) + sorted((cache / "templates").iterdir())[:1]
    names = {path.name for path in kinds}
    assert {"rendered-pages.json", "search-entries.json", "docs__index.md.json"} <= names
    assert len(kinds) >= 4
    said = {path: _garble(path) for path in kinds}
    done = mkdocs_build(tmp_path)
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if "discarded the corrupt kept file" in line]
    assert len(notes) == len(kinds), done.stderr
    for path, note in said.items():
        assert sum(note in line for line in notes) == (1 if str(path) in note else len(kinds)), (
            f"{path.name}: {done.stderr}"
        )
    assert produced_at_masked(html.read_text()) == produced_at_masked(shown)


def produced_at_masked(html: str) -> str:
    """The page without the minute its outputs were produced: the page whose run was discarded
    runs again, maybe in the next minute."""
    return re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC", "<produced>", html)
