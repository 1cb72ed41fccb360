"""Session API tables: a profile's context blocks and their keyed entries, and sessions' compaction overlays."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
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
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, created_at_column, english_tsvector, tsvector_column, updated_at_column


class ContextBlock(Base):
    """A labelled section of the system prompt; `kind` decides who may write it and which tools it brings."""

    __tablename__ = "context_blocks"

    profile_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("profiles.id", ondelete="CASCADE"))
    label: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16), nullable=False)
    description: Mapped[str | None] = mapped_column(Text)
    max_tokens: Mapped[int | None] = mapped_column(Integer)
    # `session`: each session keeps its own content and entries (this row's are where each starts);
    # `profile`: this row's content and entries are shared by every session.
    scope: Mapped[str] = mapped_column(String(16), nullable=False, server_default=text("'session'"))
    # Inline content of readonly/writable blocks; keyed kinds keep theirs in context_entries.
    content: Mapped[str] = mapped_column(Text, nullable=False, server_default=text("''"))
    # Definition order: the order blocks render in, kept when a block is redefined.
    seq: Mapped[int] = mapped_column(BigInteger, Identity(), nullable=False)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()

    __table_args__ = (
        PrimaryKeyConstraint("profile_id", "label"),
        Index("ix_context_blocks_profile_seq", "profile_id", "seq"),
    )


class _EntryColumns:
    """What a keyed entry holds, in a block's definition and in a session's copy alike (after the key's
    owner columns); search entries are found through `tsv`."""

    key: Mapped[str] = mapped_column(String(128))
    content: Mapped[str] = mapped_column(Text, nullable=False)
    description: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
    tsv: Mapped[Any] = tsvector_column(english_tsvector("content"))


class ContextEntry(_EntryColumns, Base):
    """One keyed entry of a skill or search block; search entries are found through `tsv`."""

    __tablename__ = "context_entries"

    profile_id: Mapped[int] = mapped_column(BigInteger)
    label: Mapped[str] = mapped_column(String(64))

    __table_args__ = (
        PrimaryKeyConstraint("profile_id", "label", "key"),
        ForeignKeyConstraint(
            ["profile_id", "label"], ["context_blocks.profile_id", "context_blocks.label"], ondelete="CASCADE"
        ),
        Index("ix_context_entries_tsv", "tsv", postgresql_using="gin"),
    )


class ContextSessionBlock(Base):
    """A session's own copy of a session-scoped block, made on the session's first write to it."""

    __tablename__ = "context_session_blocks"

    profile_id: Mapped[int] = mapped_column(BigInteger)
    session_id: Mapped[str] = mapped_column(String(64))
    label: Mapped[str] = mapped_column(String(64))
    content: Mapped[str] = mapped_column(Text, nullable=False, server_default=text("''"))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()

    __table_args__ = (
        PrimaryKeyConstraint("profile_id", "session_id", "label"),
        ForeignKeyConstraint(
            ["profile_id", "session_id"], ["sessions.profile_id", "sessions.id"], ondelete="CASCADE"
        ),
        ForeignKeyConstraint(
            ["profile_id", "label"], ["context_blocks.profile_id", "context_blocks.label"], ondelete="CASCADE"
        ),
    )


class ContextSessionEntry(_EntryColumns, Base):
    """One keyed entry of a session's own copy of a skill or search block."""

    __tablename__ = "context_session_entries"

    profile_id: Mapped[int] = mapped_column(BigInteger)
    session_id: Mapped[str] = mapped_column(String(64))
    label: Mapped[str] = mapped_column(String(64))

    __table_args__ = (
        PrimaryKeyConstraint("profile_id", "session_id", "label", "key"),
        ForeignKeyConstraint(
            ["profile_id", "session_id", "label"],
            [
                "context_session_blocks.profile_id",
                "context_session_blocks.session_id",
                "context_session_blocks.label",
            ],
            ondelete="CASCADE",
            name="fk_context_session_entries_block",
        ),
        Index("ix_context_session_entries_tsv", "tsv", postgresql_using="gin"),
    )


class Compaction(Base):
    """A summary overlay replacing the range [from_message_id, to_message_id] of a session's history on read."""

    __tablename__ = "compactions"

    profile_id: Mapped[int] = mapped_column(BigInteger)
    id: Mapped[str] = mapped_column(String(26))
    session_id: Mapped[str] = mapped_column(String(64), nullable=False)
    summary: Mapped[str] = mapped_column(Text, nullable=False)
    from_message_id: Mapped[str] = mapped_column(String(128), nullable=False)
    to_message_id: Mapped[str] = mapped_column(String(128), nullable=False)
    created_at: Mapped[datetime] = created_at_column()
    seq: Mapped[int] = mapped_column(BigInteger, Identity(), nullable=False)

    __table_args__ = (
        PrimaryKeyConstraint("profile_id", "id"),
        ForeignKeyConstraint(
            ["profile_id", "session_id"], ["sessions.profile_id", "sessions.id"], ondelete="CASCADE"
        ),
        Index("ix_compactions_session_seq", "profile_id", "session_id", "seq"),
    )
