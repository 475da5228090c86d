"""The search's token table and its tokenizers (engine/run/search_table.py, issue #72): the
build's Python WordPiece and the worker's JavaScript one split text as the model's tokenizer does
(Hugging Face's `tokenizers`, with the model's settings, which `nox -s search_model` checks
against its tokenizer.json), on the site's headings, learners' questions, code and other
scripts; the table reads back as it was written."""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from pathlib import Path

import numpy as np
import pytest
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

from engine.page.syntax import HEADING
from engine.run import search_table
from engine.run.search_table import WordPiece, read_table, read_vocab, write_table

ROOT = Path(__file__).parent.parent
MEANING = ROOT / "docs/assets/javascripts/workers/jitdocs-meaning.js"
# Beyond the site's words: accents, other scripts (Chinese characters split one by one, Greek,
# Cyrillic, Japanese kana), a capital I with a dot, white space and controls of every kind,
# emoji, punctuation outside ASCII, code, an over-long word, an empty string.
OTHERS = [
    "Café naïve résumé Ångström",
    "jit 编译 函数 缓存",
    "Σίσυφος ΣΑΣ",
    "Привет, мир!",
    "テスト ですか",
    "İstanbul ǅemal",
    "tab\there\nnew\rline\u00a0nbsp\u2028sep\u3000wide",
    "zero\u200bwidth\ufeffbom",
    "ctrl\x01\x7f\x9fchars",
    "emoji 🎉🚀 ok",
    "«quoted» — dash… ¿qué?",
    "x\u2264y \u2260 z \u00b1 1 \u00d7 2",
    "jax.jit(f, static_argnums=(0,))(*args, **kw)",
    "f'{x!r:>10}' -> None",
    "a" * 120,
    "recompiling re-tracing ShapedArray(float32[3])",
    "",
    "   ",
    "don't won't can't",
]


def corpus() -> list[str]:
    """A few hundred strings: every heading of the pages, the learners' questions and their
    word forms, lines of the snippets' code, and OTHERS."""
    strings = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        strings += [
            m["text"] for line in page.read_text("utf-8").splitlines() if (m := HEADING.match(line))
        ]
    for data in (ROOT / "docs/data/questions.toml", ROOT / "tests/search/questions.toml"):
        rows = tomllib.loads(data.read_text("utf-8"))["question"]
        strings += [row.get("asked") or row["ask"] for row in rows]
        strings += [form for row in rows for form in row.get("forms", ())]
    for snippet in sorted((ROOT / "snippets").rglob("*.py"))[:20]:
        strings += [line for line in snippet.read_text("utf-8").splitlines()[:10] if line.strip()]
    return [*dict.fromkeys(strings), *OTHERS]


@pytest.fixture(scope="module")
def expected() -> dict[str, list[str]]:
    """Each string's tokens as the model's tokenizer makes them, without [CLS] and [SEP]."""
    vocab = {token: i for i, token in enumerate(read_vocab(ROOT / search_table.VOCAB))}
    model = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=100))
    model.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase=True
    )
    model.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return {text: model.encode(text, add_special_tokens=False).tokens for text in corpus()}


@pytest.mark.unit
def test_the_corpus_is_a_few_hundred_strings_of_many_kinds(expected):
    assert len(expected) >= 300
    assert sum("[UNK]" in tokens for tokens in expected.values()) >= 2  # the emoji, the long word
    assert any(len(tokens) > 20 for tokens in expected.values())


@pytest.mark.unit
def test_the_builds_tokenizer_splits_as_the_models(expected):
    ours = WordPiece(read_vocab(ROOT / search_table.VOCAB))
    differ = {
        text: (ours.tokens(text), tokens)
        for text, tokens in expected.items()
        if ours.tokens(text) != tokens
    }
    assert not differ


def test_the_workers_tokenizer_splits_as_the_models(expected):
    """jitdocs-meaning.js under Node, as the worker loads it, on every string at once."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("the worker's tokenizer is tested under Node.js")
    script = (
        "const vm = require('vm'), fs = require('fs');"
        "const scope = { self: {} }; vm.createContext(scope);"
        f"vm.runInContext(fs.readFileSync({json.dumps(str(MEANING))}, 'utf8'), scope);"
        "const [vocab, texts] = JSON.parse(fs.readFileSync(0, 'utf8'));"
        "const { tokens } = scope.self.jitdocsMeaning.tokenizer(vocab);"
        "process.stdout.write(JSON.stringify(texts.map(tokens)));"
    )
    vocab = read_vocab(ROOT / search_table.VOCAB)
    texts = list(expected)
    done = subprocess.run(
        [node, "-e", script],
        input=json.dumps([vocab, texts]),
        capture_output=True,
        text=True,
        check=True,
    )
    found = dict(zip(texts, json.loads(done.stdout), strict=True))
    differ = {
        text: (found[text], tokens) for text, tokens in expected.items() if found[text] != tokens
    }
    assert not differ


@pytest.mark.unit
def test_the_table_reads_back_as_written(tmp_path):
    table = np.array([[127, -127, 0], [1, -2, 3]], np.int8)
    scales = np.array([0.5, 0.25, 2.0], np.float32)
    write_table(tmp_path / "t.bin", table, scales)
    assert np.array_equal(read_table(tmp_path / "t.bin"), table * scales)
    (tmp_path / "bad.bin").write_bytes(b"NOPE" + bytes(8))
    with pytest.raises(ValueError, match="not a token table"):
        read_table(tmp_path / "bad.bin")


@pytest.mark.unit
def test_the_committed_table_has_a_row_for_every_token():
    vocab = read_vocab(ROOT / search_table.VOCAB)
    table = read_table(ROOT / search_table.TABLE)
    assert table.shape[0] == len(vocab) == 30522 and vocab[100] == "[UNK]"
    assert 64 <= table.shape[1] <= 128
    assert np.abs(table).sum(1).min() > 0  # no token left without a vector
