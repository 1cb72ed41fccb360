"""The event types and the row an event is read as."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any


class EventType(StrEnum):
    MEMORY_CREATED = "memory.created"
    MEMORY_UPDATED = "memory.updated"  # edited (content, summary, type, metadata) or restored
    MEMORY_SUPERSEDED = "memory.superseded"
    MEMORY_DELETED = "memory.deleted"  # on its own, or with its session
    SESSION_DELETED = "session.deleted"
    PROFILE_DELETED = "profile.deleted"
    INGEST_COMPLETED = "ingest.completed"  # an extraction job's counts


@dataclass(frozen=True)
class EventRow:
    """One event as stored: its namespace's number `id`, what changed and where, and its data (for a memory
    event `{"memory": <the memory's public fields>}`, plus `change` for an update)."""

    namespace_id: int
    id: int
    type: str
    profile_id: int | None
    profile: str | None
    memory_id: str | None
    session_id: str | None
    created_at: datetime
    data: dict[str, Any]
