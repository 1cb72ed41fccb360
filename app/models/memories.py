"""Memories extracted from conversations or remembered directly, and the messages each one came from."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Text,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import (
    Base,
    created_at_column,
    language_column,
    language_tsvector,
    tsvector_column,
    updated_at_column,
)


class Memory(Base):
    __tablename__ = "memories"

    profile_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("profiles.id", ondelete="CASCADE"))
    id: Mapped[str] = mapped_column(String(26))  # ULID: newest first is id DESC
    type: Mapped[str] = mapped_column(String(16), nullable=False)
    summary: Mapped[str] = mapped_column(Text, nullable=False)
    content: Mapped[str] = mapped_column(Text, nullable=False)
    session_id: Mapped[str | None] = mapped_column(String(64))
    topic_key: Mapped[str | None] = mapped_column(String(200))
    event_time: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    superseded_by: Mapped[str | None] = mapped_column(String(26))
    content_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    # Low-weight searchable text: the turn this memory answers, resolved referents, generated keywords.
    context: Mapped[str] = mapped_column(Text, nullable=False, server_default=text("''"))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
    # Free-form tags given on remember or inherited from the source message; filters match keys exactly.
    metadata_: Mapped[dict[str, Any]] = mapped_column(
        "metadata", JSONB, nullable=False, server_default=text("'{}'::jsonb")
    )
    # The current state's validity: since it was created or last edited, until superseded (NULL: still).
    valid_from: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=text("now()")
    )
    valid_to: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    version: Mapped[int] = mapped_column(Integer, nullable=False, server_default=text("1"))
    # What began the current state: created, edited or restored (remembered again after supersession).
    change: Mapped[str] = mapped_column(String(16), nullable=False, server_default=text("'created'"))
    language: Mapped[str] = language_column()
    # Who said it: the source message's `name` (or its `Name:` prefix, read once at ingest), in any script;
    # NULL when no name was given. `speaker_role` is that message's role (NULL: remembered, not said).
    speaker: Mapped[str | None] = mapped_column(Text)
    speaker_role: Mapped[str | None] = mapped_column(String(16))
    # Symbols and CJK bigrams weigh as the summary; a non-English row's unstemmed words as the context.
    tsv: Mapped[Any] = tsvector_column(
        f"setweight({language_tsvector('summary')}, 'A') || "
        f"setweight({language_tsvector('content')}, 'B') || "
        f"setweight({language_tsvector('context')}, 'D') || "
        "setweight(symbol_tsvector(content), 'C') || setweight(plain_tsvector(language, content), 'D')"
    )

    __table_args__ = (
        PrimaryKeyConstraint("profile_id", "id"),
        Index("uq_memories_profile_hash", "profile_id", "content_hash", unique=True),
        Index("ix_memories_active", "profile_id", "id", postgresql_where=text("superseded_by IS NULL")),
        Index("ix_memories_session", "profile_id", "session_id"),
        Index(
            "ix_memories_topic",
            "profile_id",
            "topic_key",
            postgresql_where=text("superseded_by IS NULL AND topic_key IS NOT NULL"),
        ),
        Index("ix_memories_event_time", "profile_id", "event_time"),
        # Keyed by the profile's own lexemes (migration 0011 defines profile_lexemes and says why).
        Index(
            "ix_memories_profile_lexemes", text("profile_lexemes(profile_id, tsv)"), postgresql_using="gin"
        ),
        Index(
            "ix_memories_metadata",
            "metadata",
            postgresql_using="gin",
            postgresql_ops={"metadata": "jsonb_path_ops"},
        ),
    )


class MemoryVersion(Base):
    """A past state of a memory (archived by an edit) or the last state of a deleted one."""

    __tablename__ = "memory_versions"

    profile_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("profiles.id", ondelete="CASCADE"))
    memory_id: Mapped[str] = mapped_column(String(26))
    version: Mapped[int] = mapped_column(Integer)
    change: Mapped[str] = mapped_column(String(16), nullable=False)
    type: Mapped[str] = mapped_column(String(16), nullable=False)
    summary: Mapped[str] = mapped_column(Text, nullable=False)
    content: Mapped[str] = mapped_column(Text, nullable=False)
    metadata_: Mapped[dict[str, Any]] = mapped_column(
        "metadata", JSONB, nullable=False, server_default=text("'{}'::jsonb")
    )
    session_id: Mapped[str | None] = mapped_column(String(64))
    topic_key: Mapped[str | None] = mapped_column(String(200))
    event_time: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    valid_from: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    valid_to: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    superseded_by: Mapped[str | None] = mapped_column(String(26))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    speaker: Mapped[str | None] = mapped_column(Text)
    speaker_role: Mapped[str | None] = mapped_column(String(16))

    __table_args__ = (
        PrimaryKeyConstraint("profile_id", "memory_id", "version"),
        Index("ix_memory_versions_valid", "profile_id", "valid_to", "valid_from"),
    )


class MemorySource(Base):
    __tablename__ = "memory_sources"

    profile_id: Mapped[int] = mapped_column(BigInteger)
    memory_id: Mapped[str] = mapped_column(String(26))
    session_id: Mapped[str] = mapped_column(String(64))
    message_id: Mapped[str] = mapped_column(String(128))

    __table_args__ = (
        PrimaryKeyConstraint("profile_id", "memory_id", "session_id", "message_id"),
        ForeignKeyConstraint(
            ["profile_id", "memory_id"], ["memories.profile_id", "memories.id"], ondelete="CASCADE"
        ),
        # A source message deleted (or a session purged) takes the link with it; an extraction racing a
        # delete fails on this key instead of linking a memory to a message that is gone.
        ForeignKeyConstraint(
            ["profile_id", "session_id", "message_id"],
            ["messages.profile_id", "messages.session_id", "messages.id"],
            ondelete="CASCADE",
        ),
        Index("ix_memory_sources_message", "profile_id", "session_id", "message_id"),
    )
