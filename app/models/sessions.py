"""Conversation sessions and their messages (a tree via `parent_id`), shared by ingest and the Session API."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Identity,
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


class Session(Base):
    __tablename__ = "sessions"

    profile_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("profiles.id", ondelete="CASCADE"))
    id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(Text, nullable=False, server_default=text("''"))
    parent_session_id: Mapped[str | None] = mapped_column(String(64))
    model: Mapped[str | None] = mapped_column(Text)
    source: Mapped[str | None] = mapped_column(Text)
    end_reason: Mapped[str | None] = mapped_column(Text)
    input_tokens: Mapped[int] = mapped_column(BigInteger, nullable=False, server_default=text("0"))
    output_tokens: Mapped[int] = mapped_column(BigInteger, nullable=False, server_default=text("0"))
    estimated_cost: Mapped[float] = mapped_column(Float, nullable=False, server_default=text("0"))
    compact_after: Mapped[int | None] = mapped_column(Integer)
    # Messages appended through the Session API are queued for memory extraction unless this is off.
    extract_memories: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default=text("true"))
    # The frozen system prompt (freezeSystemPrompt); NULL until first read, replaced only by refresh.
    system_prompt: Mapped[str | None] = mapped_column(Text)
    # Skills loaded by load_context in this session ("label:key"), so unload_context knows what it may reclaim.
    loaded_skills: Mapped[list[str]] = mapped_column(
        JSONB, nullable=False, server_default=text("'[]'::jsonb")
    )
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
    metadata_: Mapped[dict[str, Any]] = mapped_column(
        "metadata", JSONB, nullable=False, server_default=text("'{}'::jsonb")
    )

    __table_args__ = (
        PrimaryKeyConstraint("profile_id", "id"),
        Index("ix_sessions_profile_updated", "profile_id", "updated_at"),
    )


class Message(Base):
    __tablename__ = "messages"

    profile_id: Mapped[int] = mapped_column(BigInteger)
    id: Mapped[str] = mapped_column(String(128))
    session_id: Mapped[str] = mapped_column(String(64), nullable=False)
    parent_id: Mapped[str | None] = mapped_column(String(128))
    role: Mapped[str] = mapped_column(String(16), nullable=False)
    # Who spoke (OpenAI's chat `name`), when the ingest named them; NULL otherwise.
    name: Mapped[str | None] = mapped_column(Text)
    # AI SDK UIMessage parts, verbatim; ingested text becomes [{"type": "text", "text": ...}].
    parts: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, nullable=False)
    text_content: Mapped[str] = mapped_column(Text, nullable=False, server_default=text("''"))
    # Tags given with an ingested message; the memories extracted from it inherit them.
    metadata_: Mapped[dict[str, Any] | None] = mapped_column("metadata", JSONB)
    created_at: Mapped[datetime] = created_at_column()
    # Insertion order: breaks createdAt ties (latest leaf) and orders a session's messages.
    seq: Mapped[int] = mapped_column(BigInteger, Identity(), nullable=False)
    language: Mapped[str] = language_column()
    tsv: Mapped[Any] = tsvector_column(
        f"{language_tsvector('text_content')} || symbol_tsvector(text_content) || "
        "plain_tsvector(language, text_content)"
    )

    __table_args__ = (
        # Ids are unique per session (two sessions may both hold `m1`), as the reference keys them.
        PrimaryKeyConstraint("profile_id", "session_id", "id"),
        ForeignKeyConstraint(
            ["profile_id", "session_id"], ["sessions.profile_id", "sessions.id"], ondelete="CASCADE"
        ),
        Index("ix_messages_session_seq", "profile_id", "session_id", "seq"),
        Index("ix_messages_parent", "profile_id", "session_id", "parent_id"),
        # Keyed by the profile's own lexemes (migration 0011 defines profile_lexemes and says why).
        Index(
            "ix_messages_profile_lexemes", text("profile_lexemes(profile_id, tsv)"), postgresql_using="gin"
        ),
        Index("ix_messages_created", "profile_id", "created_at"),
    )
