"""Request and response bodies of recall."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from app.core.metadata import MetadataFilter
from app.core.schemas import ApiModel, RequestModel
from app.core.text import RecallQuery
from app.core.timestamps import AwareTimestamp, Timestamp
from app.memories.schemas import MemoryType

# The default `minScore`: chosen on the development sets (`python -m bench eval-retrieval`, docs/recall.md).
DEFAULT_MIN_SCORE = 0.1

ThinkingLevel = Literal["low", "medium", "high"]
ResponseLength = Literal["short", "medium", "long"]


class RecallRequest(RequestModel):
    query: RecallQuery
    thinking_level: ThinkingLevel = Field(
        default="medium",
        description=(
            "low: first stage only, each channel 20 deep; medium: 50 deep and the fused top 50 reranked by "
            "a second stage; high: 100 deep, top 100 reranked."
        ),
    )
    response_length: ResponseLength = Field(
        default="medium", description="Answer size: about 60 / 150 / 400 tokens."
    )
    reference_date: Timestamp | date | None = Field(
        default=None, description="'Today' for relative dates in the query (default: now)."
    )
    limit: int = Field(default=10, ge=1, le=100, description="Candidates to return (1–100).")
    metadata: MetadataFilter | None = Field(
        default=None, description="Only memories whose metadata has every given key with exactly that value."
    )
    as_of: AwareTimestamp | None = Field(
        default=None, description="RFC 3339 instant: recall what the profile held then."
    )
    min_score: float = Field(
        default=DEFAULT_MIN_SCORE,
        ge=0,
        le=1,
        description="Candidates whose score (absolute relevance) is below this are not returned; when none is "
        f"left, `count` is 0 and `answer` is empty. Default {DEFAULT_MIN_SCORE}, chosen on the development sets "
        "(docs/recall.md); 0 returns every candidate.",
    )
    trace: bool = Field(
        default=False,
        description="Also return `trace`: why each candidate ranked where it did (the question's analysis, "
        "each channel's rank and contribution, the second stage's features, each stage's time).",
    )


class RecallCandidate(ApiModel):
    id: str
    type: MemoryType
    summary: str
    session_id: str | None
    event_time: datetime | None = None
    speaker: str | None = Field(default=None, description="Who said it (the memory's `speaker`).")
    score: float = Field(
        ge=0,
        le=1,
        description="Absolute relevance in [0, 1]: the calibrated chance that this memory answers the question "
        "(of candidates scored about 0.7, about 70 % do). Comparable across questions, profiles and languages.",
    )


class TimeWindow(ApiModel):
    start: datetime
    end: datetime


class FeatureContribution(ApiModel):
    name: str
    value: float
    weight: float
    contribution: float = Field(
        description="value × weight × the factors × scale (`diversity`: its value): the contributions add up "
        "to the score."
    )


class TraceAnalysis(ApiModel):
    """What the question became."""

    language: str = Field(description="The language the question was analysed in.")
    terms: list[str] = Field(description="The lexemes searched for: the question's own, then expansions.")
    phrases: list[str] = Field(description="Quoted phrases, kept as phrases.")
    time_window: TimeWindow | None = Field(description="The time the question names, as an interval.")
    names: list[str] = Field(
        description="Lexemes of people the question names: speakers, and the names the profile gives the "
        "relations it asks about."
    )
    relations: list[str] = Field(description='Relation words searched for ("husband", "mum").')
    nearest_words: list[str] = Field(
        description="Stems of the question words' nearest words, searched lightly."
    )
    level: ThinkingLevel
    answerability: float = Field(
        default=0.0,
        description="The chance that some memory of the profile answers the question: logistic("
        "answerabilityIntercept + Σ answerabilityFeatures); each candidate's score is this times its relevance.",
    )
    answerability_intercept: float = 0.0
    answerability_features: list[FeatureContribution] = Field(default_factory=list)


class TraceTimings(ApiModel):
    """Milliseconds spent in each stage; `total` from the question received to the answer written."""

    analysis: float
    embedding: float
    channels: float
    fusion: float
    rerank: float
    answer: float
    total: float


class ChannelContribution(ApiModel):
    channel: str
    rank: int = Field(description="1 = the channel's best.")
    weight: float
    contribution: float = Field(description="weight / (k + rank): the contributions add up to fusionScore.")


class AppliedFactor(ApiModel):
    name: str = Field(
        description="off_speaker: about someone else than the person asked about; by_agent: "
        "the assistant's own words; partner: said by someone other than the one person the question names."
    )
    weight: float


class TraceCandidate(ApiModel):
    id: str
    score: float = Field(
        description="The absolute relevance: the question's answerability × logistic(relevanceIntercept + "
        "Σ relevance)."
    )
    rank_score: float = Field(
        description="Its place in the ranking, relative to the best (1): the features' contributions add up to it."
    )
    fusion_score: float = Field(description="The first stage's weighted reciprocal-rank fusion.")
    channels: list[ChannelContribution]
    features: list[FeatureContribution]
    factors: list[AppliedFactor] = Field(description="Factors the second stage multiplied the score by.")
    scale: float = Field(
        description="1 / the best candidate's raw score: rank scores are relative to the best."
    )
    relevance: list[FeatureContribution] = Field(
        description="The absolute relevance's features (`contribution` = value × weight)."
    )
    relevance_intercept: float
    asked_for: bool = Field(
        default=False,
        description="The question names a time or a type and little else, and this memory is of that window "
        "or type: what it asks for, scored at least 0.9 whatever the relevance features say.",
    )


class RecallTrace(ApiModel):
    analysis: TraceAnalysis
    timings: TraceTimings
    candidates: list[TraceCandidate] = Field(description="In the order of the result's candidates.")


class RecallResult(ApiModel):
    count: int
    answer: str
    candidates: list[RecallCandidate]
    # Absent unless asked for (`trace: true`).
    trace: RecallTrace | SkipJsonSchema[None] = Field(default=None, exclude_if=lambda trace: trace is None)
