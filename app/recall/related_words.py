"""Related words: the question in other words, for recall's first stage, and how much of a question a
memory answers in other words, for its second stage.

"What dessert did she bring?" shares no word with "Mostly a lemon tart", and "How was Owen injured?" none
with "felt a pop… a sprained ligament": the first stage, which matches lexemes, cannot see them. Here each
question word the memory does not hold itself is compared with the memory's own words through a table of
word vectors (`word_vectors.npz`, built by `bench/build_word_vectors.py` from the all-MiniLM-L6-v2 model,
Apache-2.0: each vocabulary word's embedding as a one-word sentence, reduced to 64 dimensions, int8). A
question word counts by its closest memory word, from nothing at `THRESHOLD` to all of its weight at the
same meaning, and weighs what it weighs in the question (its IDF in the profile). Words that are not in the
table (names, rare or split words) count for nothing, which leaves them to the first stage.

The first stage cannot see a memory that shares no word with the question, so it also searches, at a low
weight, each question word's nearest words in the table (`nearest_words`: "injured" → injury, fractured,
concussion; "meals" → dinner, food, eat): the memory joins the candidates, and the second stage decides.

The table is 1.2 MB on disk, read once per process; one matrix product per recall covers every candidate's words.
No model runs and nothing is stored per memory, so it costs the same with or without semantic embeddings.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Collection, Mapping
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from app.language.speakers import GENERIC_SPEAKERS
from app.language.temporal import CALENDAR_WORDS, PERIOD_WORDS
from app.recall.query import STEMMER
from app.recall.repository import Candidate

TABLE_PATH = Path(__file__).with_name("word_vectors.npz")
DIMENSIONS = 64
# Cosine similarity (in the reduced table) under which two words are taken as unrelated: chosen on the
# development sets with the weight in `rerank` (0.3–0.4 measured alike).
THRESHOLD = 0.35
MIN_LENGTH = 3  # shorter words ("to", "me") only ever relate by accident: left out of the index
# Each question word's nearest words searched in the first stage, and the similarity they need. On the
# development sets, 5 words at 0.6 searched at a quarter of a question word's weight (`recall.service`)
# against none, same run: any@10 +0.4 to +7.5 points on dev_locomo and dev_long (NDCG@10 +1.7 and +7),
# dev_replies even, dev_paraphrase two questions of 106 fewer (NDCG@10 even); more words, a lower bar or
# a weight of 0.5 brought in more noise than answers.
NEAREST_WORDS = 5
NEAREST_SIMILARITY = 0.6
# A capitalised word inside the question is a name: its nearest words are other names, never expanded.
_NAME_RE = re.compile(r"(?<=[^.?!\s])\s+([A-Z][a-z]+)")

# Words are runs of ASCII letters, lower-cased (the table is ASCII words): the UTF-8 bytes with every other
# byte made a space, then split (half the time of a regular expression, on every candidate of a recall).
_LETTERS = bytes(c if 97 <= c <= 122 else c + 32 if 65 <= c <= 90 else 32 for c in range(256))


def _words(text: str) -> list[bytes]:
    return text.encode().translate(_LETTERS).split()


@functools.cache
def _table() -> tuple[dict[bytes, int], NDArray[np.float32]]:
    index, vectors, _ = _loaded()
    return index, vectors


@functools.cache
def _loaded() -> tuple[dict[bytes, int], NDArray[np.float32], list[str]]:
    with np.load(TABLE_PATH) as data:
        words = str(data["words"]).split("\n")
        vectors = data["vectors"].astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = np.vstack([vectors, np.zeros((1, vectors.shape[1]), dtype=np.float32)])  # unknown words
    return {word.encode(): i for i, word in enumerate(words) if len(word) >= MIN_LENGTH}, vectors, words


def nearest_words(text: str, lexemes: Collection[str]) -> list[str]:
    """The stems of the nearest words of the question's words, for the first stage to search: of each word
    of `text` whose stem is one of the question's `lexemes` (so no stopword), the `NEAREST_WORDS` closest
    table words at `NEAREST_SIMILARITY` or more; none of the question's own. Names and time words are not
    expanded: a name's nearest words are other names ("Nadia" → Irina, Natalia), a time's other times
    ("days" → week, Monday), and times are the window channel's to match."""
    index, _ = _table()
    names = {name.lower().encode() for name in _NAME_RE.findall(text)}
    out: dict[str, None] = {}
    for word in dict.fromkeys(_words(text)):
        if word not in index or word in names:
            continue
        stem = STEMMER.stemWord(word.decode())
        if stem in lexemes and stem not in _not_expanded():
            out.update(dict.fromkeys(_nearest(word)))
    return [stem for stem in out if stem not in lexemes]


