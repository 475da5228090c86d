"""The search's static token table (issue #72): its files, and the tokenizer that indexes it.

`nox -s search_model` writes the table (engine/tools/search_model.py); the build reads it to
embed each section (engine/site/search_vectors.py), and the reader's browser reads the same two
files to embed a query (docs/assets/javascripts/workers/jitdocs-search.js, whose WordPiece
tokenizer is this one in JavaScript; tests/search/test_tokenizer.py holds both to the model's).

The table: the bytes ``JDST``, then the row and column counts (uint32, little-endian), one
float32 scale per column, then the int8 rows, one per vocabulary token, in the vocabulary's order.
"""

from __future__ import annotations

import struct
import unicodedata
from pathlib import Path

import numpy as np

VOCAB = Path("docs/assets/search/vocab.txt")  # one token a line, its id its line number - 1
TABLE = Path("docs/assets/search/tokens.bin")
MAGIC = b"JDST"
UNKNOWN = "[UNK]"
LONGEST_WORD = (
    100  # characters: a longer word is one unknown token, as the model's tokenizer has it
)
CHINESE = [
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
]
ASCII_PUNCTUATION = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def write_table(path: Path, table: np.ndarray, scales: np.ndarray) -> None:
    rows, columns = table.shape
    header = MAGIC + struct.pack("<II", rows, columns) + scales.astype("<f4").tobytes()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + table.astype(np.int8).tobytes())


def read_table(path: Path) -> np.ndarray:
    """The table as float32 rows (each int8 times its column's scale)."""
    data = path.read_bytes()
    if data[:4] != MAGIC:
        raise ValueError(f"{path}: not a token table (run nox -s search_model)")
    rows, columns = struct.unpack("<II", data[4:12])
    scales = np.frombuffer(data, "<f4", columns, 12)
    table = np.frombuffer(data, np.int8, rows * columns, 12 + 4 * columns)
    return table.reshape(rows, columns).astype(np.float32) * scales


def read_vocab(path: Path) -> list[str]:
    return path.read_text("utf-8").splitlines()


class WordPiece:
    """BERT's uncased tokenizer (the model's tokenizer.json: BertNormalizer with lower case and
    accents stripped, BertPreTokenizer, WordPiece with ``##``), without [CLS] and [SEP]."""

    def __init__(self, vocab: list[str]):
        self.ids = {token: i for i, token in enumerate(vocab)}

    def tokens(self, text: str) -> list[str]:
        return [piece for word in words(normalize(text)) for piece in self.pieces(word)]

    def encode(self, text: str) -> list[int]:
        return [self.ids[token] for token in self.tokens(text)]

    def pieces(self, word: str) -> list[str]:
        if len(word) > LONGEST_WORD:
            return [UNKNOWN]
        found, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else f"##{word[start:end]}"
                if piece in self.ids:
                    break
                end -= 1
            if end == start:
                return [UNKNOWN]
            found.append(piece)
            start = end
        return found


def normalize(text: str) -> str:
    """Control characters dropped, white space a space, Chinese characters spaced, accents
    stripped, lower case: BertNormalizer's steps, in its order."""
    kept = []
    for char in text:
        if char in "\0\ufffd" or (char not in "\t\n\r" and unicodedata.category(char)[0] == "C"):
            continue
        if char.isspace():
            char = " "
        kept.append(f" {char} " if any(a <= ord(char) <= b for a, b in CHINESE) else char)
    decomposed = unicodedata.normalize("NFD", "".join(kept))
    return "".join(char.lower() for char in decomposed if unicodedata.category(char) != "Mn")


def words(text: str) -> list[str]:
    """Split at white space, each punctuation character a word of its own."""
    found = []
    for part in text.split():
        word = ""
        for char in part:
            if is_punctuation(char):
                found += [word, char] if word else [char]
                word = ""
            else:
                word += char
        if word:
            found.append(word)
    return found


def is_punctuation(char: str) -> bool:
    return char in ASCII_PUNCTUATION or unicodedata.category(char).startswith("P")
