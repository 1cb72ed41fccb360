"""The extraction contract: messages in, memories out, and the identity of a memory.

The worker and ``/remember`` code against these names; the default extractor
and the LLM extractor both implement ``Extractor``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from app.core.memory_types import MemoryType
from app.extraction.text import normalise_for_hash
from app.language.detect import Language

__all__ = [
    "CONTENT_MAX_CHARS",
    "SUMMARY_MAX_CHARS",
    "ExtractedMemory",
    "Extractor",
    "InputMessage",
    "MemoryType",
]

SUMMARY_MAX_CHARS = 200
CONTENT_MAX_CHARS = 2000
CONTEXT_MAX_CHARS = 1000


@dataclass(frozen=True)
class InputMessage:
    """One message of a session as the extractor sees it."""

    id: str
    role: str  # "user" | "assistant" | "system"
    content: str
    timestamp: datetime  # tz-aware UTC
    speaker: str | None = None  # display name; a "Name: text" prefix in content is detected otherwise
    # The language of what was said, when the caller detected it already (the extraction job, which indexes
    # the message in it); None: the extractor detects it.
    language: Language | None = None


@dataclass(frozen=True)
class ExtractedMemory:
    """A memory before it is stored: what it says, what kind it is, and where it came from."""

    type: MemoryType
    summary: str
    content: str
    topic_key: str | None
    event_time: datetime | None
    source_message_ids: tuple[str, ...]
    # Searchable at low weight, never shown: the turn this answers, resolved referents, generated keywords.
    context: str = ""
    # The full-text configuration of the statement's language (`app.language.detect`); None: not known.
    language: str | None = None


class Extractor(Protocol):
    """Turns a window of one session into memories.

    ``messages[new_from:]`` are new; earlier ones are context only (they help
    resolve e.g. an answer to a question) and yield no memories themselves.
    ``earlier``, given when the window opens its session, holds other sessions'
    messages of the year before it (context only too: what the opening may
    report on); an extractor may ignore it.
    """

    async def extract(
        self,
        messages: Sequence[InputMessage],
        *,
        new_from: int = 0,
        earlier: Sequence[InputMessage] | None = None,
    ) -> list[ExtractedMemory]: ...


def content_hash(content: str) -> str:
    """sha256 hex of the normalised content: the identity that makes storing a memory idempotent."""
    return hashlib.sha256(normalise_for_hash(content).encode("utf-8")).hexdigest()
