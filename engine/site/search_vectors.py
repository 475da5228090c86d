"""The search's section vectors (issue #72): each section of the site, and each question of the
"Questions people ask" page, embedded with the static token table, for the search worker's
semantic ranking (docs/assets/javascripts/workers/jitdocs-search.js, which embeds a query the
same way and loads this file on the first search only).

A section is what Material's search index makes an entry of: a page's opening (before its first
heading below the title) and each heading with what follows it, up to the next heading. Its
vector is the mean of the vectors of its first tokens (the page title, the heading, the opening
words), each weighted by its inverse document frequency over the sections, so words every
section holds ("the", "jit") weigh little. A question of the data file gets a vector of its
own, filed under the section it links to: a reader's words, as a learner put them, reach it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
from collections import Counter
from pathlib import Path

import numpy as np

from engine.page.syntax import HEADING, fence_end
from engine.run import search_table
from engine.run.search_table import TABLE, VOCAB, WordPiece, read_table, read_vocab
from engine.site import questions
from engine.site.notebooks import page_url

URI = "assets/search/sections.json"
# A section's first 30 tokens: its title, heading and opening say what it answers; the whole
# text, code and outputs drowned that (measured on the tuning suite, questions.toml, each
# question's answer ranked by meaning alone: the first result answers 36 of 110 with every
# token, 46 with 200, 61 with 80, 62 with 30, 64 with 20, but fused with the site's ranking
# 30 and 40 lose no question the site's ranking answers, 20 loses three).
SECTION_TOKENS = 30
OPENING = 1000  # characters: enough for 30 tokens of prose or code
MARKUP = re.compile(r"<!--.*?-->|<[^>]+>|\{[:#.][^}]*\}|[*_`#>|]+|\]\([^)]*\)", re.S)


def sections(path: str, markdown: str, title: str) -> dict[str, str]:
    """The page's search entries' text, by location, from its rendered Markdown."""
    url = page_url(path.removeprefix("docs/"))
    found = {url: [title]}
    at = url
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        if end := fence_end(lines, i):  # code is text, and a `#` line in it no heading
            found[at] += lines[i + 1 : end - 1]
            i = end
            continue
        if HEADING.match(lines[i]) and not lines[i].startswith("# "):
            at = f"{url}#{questions.line_ids(lines[i])[0]}"
            found[at] = [title]
        found[at].append(lines[i])
        i += 1
    return {location: MARKUP.sub(" ", "\n".join(text)) for location, text in found.items()}


def idf(documents: list[list[int]], size: int) -> np.ndarray:
    """Each token's log inverse document frequency; a token no section holds gets the most."""
    counts = Counter(token for document in documents for token in set(document))
    weights = np.full(size, math.log(len(documents) + 1), np.float32)
    for token, count in counts.items():
        weights[token] = math.log((len(documents) + 1) / (count + 1))
    return weights


def embed(tokens: list[int], table: np.ndarray, weights: np.ndarray) -> np.ndarray:
    if not tokens:
        return np.zeros(table.shape[1], np.float32)
    vector = (table[tokens] * weights[tokens, None]).sum(0)
    norm = np.linalg.norm(vector)
    return vector / norm if norm else vector


def first_tokens(tokenizer: WordPiece, text: str, count: int = SECTION_TOKENS) -> list[int]:
    """The text's first ``count`` tokens, from its opening alone when that holds them: cut at a
    space, which ends a word, so those are the whole text's first tokens (a section's whole text
    took most of the build's second for these vectors)."""
    if len(text) > OPENING:
        tokens = tokenizer.encode(text[:OPENING].rsplit(" ", 1)[0])
        if len(tokens) >= count:
            return tokens[:count]
    return tokenizer.encode(text)[:count]


def build(root: Path, texts: dict[str, str], asked: list[tuple[str, str]]) -> str:
    """The file the worker loads: every section's vector, then every question's, as int8 rows
    (unit vectors times 127) in base64, each row's location beside it, and the token weights
    the query takes (those that differ from an unseen token's)."""
    table, vocab = read_table(root / TABLE), read_vocab(root / VOCAB)
    tokenizer = WordPiece(vocab)
    # in order of location, so that both builders write the same file
    encoded = {location: first_tokens(tokenizer, texts[location]) for location in sorted(texts)}
    weights = idf(list(encoded.values()), len(vocab))
    rows = [(location, tokens) for location, tokens in encoded.items()]
    rows += [(location, tokenizer.encode(text)) for location, text in asked]
    vectors = np.stack([embed(tokens, table, weights) for _, tokens in rows])
    quantized = np.round(vectors * 127).astype(np.int8)
    unseen = float(weights.max())
    data = {
        "dimensions": table.shape[1],
        "locations": [location for location, _ in rows],
        "vectors": base64.b64encode(quantized.tobytes()).decode(),
        "unseen": unseen,
        "weights": {str(i): round(float(w), 3) for i, w in enumerate(weights) if w != unseen},
    }
    return json.dumps(data, separators=(",", ":"))


def site_vectors(site) -> str:
    """``build`` for the site's pages (as the extension renders them, with their outputs),
    without those the search leaves out, and the questions of the data file."""
    texts: dict[str, str] = {}
    for path, page in site.pages.items():
        if not (page.meta.get("search") or {}).get("exclude"):
            texts |= sections(path, site.markdown(path), page.title)
    asked = []
    rows = questions.load(site.root) if (site.root / questions.DATA).is_file() else []
    for row in rows:
        page, _, anchor = row["answer"].partition("#")
        asked.append((f"{page_url(page)}#{anchor}", row["asked"]))
    # kept between builds (a warm rebuild has 3 s), by what the vectors are made of
    made_of = [texts, asked, table_digest(site.root), np.__version__]
    return site.kept.vectors(json.dumps(made_of), lambda _: build(site.root, texts, asked))


def table_digest(root: Path) -> str:
    """The token table, its vocabulary and the tokenizer's code."""
    digest = hashlib.sha256()
    for path in (root / TABLE, root / VOCAB, Path(search_table.__file__)):
        digest.update(path.read_bytes())
    return digest.hexdigest()
