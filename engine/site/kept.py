"""What a build's slow pure conversions made (the page renders are most of a warm build), kept
for the next build; MAINTAINERS.md's engine table lists what is kept. A ``Kept`` conversion
stores what it made by a digest of its input, under its converter's key (``converter_key``);
the next build converts only an input it has not seen with that key.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Callable
from pathlib import Path

from jinja2 import FileSystemBytecodeCache

from engine.run.environment import renderer_distributions
from engine.run.files import discard, read_kept, write_if_changed

PAGES = "rendered-pages.json"  # in the page cache's folder
SEARCH = "search-entries.json"
VECTORS = "search-vectors.json"  # the search's section vectors (search_vectors.py)
SEARCH_PLUGIN = "material/search"
TEMPLATES = "templates"  # the theme's templates, compiled by Jinja


# The distributions whose code makes what is kept: MkDocs and Python-Markdown render the pages
# with the extensions mkdocs.yml names (pymdown-extensions'), Material's search plugin makes the
# search entries, mkdocs-jupyter and nbconvert the notebook views. With everything they require,
# and the plugins their groups find (a Pygments lexer or style, a Markdown extension, an MkDocs
# theme), installed by whatever distribution: nothing else installed changes their output, so the
# docs venv and the tests venv (the same locked versions, with pytest and more beside) share it.
# tests/test_kept_imports.py checks that the conversions import nothing outside the key.
RENDERERS = (
    "mkdocs",
    "markdown",
    "pymdown-extensions",
    "mkdocs-material",
    "mkdocs-jupyter",
    "nbconvert",
)
PLUGIN_GROUPS = ("pygments.", "markdown.", "mkdocs.", "nbconvert.")  # entry point groups


def converter_key(*modules: Path) -> str:
    """What a conversion depends on besides its input: its modules' code, Python's version and
    the renderers' distributions (``RENDERERS``, ``PLUGIN_GROUPS``)."""
    code = b"\0".join(module.read_bytes() for module in modules)
    installed = renderer_distributions(RENDERERS, PLUGIN_GROUPS)
    return hashlib.sha256(code + b"\0" + installed).hexdigest()


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

    def kept(self, text: str) -> str | None:
        """What an earlier conversion made of ``text``, if it is kept (else None)."""
        return self.known.get(hashlib.sha256(text.encode()).hexdigest())

    def forget(self, text: str) -> None:
        digest = hashlib.sha256(text.encode()).hexdigest()
        self.known.pop(digest, None), self.used.pop(digest, None)

    def save(self) -> None:
        if self.path:
            data = {"key": self.key, "made": self.used}
            write_if_changed(self.path, json.dumps(data, sort_keys=True, ensure_ascii=False))


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

        # everything add_entry_from_context reads, and the index's options
        material = {
            "content": page.content,
            "url": page.url,
            "title": page.title,
            "meta": page.meta,
            "toc": toc_tokens(page.toc.items),
            "options": index.config,
        }
        material = json.dumps(material, sort_keys=True, default=str)
        index.entries.extend(json.loads(kept(material, add)))

    index.add_entry_from_context = add_kept_entries
    return kept


class KeptBytecodeCache(FileSystemBytecodeCache):
    """Jinja's own cache, discarding a truncated or garbled file: Jinja checks the format, but
    unpickles the checksum unguarded."""

    def load_bytecode(self, bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception as error:  # unpickling garbage raises many kinds
            bucket.reset()
            discard(Path(self._get_cache_filename(bucket)), type(error).__name__)


class Conversions:
    """A build's kept conversions (the search entries only with the mkdocs ``config``), each
    stored when the build ends."""

    def __init__(self, cache_dir: Path | None = None, fresh: bool = False, config=None) -> None:
        self.cache_dir, self.fresh = cache_dir, fresh
        renderer = converter_key(*sorted(Path(__file__).parent.glob("*.py")))  # engine/site
        self.pages = Kept(None, renderer, cache_dir / PAGES if cache_dir else None, fresh)
        self.search = keep_search_entries(config, cache_dir, fresh) if config else None
        self.vectors = Kept(None, renderer, cache_dir / VECTORS if cache_dir else None, fresh)

    def templates(self, env):
        """The theme's Jinja environment, with the templates compiled by an earlier build (about
        0.4 s a build): Jinja's own bytecode cache, which checks each template's source and the
        bytecode's format and Python. A fresh build compiles them all, and stores them."""
        if self.cache_dir:
            folder = self.cache_dir / TEMPLATES
            folder.mkdir(parents=True, exist_ok=True)
            env.bytecode_cache = KeptBytecodeCache(str(folder))
            if self.fresh:
                env.bytecode_cache.clear()
        return env

    def save(self) -> None:
        for kept in (self.pages, self.search, self.vectors):
            if kept:
                kept.save()
