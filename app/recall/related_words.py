"""Related words: how much of a question a memory answers in other words, for recall's second stage.

"What dessert did she bring?" shares no word with "Mostly a lemon tart", and "How was Owen injured?" none
with "felt a pop… a sprained ligament": the first stage, which matches lexemes, cannot see them. Here each
question word the memory does not hold itself is compared with the memory's own words through a table of
word vectors (`word_vectors.npz`, built by `bench/build_word_vectors.py` from the all-MiniLM-L6-v2 model,
Apache-2.0: each vocabulary word's embedding as a one-word sentence, reduced to 64 dimensions, int8). A
question word counts by its closest memory word, from nothing at `THRESHOLD` to all of its weight at the
same meaning, and weighs what it weighs in the question (its IDF in the profile). Words that are not in the
table (names, rare or split words) count for nothing, which leaves them to the first stage.

The table is 1.4 MB, read once per process; one matrix product per recall covers every candidate's words.
No model runs and nothing is stored per memory, so it costs the same with or without semantic embeddings.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import Stemmer
from numpy.typing import NDArray

from app.recall.repository import Candidate

TABLE_PATH = Path(__file__).with_name("word_vectors.npz")
DIMENSIONS = 64
# Cosine similarity (in the reduced table) under which two words are taken as unrelated: chosen on the
# development sets with the weight in `rerank` (0.3–0.4 measured alike).
THRESHOLD = 0.35
MIN_LENGTH = 3  # shorter words ("to", "me") only ever relate by accident: left out of the index

_WORD_RE = re.compile(r"[a-z]+")
# The question's terms are PostgreSQL's `english` lexemes, which are this Snowball stemmer's stems.
_STEMMER = Stemmer.Stemmer("english")


@functools.cache
def _table() -> tuple[dict[str, int], NDArray[np.float32]]:
    with np.load(TABLE_PATH) as data:
        words = str(data["words"]).split("\n")
        vectors = data["vectors"].astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return {word: i for i, word in enumerate(words) if len(word) >= MIN_LENGTH}, vectors


def relatedness(text: str, weights: Mapping[str, float], rows: Mapping[str, Candidate]) -> dict[str, float]:
    """For each candidate in `rows`: the share of the question's weight (`weights`: lexeme → weight, the
    question `text`'s terms that count) that its words hold in other words, 0–1."""
    index, vectors = _table()
    asked = [
        (word, lexeme)
        for word in dict.fromkeys(_WORD_RE.findall(text.lower()))
        if word in index and (lexeme := _STEMMER.stemWord(word)) in weights
    ]
    if not asked:
        return {}
    asked_weights = np.array([weights[lexeme] for _, lexeme in asked], dtype=np.float32)
    total = float(asked_weights.sum())
    if total <= 0:
        return {}
    words_of: dict[str, set[int]] = {}
    for memory_id, row in rows.items():
        found: set[int | None] = set(map(index.get, set(_WORD_RE.findall(row.content.lower()))))
        found.discard(None)
        if found:
            words_of[memory_id] = found  # type: ignore[assignment]
    if not words_of:
        return {}
    columns = sorted(set().union(*words_of.values()))
    column_of = {word: i for i, word in enumerate(columns)}
    similar = vectors[[index[word] for word, _ in asked]] @ vectors[columns].T
    closeness = np.clip((similar - THRESHOLD) / (1 - THRESHOLD), 0.0, 1.0)
    # Each candidate's closest word per question word, all candidates at once: their columns laid end to
    # end, the maximum taken over each candidate's stretch.
    ids = list(words_of)
    stretches = [[column_of[i] for i in words_of[m]] for m in ids]
    starts = np.cumsum([0] + [len(s) for s in stretches[:-1]])
    best = np.maximum.reduceat(closeness[:, [c for s in stretches for c in s]], starts, axis=1)
    # A question word the memory holds itself is the first stage's (and specificity's) to count.
    held = [set(rows[m].memory_terms) | set(rows[m].message_terms) for m in ids]
    unmatched = np.array([[lexeme not in h for h in held] for _, lexeme in asked], dtype=np.float32)
    shares = (best * unmatched * asked_weights[:, None]).sum(axis=0) / total
    return dict(zip(ids, shares.tolist(), strict=True))
