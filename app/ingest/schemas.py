"""Request and response bodies of ingest."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.metadata import Metadata
from app.core.names import SessionId, SpeakerName
from app.core.schemas import ApiModel, RequestModel
from app.core.text import MessageContent
from app.core.timestamps import AwareTimestamp

MAX_MESSAGES = 500


class IngestMessage(RequestModel):
    role: Literal["system", "user", "assistant"]
    content: MessageContent
    name: SpeakerName | None = None
    timestamp: AwareTimestamp | None = Field(
        default=None, description="When it was said (RFC 3339 with offset); absent → the time of ingest."
    )
    metadata: Metadata | None = Field(
        default=None, description="Tags of the message; the memories extracted from it inherit them."
    )


class IngestRequest(RequestModel):
    messages: list[IngestMessage] = Field(min_length=1, max_length=MAX_MESSAGES)
    session_id: SessionId | None = Field(
        default=None, description="Absent → derived from the first message, so a conversation keeps its id."
    )


class IngestResult(ApiModel):
    session_id: str
    job_id: str | None = Field(description="The extraction job; null when nothing new was ingested.")
    messages_received: int
    messages_new: int
