"""Recall's trace (`trace: true`): why each candidate ranked where it did, and where the time went.

The trace observes the ranking and changes nothing in it: the stages only call `Tracer.lap`, and the
per-candidate explanation is worked out after the ranking from what it used (its channels, the first
stage's scores, the second stage's features, recomputed from the same inputs). Without `trace` no
`Tracer` exists and recall does none of this.

A candidate's `fusionScore` is the sum of its channels' contributions, weight / (k + rank), the priors
counted as one more channel; its `rankScore` (its place in the ranking) is the sum of its features'
contributions, value × weight × the factors applied × scale (1 / the best candidate's raw score); its
`score` (the absolute relevance, `app.recall.relevance`) is the question's `answerability` times the
logistic function of the relevance intercept plus its `relevance` contributions, value × weight.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from app.language.detect import Language
from app.recall.query import stemmer, words_of
from app.recall.relevance import ANSWERABILITY, EVIDENCE, Model
from app.recall.rerank import DEFAULT_WEIGHTS, FEATURES, Features
from app.recall.schemas import (
    AppliedFactor,
    ChannelContribution,
    FeatureContribution,
    RecallCandidate,
    RecallRequest,
    RecallTrace,
    TimeWindow,
    TraceAnalysis,
    TraceCandidate,
    TraceTimings,
)

STAGES = ("analysis", "embedding", "channels", "fusion", "rerank", "answer")


class RankedChannel(Protocol):
    """A channel as the fusion weighs it (`service.Channel`)."""

    @property
    def name(self) -> str: ...
    @property
    def weight(self) -> float: ...
    @property
    def ranked(self) -> list[str]: ...


class Tracer:
    """What one traced recall collects: each stage's time, the question's analysis, and per candidate its
    explanation."""

    def __init__(self) -> None:
        self.started = self.last = time.perf_counter()
        self.ms = dict.fromkeys(STAGES, 0.0)
        self.analysis: TraceAnalysis | None = None
        self.candidates: list[TraceCandidate] = []

    def lap(self, stage: str) -> None:
        """The time since the last lap goes to `stage` (a stage may come back: its laps add up)."""
        now = time.perf_counter()
        self.ms[stage] += (now - self.last) * 1000
        self.last = now

    def timings(self) -> TraceTimings:
        total = (time.perf_counter() - self.started) * 1000
        return TraceTimings(**{stage: round(ms, 3) for stage, ms in self.ms.items()}, total=round(total, 3))

    def analysed(
        self,
        request: RecallRequest,
        *,
        language: Language,
        question: str,
        own_terms: list[str],
        terms: list[str],
        phrases: list[str],
        window: tuple[datetime, datetime] | None,
        relation_words: list[str],
        nearest: list[str],
    ) -> None:
        """The question's analysis. `question`: its words that were searched (without the time phrase);
        `own_terms`: its own lexemes, which hold the names the profile gives the relations asked about
        (the lexemes no word of the question stems to in its `language`); `terms`: all the lexemes searched
        for, expansions included."""
        stem = stemmer(language.config)
        stems = {stem.stemWord(w) if stem else w for w in words_of(question, language.code)}
        relation_names = [t for t in own_terms if t.isalpha() and t not in stems] if relation_words else []
        self.analysis = TraceAnalysis(
            language=language.code,
            terms=terms,
            phrases=phrases,
            time_window=TimeWindow(start=window[0], end=window[1]) if window else None,
            names=relation_names,
            relations=relation_words,
            nearest_words=nearest,
            level=request.thinking_level,
        )

    def answerability(self, values: Sequence[float], probability: float) -> None:
        """The question's answerability (`relevance.ANSWERABILITY`) with its features."""
        assert self.analysis is not None
        self.analysis.answerability = probability
        self.analysis.answerability_intercept = ANSWERABILITY.intercept
        self.analysis.answerability_features = _contributions(ANSWERABILITY, values)

    def speakers(self, names: set[str]) -> None:
        """The question's terms that name someone speaking in the candidates (the second stage's filter)."""
        assert self.analysis is not None
        self.analysis.names = list(dict.fromkeys([*self.analysis.names, *sorted(names)]))

    def trace(self) -> RecallTrace:
        assert self.analysis is not None
        return RecallTrace(analysis=self.analysis, timings=self.timings(), candidates=self.candidates)

    def explain(
        self,
        candidates: list[RecallCandidate],
        capped: list[float],
        judged: list[tuple[float, ...]],
        asked_for: set[str],
        channels: Sequence[RankedChannel],
        rrf_k: int,
        first_stage: dict[str, float],
        features: dict[str, Features] | None,
        final: dict[str, float],
    ) -> None:
        """Each returned candidate's explanation. `capped`: their rank scores before rounding, each at most
        the one above it; `judged`: their relevance features (`relevance.FEATURES`); `asked_for`: those a
        question naming a time or a type alone asks for (`relevance.LED`); `channels`: every list the fusion
        summed, the priors included; `first_stage`: the fused scores; `features`: the second stage's (None: it did not run); `final`: the scores the
        candidates were ordered by. Its own time counts in no stage, only in the total."""
        ranked = [c.id for c in candidates]
        wanted = set(ranked)
        found: dict[str, list[ChannelContribution]] = {m: [] for m in ranked}
        for channel in channels:
            for rank, memory_id in enumerate(channel.ranked, start=1):
                if memory_id in wanted:
                    found[memory_id].append(
                        ChannelContribution(
                            channel=channel.name,
                            rank=rank,
                            weight=channel.weight,
                            contribution=channel.weight / (rrf_k + rank),
                        )
                    )
        scale = 1 / max(final.values())  # the ranking's best, returned or held back by minScore
        weights = DEFAULT_WEIGHTS
        for candidate, score, values_judged in zip(candidates, capped, judged, strict=True):
            memory_id = candidate.id
            if features is None:
                # The first stage alone: the score is the fused score relative to the best one.
                values: tuple[float, ...] = (first_stage[memory_id],)
                named = [("first", 1.0)]
                factors: list[AppliedFactor] = []
                feature_scale = scale
            else:
                seen = features[memory_id]
                values = seen.values
                named = [(name, getattr(weights, name)) for name in FEATURES]
                factors = [AppliedFactor(name=n, weight=getattr(weights, n)) for n in seen.factors()]
                feature_scale = scale
                for factor in factors:
                    feature_scale *= factor.weight
            explained = [
                FeatureContribution(
                    name=name, value=value, weight=weight, contribution=value * weight * feature_scale
                )
                for (name, weight), value in zip(named, values, strict=True)
            ]
            if (cut := score - final[memory_id] * scale) < 0:
                # Moved down for repeating better-ranked candidates, and held to the score above it.
                explained.append(
                    FeatureContribution(name="diversity", value=cut, weight=1.0, contribution=cut)
                )
            self.candidates.append(
                TraceCandidate(
                    id=memory_id,
                    score=candidate.score,
                    rank_score=score,
                    fusion_score=first_stage[memory_id],
                    relevance=_contributions(EVIDENCE, values_judged),
                    relevance_intercept=EVIDENCE.intercept,
                    asked_for=memory_id in asked_for,
                    channels=found[memory_id],
                    features=explained,
                    factors=factors,
                    scale=scale,
                )
            )
        self.last = time.perf_counter()


def _contributions(model: Model, values: Sequence[float]) -> list[FeatureContribution]:
    """A relevance model's features for these values, each with its weight and contribution."""
    return [
        FeatureContribution(name=name, value=value, weight=weight, contribution=value * weight)
        for name, value, weight in model.contributions(values)
    ]
