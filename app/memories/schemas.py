"""Request and response bodies of the memory endpoints (the Agent Memory `Memory` type)."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from app.core.memory_types import MemoryType
from app.core.names import SessionId
from app.core.schemas import ApiModel, PageModel, RequestModel
from app.core.text import RememberContent

__all__ = [
    "MemoryDetail",
    "MemoryList",
    "MemoryOut",
    "MemorySource",
    "MemorySummary",
    "MemoryType",
    "RememberRequest",
]


class MemorySummary(ApiModel):
    """A memory as listed: everything but `content`."""

    id: str = Field(description="ULID.")
    type: MemoryType
    summary: str
    session_id: str | None
    event_time: datetime | None = Field(
        default=None, description="When the event happened or will, if known."
    )
    created_at: datetime
    updated_at: datetime


class MemoryOut(MemorySummary):
    content: str


class MemorySource(ApiModel):
    message_id: str
    role: str
    content: str
    timestamp: datetime


class MemoryDetail(MemoryOut):
    sources: list[MemorySource]


class MemoryList(PageModel):
    memories: list[MemorySummary]


class RememberRequest(RequestModel):
    content: RememberContent
    session_id: SessionId | None = None
