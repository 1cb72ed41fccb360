"""Recall's absolute relevance: the chance that a candidate is evidence for the question, in [0, 1].

The fusion and the second stage order the candidates of one question; their figures mean nothing across
questions (the best one is always the best). A question nothing in the profile answers ("What car do I
drive?" of a profile that never spoke of cars) still has a best candidate. Here each returned candidate
is judged on an absolute scale, from what the ranking already saw:

* **coverage**: the share of the question's weight (the IDF of its terms within the profile, counted
  against at least `MIN_ROWS`) that the memory or its source turns hold, and that the memory's own text
  holds;
* **known**: the share of the question's weight whose terms occur in the profile at all. "What is my
  cat called?" of a profile that only knows a dog asks about something the profile never mentions;
* **related**: the share the memory holds in other words (`app.recall.related_words`);
* **cosine**: the question's similarity with the memory, and the best similarity in the profile, on the
  embedder's own scale (not a rank), when the semantic channel ran;
* **window**: the question names a time and the memory lies inside it;
* **agreement**, **answer type**, **off speaker** and **the agent's own words**, as the second stage
  reads them (`app.recall.rerank`), and the candidate's place in the ranking.

Two small logistic models turn these into a probability. `ANSWERABILITY` reads the question as a whole
(the signals above of its best candidates, and whether it says nothing a memory could answer — small
talk, by the extractor's own rules — or speaks of no one, as a question of general knowledge does): the
chance that anything in the profile answers it. `EVIDENCE` reads one candidate: the chance that it
answers the question if the question is answerable at all. A candidate's score is their product, the
chance that it is evidence for the question. Both are fitted on the development sets, answerable
questions and questions written to be unanswerable, with the semantic channel on and off, at every
`thinkingLevel`, by `python -m bench fit-relevance`, which prints their calibration and the weights
below. No LLM, no database work: two dot products.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.recall.repository import Candidate
from app.recall.rerank import FEATURES as RERANK_FEATURES
from app.recall.rerank import Features as RerankFeatures

# A candidate's features, in the order of the candidate model's weights.
FEATURES = (
    "coverage",
    "memory_coverage",
    "known",
    "related",
    "cosine",
    "best_cosine",
    "no_vector",
    "window",
    "agree",
    "answer_type",
    "off_speaker",
    "by_agent",
    "rank_score",
    "top",
)
# The candidate features the question's answerability reads of its best-ranked candidate and of the best
# value among its candidates.
_SUMMARISED = ("coverage", "memory_coverage", "related", "cosine", "agree", "answer_type", "window")
# The question's features, in the order of the answerability model's weights.
QUESTION_FEATURES = (
    "known",
    "best_cosine",
    "no_vector",
    "cosine_spread",
    "says_nothing",
    "refers_to_someone",
    *(f"top_{name}" for name in _SUMMARISED),
    *(f"max_{name}" for name in _SUMMARISED),
)
_AT = {name: i for i, name in enumerate(FEATURES)}
_RERANK = {name: i for i, name in enumerate(RERANK_FEATURES)}


@dataclass(frozen=True)
class Model:
    """A logistic model: `intercept` + Σ weight × feature, through the logistic function."""

    names: tuple[str, ...]
    intercept: float
    weights: tuple[float, ...]  # in the order of `names`

    @classmethod
    def fitted(cls, names: tuple[str, ...], intercept: float, weights: Mapping[str, float]) -> Model:
        """The model with `weights` by feature name (as `python -m bench fit-relevance` prints them)."""
        if tuple(weights) != names:
            raise ValueError(f"weights for {tuple(weights)}, features {names}")
        return cls(names, intercept, tuple(weights.values()))

    def probability(self, values: Sequence[float]) -> float:
        z = self.intercept + sum(w * v for w, v in zip(self.weights, values, strict=True))
        # Clamped: exp() of a large negative z overflows, and no feature should push past certainty.
        return 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))

    def contributions(self, values: Sequence[float]) -> list[tuple[str, float, float]]:
        """Each feature's (name, value, weight), for the trace."""
        return [(name, v, w) for name, v, w in zip(self.names, values, self.weights, strict=True)]


# Fitted by `python -m bench fit-relevance` on every development set pooled (see docs/benchmarks.md).
# The chance that the question is answered by some memory of the profile (its answerability), and the
# chance that a candidate answers it when it is answerable: a candidate's score is their product.
ANSWERABILITY = Model.fitted(
    QUESTION_FEATURES,
    -8.9921,
    {
        "known": 2.1944,
        "best_cosine": 2.0617,
        "no_vector": 6.2122,
        "cosine_spread": 1.9706,
        "says_nothing": -4.8863,
        "refers_to_someone": 1.2972,
        "top_coverage": 0.7349,
        "top_memory_coverage": 0.5063,
        "top_related": 1.5145,
        "top_cosine": 2.9389,
        "top_agree": 0.3414,
        "top_answer_type": 0.3129,
        "top_window": 0.7171,
        "max_coverage": 0.1755,
        "max_memory_coverage": -1.3161,
        "max_related": 0.1998,
        "max_cosine": 2.0234,
        "max_agree": 2.4266,
        "max_answer_type": 0.4041,
        "max_window": 1.4865,
    },
)
EVIDENCE = Model.fitted(
    FEATURES,
    -8.5570,
    {
        "coverage": 2.5609,
        "memory_coverage": -0.5326,
        "known": -0.7906,
        "related": 0.9574,
        "cosine": 7.2653,
        "best_cosine": -2.0637,
        "no_vector": 4.2427,
        "window": 0.3704,
        "agree": 0.8780,
        "answer_type": 0.1953,
        "off_speaker": -1.7845,
        "by_agent": -0.6025,
        "rank_score": 2.4381,
        "top": 0.8251,
    },
)


