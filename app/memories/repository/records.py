"""The rows memories are read as and written from: a memory's state (listed, full, editable), a state of
its history, its source messages, its speaker, and a new memory to insert."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Self

from app.core.memory_types import SUPERSEDING_TYPES
from app.language.detect import search_config

_COLUMNS = (
    "id, type, summary, content, session_id, event_time, created_at, updated_at, metadata, superseded_by, "
    "version, valid_from, valid_to, speaker, speaker_role"
)


@dataclass(frozen=True)
class ListedMemory:
    """A memory's state as a list shows it (all but its content)."""

    id: str
    type: str
    summary: str
    session_id: str | None
    event_time: datetime | None
    created_at: datetime
    updated_at: datetime
    metadata: dict[str, Any]
    superseded_by: str | None
    version: int
    valid_from: datetime
    valid_to: datetime | None
    speaker: str | None  # who said it (any script); None when no name was given
    speaker_role: str | None  # the role of the message it was said in; None: remembered

    @classmethod
    def of(cls, row: Mapping[Any, Any]) -> Self:
        """From a result row (SQLAlchemy mapping or asyncpg record) holding at least the class's columns."""
        return cls(**{name: row[name] for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class MemoryRow(ListedMemory):
    """A memory's state (`_COLUMNS`): current, archived or as of an instant."""

    content: str


@dataclass(frozen=True)
class EditableMemory(MemoryRow):
    """The current state and topic of a memory about to be edited."""

    topic_key: str | None


@dataclass(frozen=True)
class MemoryState:
    """One state of a memory's history, and how it ended (superseded or deleted), if it did."""

    version: int
    change: str
    type: str
    summary: str
    content: str
    metadata: dict[str, Any]
    valid_from: datetime
    valid_to: datetime | None
    superseded_by: str | None
    deleted_at: datetime | None


@dataclass(frozen=True)
class SourceMessage:
    """A message a memory was extracted from."""

    message_id: str
    role: str
    content: str
    timestamp: datetime


@dataclass(frozen=True)
class Speaker:
    """Who said a message: its name (given, or read from a `Name:` prefix at ingest) and its role."""

    name: str | None = None
    role: str | None = None


@dataclass
class NewMemory:
    id: str
    type: str
    summary: str
    content: str
    session_id: str | None
    topic_key: str | None
    event_time: datetime | None
    content_hash: str
    source_message_ids: tuple[str, ...]
    metadata: dict[str, Any] | None = None
    context: str = ""
    # The full-text configuration of its language; detected from the content when the writer did not say.
    language: str | None = None
    speaker: str | None = None  # who said it: its source message's name or `Name:` prefix
    speaker_role: str | None = None  # that message's role; None for a remembered memory

    @property
    def supersedes(self) -> bool:
        return _supersedes(self.topic_key, self.type)

    @property
    def search_config(self) -> str:
        return self.language or search_config(self.content)


def _supersedes(topic_key: str | None, memory_type: str) -> bool:
    """Whether a new memory supersedes the active ones of its topic (a fact or instruction with a topic)."""
    return bool(topic_key) and memory_type in SUPERSEDING_TYPES
