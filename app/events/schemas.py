"""Bodies of the events feed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from app.core.schemas import ApiModel
from app.events.types import EventType


class EventOut(ApiModel):
    """One change, as the feed and webhooks give it."""

    id: int = Field(
        description="The event's number in its namespace: 1, 2, 3…, given once its change has committed, so a "
        "reader going on from the last id it read misses none."
    )
    type: EventType
    timestamp: datetime = Field(description="When the change was committed (numbered), UTC.")
    namespace: str
    profile: str | None = Field(description="The profile's name (null for none).")
    memory_id: str | None = Field(default=None, description="The memory of a `memory.*` event.")
    session_id: str | None = Field(
        default=None,
        description="The memory's session, the deleted session, or the session an ingest came from.",
    )
    data: dict[str, Any] = Field(
        description="A `memory.*` event: `memory`, the memory's fields as the API returns them (for "
        "`memory.deleted` its last state), and for `memory.updated` `change` (`edited` or `restored`). "
        "`ingest.completed`: `jobId`, `memoriesCreated`, `memoriesSuperseded`, `memoriesSkipped`, "
        "`memoriesOverQuota`. "
        "`session.deleted`, `profile.deleted`: empty."
    )


class EventPage(ApiModel):
    events: list[EventOut]
    cursor: int = Field(
        description="Pass it as `after` to read on: the last event's id here, or the `after` sent when no "
        "event came."
    )
    has_more: bool = Field(description="More events are there already: read on at once.")
