"""Request and response bodies of the memory endpoints (the Agent Memory `Memory` type)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field, model_validator

from app.core.errors import Problem
from app.core.memory_types import MemoryType
from app.core.metadata import Metadata
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
    "EditRequest",
    "MemoryVersion",
    "MemoryHistory",
    "Tombstone",
    "TombstoneList",
    "ForgottenProblem",
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
    metadata: dict[str, Any] = Field(default_factory=dict, description="The memory's tags.")
    superseded_by: str | None = Field(
        default=None,
        description="The memory that replaced this one; null while it is active (listed only with "
        "`include=superseded`).",
    )
    version: int = Field(default=1, description="1 when created, +1 for every edit or restoration.")
    speaker: str | None = Field(
        default=None,
        description="Who said it, in any script: the source message's `name`, or the `Name:` prefix its text "
        "opened with (read once, at ingest); for a remembered memory, the prefix of its content. Null when "
        "no name was given.",
    )
    speaker_role: str | None = Field(
        default=None,
        description="The role (`user`, `assistant`, …) of the message it was said in; null for a remembered "
        "memory. An `assistant` memory without a `speaker` (or named `Assistant`) is the agent's own words.",
    )


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
    metadata: Metadata | None = Field(default=None, description="Tags to store with the memory.")
    restore: bool = Field(
        default=False,
        description="Remember content this profile deleted: lifts its tombstone. Without it, such content "
        "answers 409 `memory_forgotten`.",
    )


class EditRequest(RequestModel):
    """A correction: what is given replaces the current value; a new `content` without `summary` / `type`
    is summarised and typed again."""

    content: RememberContent | None = None
    summary: str | None = Field(default=None, min_length=1, max_length=200)
    type: MemoryType | None = None
    metadata: Metadata | None = Field(default=None, description="Replaces the memory's metadata whole.")

    @model_validator(mode="after")
    def _something(self) -> EditRequest:
        if not self.model_fields_set:
            raise ValueError("give at least one of content, summary, type, metadata")
        if self.summary is not None and "\x00" in self.summary:
            raise ValueError("summary must not contain NUL")
        return self


Change = Literal["created", "edited", "restored", "superseded", "deleted"]


class MemoryVersion(ApiModel):
    """One step of a memory's version chain."""

    version: int
    change: Change = Field(
        description="created / edited / restored begin a state; superseded / deleted end the last one."
    )
    at: datetime
    type: MemoryType
    summary: str
    content: str
    metadata: dict[str, Any]
    superseded_by: str | None = Field(default=None, description="With `superseded`: the memory that won.")
    kept_message_ids: list[str] | None = Field(
        default=None,
        description="With `deleted`: the source messages that stayed because another memory still cites "
        "them (while the tombstone stands).",
    )


class MemoryHistory(ApiModel):
    memory_id: str
    versions: list[MemoryVersion] = Field(description="Oldest first.")


class Tombstone(ApiModel):
    """What a deleted memory left: fingerprints, no text. While it stands, re-ingesting the messages,
    remembering the content or importing it does not bring the memory back."""

    id: str = Field(description="The deleted memory's id.")
    type: MemoryType
    session_id: str | None
    content_hash: str = Field(description="sha256 of the memory's normalised content.")
    created_at: datetime = Field(description="When the memory was deleted.")
    message_ids: list[str] = Field(
        description="Identities of the source messages deleted with it: ingest does not store them again."
    )
    kept_message_ids: list[str] = Field(
        description="Source messages that stayed, because another memory still cites them."
    )


class TombstoneList(PageModel):
    tombstones: list[Tombstone]


class ForgottenProblem(Problem):
    """409 `memory_forgotten`: the content was deleted from the profile and its tombstone stands."""

    tombstone_id: str = Field(alias="tombstoneId", description="The tombstone holding the content.")
