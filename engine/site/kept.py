"""What a build's slow pure conversions made, kept for the next build.

Four conversions of a page are pure functions of it and of their own code: a coloured output's
HTML (``to_html``: nbconvert draws it, and importing nbconvert cost every
warm rebuild about 0.3 s), a page's sections (``engine.site.sections.wrap_sections``, about
0.3 s a build), its entries in Material's search index (``keep_search_entries``, about 0.6 s)
and its highlighted code (``keep_highlighted_code``, about 0.5 s). A ``Kept`` conversion stores
what it made this build, by a digest of its input and under a key of the converter
(``converter_key``: the module's code, Python and the installed distributions); the next build
converts only an input it has not seen with that key. The theme's compiled templates are kept
by Jinja's own bytecode cache (``Conversions.templates``).
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Callable
from pathlib import Path

import pygments
import pymdownx.highlight
from jinja2 import FileSystemBytecodeCache

from engine.run.environment import installed_distributions
from engine.run.files import discard, read_kept, write_if_changed
from engine.site import sections

COLOURS = "coloured-outputs.json"  # in the page cache's folder
SECTIONS = "sections.json"
SEARCH = "search-entries.json"
SEARCH_PLUGIN = "material/search"
TEMPLATES = "templates"  # the theme's templates, compiled by Jinja
HIGHLIGHTS = "highlighted-code.json"


def converter_key(module: Path) -> str:
    """What a conversion depends on besides its input: its module's code, Python's version and
    the installed distributions (for to_html, nbconvert's version)."""
    return hashlib.sha256(module.read_bytes() + b"\0" + installed_distributions()).hexdigest()


def _kept_conversions(stored: dict) -> bool:
    made = stored.get("made")
    return isinstance(made, dict) and all(isinstance(v, str) for v in made.values())


class Kept:
    """``convert``'s results, stored in ``path`` (none: not kept) and read from it unless
    ``fresh``. ``conversions`` counts the inputs this build converted."""

    def __init__(self, convert: Callable[[str], str], key: str, path=None, fresh=False) -> None:
        self.convert, self.key, self.path = convert, key, path
        stored = read_kept(path, _kept_conversions) if path and not fresh else {}
        self.known: dict[str, str] = stored.get("made", {}) if stored.get("key") == key else {}
        self.used: dict[str, str] = {}  # what this build used: the next one keeps only that
        self.conversions = 0

    def __call__(self, text: str, convert: Callable[[str], str] | None = None) -> str:
        digest = hashlib.sha256(text.encode()).hexdigest()
        if digest not in self.known:
            self.known[digest] = (convert or self.convert)(text)
            self.conversions += 1
        self.used[digest] = self.known[digest]
        return self.used[digest]

    def save(self) -> None:
        if self.path:
            data = {"key": self.key, "made": self.used}
            write_if_changed(self.path, json.dumps(data, sort_keys=True, ensure_ascii=False))


def to_html(text: str) -> str:
    """Escaped HTML of an output (``engine.run.terminal.clean``), colour codes as nbconvert's
    ``ansi-*`` classes (the same converter and classes as the notebook view)."""
    from nbconvert.filters.ansi import ansi2html

    return str(ansi2html(text))


def coloured_outputs(cache_dir: Path | None = None, fresh: bool = False) -> Kept:
    """A coloured output's HTML (``to_html``), kept in ``cache_dir``."""
    path = cache_dir / COLOURS if cache_dir else None
    return Kept(to_html, converter_key(Path(__file__)), path, fresh)


def wrapped_sections(cache_dir: Path | None = None, fresh: bool = False) -> Kept:
    """A page's HTML wrapped in sections (``wrap_sections``), kept in ``cache_dir``."""
    path = cache_dir / SECTIONS if cache_dir else None
    return Kept(sections.wrap_sections, converter_key(Path(sections.__file__)), path, fresh)


def page_for_search(page, index_config: dict) -> str:
    """Everything Material's ``SearchIndex.add_entry_from_context`` reads: the page's HTML,
    address, title, front matter and table of contents, and the index's options."""
    material = {
        "content": page.content,
        "url": page.url,
        "title": page.title,
        "meta": page.meta,
        "toc": toc_tokens(page.toc.items),
        "options": index_config,
    }
    return json.dumps(material, sort_keys=True, default=str)


def toc_tokens(items) -> list[dict]:
    """A table of contents back as the tokens ``get_toc`` takes."""
    return [
        {"level": i.level, "id": i.id, "name": i.title, "children": toc_tokens(i.children)}
        for i in items
    ]


def keep_search_entries(config, cache_dir: Path | None = None, fresh: bool = False) -> Kept | None:
    """Material's search plugin parses every page's HTML again each build, and has no hook to
    keep its entries; so this, the one place that reaches into it, wraps its index's
    ``add_entry_from_context`` (tests/test_kept.py fails if that changes). A page the index saw
    before, with its options, gets the entries it made then. Not with a Chinese user
    dictionary (jieba_dict*): that file is not in the key."""
    plugin = config.plugins.get(SEARCH_PLUGIN)
    if plugin is None or not plugin.config.enabled:
        return None
    index = plugin.search_index
    if index.config.get("jieba_dict") or index.config.get("jieba_dict_user"):
        return None
    add_entries = index.add_entry_from_context
    path = cache_dir / SEARCH if cache_dir else None
    kept = Kept(None, converter_key(Path(inspect.getfile(type(plugin)))), path, fresh)

    def add_kept_entries(page) -> None:
        def add(_) -> str:  # Material's entries for the page, taken back out to be added once
            before = len(index.entries)
            add_entries(page)
            made = index.entries[before:]
            del index.entries[before:]
            return json.dumps(made)

        index.entries.extend(json.loads(kept(page_for_search(page, index.config), add)))

    index.add_entry_from_context = add_kept_entries
    return kept


def keep_highlighted_code(cache_dir: Path | None = None, fresh: bool = False) -> Kept:
    """pymdownx.highlight has Pygments lex and format every fence again each build, and has no
    hook to keep the result; so this, the one place that reaches into it, replaces the Pygments
    ``highlight`` it calls (tests/test_kept.py fails if it stops calling it) with one that serves
    a fence highlighted before with the same lexer and formatter classes and options (the
    formatter's options hold the title, line numbers and style). A lexer with filters is not
    kept: they are not options."""
    path = cache_dir / HIGHLIGHTS if cache_dir else None
    kept = Kept(None, converter_key(Path(pymdownx.highlight.__file__)), path, fresh)

    def highlight(code, lexer, formatter, outfile=None):
        if outfile is not None or lexer.filters:
            return pygments.highlight(code, lexer, formatter, outfile)
        classes = [f"{type(o).__module__}.{type(o).__qualname__}" for o in (lexer, formatter)]
        material = [code, classes, lexer.options, formatter.options]
        text = json.dumps(material, sort_keys=True, default=repr)
        return kept(text, lambda _: pygments.highlight(code, lexer, formatter))

    pymdownx.highlight.highlight = highlight
    return kept


class KeptBytecodeCache(FileSystemBytecodeCache):
    """Jinja's own cache, reading nothing back on a fresh build (it only stores), and discarding
    a truncated or garbled file: Jinja checks the format, but unpickles the checksum unguarded."""

    def __init__(self, folder: str, fresh: bool) -> None:
        super().__init__(folder)
        self.fresh = fresh

    def load_bytecode(self, bucket) -> None:
        if self.fresh:
            return
        try:
            super().load_bytecode(bucket)
        except Exception as error:  # unpickling garbage raises many kinds
            bucket.reset()
            discard(Path(self._get_cache_filename(bucket)), type(error).__name__)


class Conversions:
    """A build's kept conversions (the search entries and code only with the mkdocs ``config``,
    for a build), each stored when the build ends."""

    def __init__(self, cache_dir: Path | None = None, fresh: bool = False, config=None) -> None:
        self.cache_dir, self.fresh = cache_dir, fresh
        self.colours = coloured_outputs(cache_dir, fresh)
        self.sections = wrapped_sections(cache_dir, fresh)
        self.search = keep_search_entries(config, cache_dir, fresh) if config else None
        self.code = keep_highlighted_code(cache_dir, fresh) if config else None

    def templates(self, env):
        """The theme's Jinja environment, with the templates compiled by an earlier build (about
        0.4 s a build): Jinja's own bytecode cache, which checks each template's source and the
        bytecode's format and Python. A fresh build compiles them all, and stores them."""
        if self.cache_dir:
            folder = self.cache_dir / TEMPLATES
            folder.mkdir(parents=True, exist_ok=True)
            env.bytecode_cache = KeptBytecodeCache(str(folder), self.fresh)
        return env

    def save(self) -> None:
        for kept in (self.colours, self.sections, self.search, self.code):
            if kept:
                kept.save()
