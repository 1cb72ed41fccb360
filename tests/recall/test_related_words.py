"""The related-words table and feature on their own (recall through HTTP: tests/recall/test_recall.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from app.recall.related_words import DIMENSIONS, _table, nearest_words, relatedness
from app.recall.repository import Candidate


def _candidate(memory_id: str, content: str, held: list[str]) -> Candidate:
    return Candidate(
        memory_id, "fact", content, content, None, None, datetime.now(UTC), [], None, None, held, []
    )


def _nearest(word: str, count: int) -> list[str]:
    index, vectors = _table()
    words = sorted(index, key=index.__getitem__)
    similar = vectors[[index[w] for w in words]] @ vectors[index[word.encode()]]
    return [words[i].decode() for i in np.argsort(-similar)[1 : count + 1]]


def test_the_table_holds_unit_vectors_of_the_vocabulary_words() -> None:
    index, vectors = _table()
    assert len(index) > 20_000 and vectors.shape[1] == DIMENSIONS
    assert np.allclose(np.linalg.norm(vectors[:-1], axis=1), 1.0, atol=1e-5)
    assert not vectors[-1].any()  # the row of every word not in the table: related to nothing
    assert {"color", "colours"} <= set(_nearest("colour", 5))
    assert "injury" in _nearest("injured", 3)


def test_a_memory_holding_a_related_word_gets_the_question_words_weight() -> None:
    weights = {"dessert": 3.0, "parti": 1.0}
    rows = {
        "pie": _candidate("pie", "I baked an apple pie for the party.", ["parti"]),
        "camera": _candidate("camera", "I brought my camera to the party.", ["parti"]),
        "same": _candidate("same", "The dessert was gone by nine.", ["dessert"]),
    }
    shares = relatedness("What dessert did she bring to the party?", weights, rows)
    assert shares["pie"] > 0.25  # "pie" is close to "dessert", which is three quarters of the weight
    assert shares.get("camera", 0.0) == 0.0
    # A word the memory holds itself is the first stage's to count, not counted again here.
    assert shares.get("same", 0.0) == 0.0


def test_nothing_to_relate_gives_nothing() -> None:
    rows = {"a": _candidate("a", "Lovely weather today.", [])}
    assert relatedness("Who is Zxqv?", {"zxqv": 1.0}, rows) == {}
    assert relatedness("What dessert?", {"dessert": 1.0}, {}) == {}


def test_the_question_words_nearest_words_are_searched_but_not_its_own_names_or_stopwords() -> None:
    # The question's lexemes as PostgreSQL makes them (stopwords out): only those words are expanded.
    stems = nearest_words("How was Owen injured in March?", {"owen", "injur", "march"})
    assert "fractur" in stems  # "fractured", close to "injured"
    assert "injur" not in stems  # the question's own lexeme is searched already
    # "Owen" is a name (capitalised inside the question): other names are not what it means.
    assert not nearest_words("How was Owen?", {"owen"})
    assert not nearest_words("How was it?", set())  # no lexeme, nothing to expand
    # Time words are the window channel's ("days" → week, Monday); "user" is how a speaker is called.
    assert not nearest_words("What did the user do these days?", {"user", "day"})
