"""The search's section vectors (engine/site/search_vectors.py, issue #72): a page's sections as
Material's index makes them, their vectors, and the learners' questions filed under the section
they link."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest

from engine.site import search_vectors

pytestmark = pytest.mark.unit

ROOT = Path(__file__).parent.parent
PAGE = """# Loops

The opening says what the page is about.

## Why a loop compiles slowly { #slow-loops }

```python
# a comment in code is no heading
for i in range(3):
    pass
```

### Static `argnums`

Text of a section without an id of its own.
"""


def test_a_page_comes_apart_into_the_index_entries():
    found = search_vectors.sections("docs/course/loops.md", PAGE, "Loops")
    assert list(found) == [
        "course/loops/",
        "course/loops/#slow-loops",
        "course/loops/#static-argnums",
    ]
    assert "opening" in found["course/loops/"]
    assert "a comment in code is no heading" in found["course/loops/#slow-loops"]
    assert found["course/loops/#static-argnums"].split()[:3] == ["Loops", "Static", "argnums"]


def read(data: str) -> tuple[list[str], np.ndarray]:
    decoded = json.loads(data)
    vectors = np.frombuffer(base64.b64decode(decoded["vectors"]), np.int8)
    return decoded["locations"], vectors.reshape(len(decoded["locations"]), -1) / 127


def test_each_section_and_question_gets_a_unit_vector_and_like_text_lies_close():
    texts = {
        "a/": "caching compiled functions between runs",
        "b/": "plotting a bar chart of timings",
        "c/": "random keys and seeds",
    }
    asked = [("c/", "how do I seed the random number generator")]
    locations, vectors = read(search_vectors.build(ROOT, texts, asked))
    assert locations == ["a/", "b/", "c/", "c/"]
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=0.03)
    similar = vectors[3] @ vectors.T  # the question, against each section
    assert similar[2] == max(similar[:3])


def test_a_sections_first_tokens_are_those_of_its_whole_text():
    tokenizer = search_vectors.WordPiece(search_vectors.read_vocab(ROOT / search_vectors.VOCAB))
    long_words = "supercalifragilistic " * 100  # 21 characters, 6 tokens a word
    for text in (long_words, "x" * 2000, "jit " * 2000, "a b " + "é" * 999 + " c"):
        assert search_vectors.first_tokens(tokenizer, text) == tokenizer.encode(text)[:30]
