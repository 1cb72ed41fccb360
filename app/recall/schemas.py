"""Request and response bodies of recall."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from app.core.metadata import MetadataFilter
from app.core.schemas import ApiModel, RequestModel
from app.core.text import RecallQuery
from app.core.timestamps import AwareTimestamp, Timestamp
from app.memories.schemas import MemoryType

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


class RecallCandidate(ApiModel):
    id: str
    type: MemoryType
    summary: str
    session_id: str | None
    event_time: datetime | None = None
    score: float = Field(gt=0, le=1, description="In (0, 1]; comparable only within one query.")


class RecallResult(ApiModel):
    count: int
    answer: str
    candidates: list[RecallCandidate]