@functools.cache
def _not_expanded() -> frozenset[str]:
    """The stems of the speakers' generic names ("user") and of the time words."""
    words = {name.lower() for name in GENERIC_SPEAKERS.values()} | CALENDAR_WORDS | PERIOD_WORDS
    return frozenset(STEMMER.stemWord(w) for w in words)


@functools.lru_cache(maxsize=4096)
def _nearest(word: bytes) -> tuple[str, ...]:
    """The stems of the words closest to `word` (a table word), closest first; cached, as questions reuse
    their words."""
    index, vectors, words = _loaded()
    row = index[word]
    similarity = vectors[:-1] @ vectors[row]
    similarity[row] = -1.0
    top = np.argpartition(-similarity, NEAREST_WORDS)[:NEAREST_WORDS]
    ordered = top[np.argsort(-similarity[top])]
    near = [words[j] for j in ordered if similarity[j] >= NEAREST_SIMILARITY and len(words[j]) >= MIN_LENGTH]
    return tuple(dict.fromkeys(STEMMER.stemWord(w) for w in near))


def relatedness(text: str, weights: Mapping[str, float], rows: Mapping[str, Candidate]) -> dict[str, float]:
    """For each candidate in `rows`: the share of the question's weight (`weights`: lexeme → weight, the
    question `text`'s terms that count) that its words hold in other words, 0–1."""
    index, vectors = _table()
    asked = [
        (word, lexeme)
        for word in dict.fromkeys(_words(text))
        if word in index and (lexeme := STEMMER.stemWord(word.decode())) in weights
    ]
    if not asked:
        return {}
    asked_weights = np.array([weights[lexeme] for _, lexeme in asked], dtype=np.float32)
    total = float(asked_weights.sum())
    if total <= 0:
        return {}
    # Every candidate's words laid end to end (a word not in the table is the zero row, related to nothing),
    # compared with the question's in one product, the maximum then taken over each candidate's stretch. A
    # question word the memory holds itself is the first stage's (and specificity's) to count: left out.
    get, unknown = index.get, len(vectors) - 1
    position = {lexeme: k for k, (_, lexeme) in enumerate(asked)}
    ids: list[str] = []
    lengths: list[int] = []
    flat: list[int] = []
    held: tuple[list[int], list[int]] = ([], [])
    for j, (memory_id, row) in enumerate(rows.items()):
        ids.append(memory_id)
        words = _words(row.content)
        flat.extend(map(get, words, itertools.repeat(unknown)) if words else (unknown,))
        lengths.append(len(words) or 1)
        for lexeme in (*row.memory_terms, *row.message_terms):
            if (k := position.get(lexeme)) is not None:
                held[0].append(k)
                held[1].append(j)
    if not ids:
        return {}
    asked_vectors = vectors[[index[word] for word, _ in asked]]
    closeness = asked_vectors @ np.take(vectors, np.array(flat, dtype=np.intp), axis=0).T
    # The maximum first, then the scale (monotone, so the same): on one value a candidate and question word.
    best = np.maximum.reduceat(closeness, np.cumsum([0, *lengths[:-1]]), axis=1)
    best -= THRESHOLD
    best *= 1 / (1 - THRESHOLD)
    np.clip(best, 0.0, 1.0, out=best)
    best[held] = 0.0
    shares = (asked_weights @ best) / total
    return dict(zip(ids, shares.tolist(), strict=True))