# The score of a memory a question asks for by its time or its type alone ("What did I do yesterday?",
# "What's on my to-do list?"): the window's or the type's memories are what it asks for, whatever words
# they hold. The development sets hold almost no such questions to fit it on.
LED = 0.9


# The rows a term's rarity is counted against, at least: in a profile of three memories a word two of them
# hold weighs almost nothing and one none holds weighs everything, so the share of the question a memory
# holds would depend on the profile's size. Counted against at least this many rows, a term one memory
# holds weighs nearly what an unknown one does, as in a large profile.
MIN_ROWS = 1000


@dataclass(frozen=True)
class Question:
    """What the relevance of a question's candidates needs to know about the question and the profile."""

    weights: Mapping[str, float]  # the question's own terms (not the names of speakers) → IDF (MIN_ROWS)
    df: Mapping[str, int]  # memories of the profile holding each term
    similar: Mapping[str, float] | None  # memory → the question's similarity (None: no semantic channel)
    in_window: frozenset[str] | None  # memories inside the question's time window (None: it names none)


def _question_signals(question: Question) -> tuple[float, float, float]:
    """(known, best_cosine, no_vector) of the question."""
    total = sum(question.weights.values())
    known = (
        sum(w for t, w in question.weights.items() if question.df.get(t, 0) > 0) / total if total > 0 else 0.0
    )
    similar = question.similar
    best = max(similar.values(), default=0.0) if similar else 0.0
    return known, best, 0.0 if similar else 1.0


def features(
    question: Question,
    ranked: Sequence[str],
    rows: Mapping[str, Candidate],
    seen: Mapping[str, RerankFeatures],
    rank_scores: Mapping[str, float],
) -> dict[str, tuple[float, ...]]:
    """Each ranked candidate's features, in the order of FEATURES. `seen`: the second stage's features of
    each (`rerank.features`); `rank_scores`: its ranking score relative to the best (1 for the best)."""
    known, best_cosine, no_vector = _question_signals(question)
    total = sum(question.weights.values())
    similar = question.similar or {}
    # A memory the semantic channel did not return is at most as close as the last one it did.
    floor = min(similar.values(), default=0.0)
    out: dict[str, tuple[float, ...]] = {}
    for place, memory_id in enumerate(ranked):
        row = rows[memory_id]
        f = seen[memory_id]
        own = sum(question.weights.get(t, 0.0) for t in set(row.memory_terms)) / total if total > 0 else 0.0
        held = set(row.memory_terms) | set(row.message_terms)
        everywhere = sum(question.weights.get(t, 0.0) for t in held) / total if total > 0 else 0.0
        out[memory_id] = (
            everywhere,
            own,
            known,
            f.values[_RERANK["related"]],
            similar.get(memory_id, floor),
            best_cosine,
            no_vector,
            1.0 if question.in_window is not None and memory_id in question.in_window else 0.0,
            f.values[_RERANK["agree"]],
            f.values[_RERANK["answer_type"]],
            1.0 if f.off_speaker else 0.0,
            1.0 if f.by_agent else 0.0,
            rank_scores[memory_id],
            1.0 if place == 0 else 0.0,
        )
    return out


def question_features(
    candidates: Sequence[Sequence[float]], *, says_nothing: bool, refers_to_someone: bool
) -> tuple[float, ...]:
    """The question's features, in the order of QUESTION_FEATURES, from its candidates' (`features`, best
    ranked first; at least one) and how the question reads: whether it says nothing a memory could answer
    (small talk), and whether it speaks of a person. None depends on the profile's size or on how many
    terms the question's language splits it into."""
    first = candidates[0]
    cosines = sorted(c[_AT["cosine"]] for c in candidates)
    return (
        first[_AT["known"]],
        first[_AT["best_cosine"]],
        first[_AT["no_vector"]],
        # A question something answers has a memory that stands out from the rest of what was found.
        first[_AT["best_cosine"]] - cosines[len(cosines) // 2],
        1.0 if says_nothing else 0.0,
        1.0 if refers_to_someone else 0.0,
        *(first[_AT[name]] for name in _SUMMARISED),
        *(max(c[_AT[name]] for c in candidates) for name in _SUMMARISED),
    )
