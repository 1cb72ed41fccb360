"""Tombstones: what a deleted memory leaves behind so that it is not brought back by the same messages or
content (fingerprints only, no text)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    PrimaryKeyConstraint,
    String,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, created_at_column


class MemoryTombstone(Base):
    """A deleted memory: its id, the fingerprint of its content (`content_hash`), its session."""

    __tablename__ = "memory_tombstones"

    profile_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("profiles.id", ondelete="CASCADE"))
    # The deleted memory's id, so that its history and its tombstone are found by the same id.
    id: Mapped[str] = mapped_column(String(26))
    content_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    # The memory's session, so that deleteSession takes the tombstone with it; NULL: a remembered memory
    # without a session (it goes with its profile).
    session_id: Mapped[str | None] = mapped_column(String(64))
    type: Mapped[str] = mapped_column(String(16), nullable=False)
    created_at: Mapped[datetime] = created_at_column()

    __table_args__ = (
        PrimaryKeyConstraint("profile_id", "id"),
        Index("ix_memory_tombstones_hash", "profile_id", "content_hash"),
        Index("ix_memory_tombstones_session", "profile_id", "session_id"),
    )


class TombstoneMessage(Base):
    """A source message of a deleted memory, by its identity: deleted with the memory, or kept because
    another memory still cited it."""

    __tablename__ = "tombstone_messages"

    profile_id: Mapped[int] = mapped_column(BigInteger)
    tombstone_id: Mapped[str] = mapped_column(String(26))
    session_id: Mapped[str] = mapped_column(String(64))
    message_id: Mapped[str] = mapped_column(String(128))
    # True: the message went with the memory, and ingest does not store it again while the tombstone
    # stands; False: another memory cited it, and it stayed.
    deleted: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default=text("true"))

    __table_args__ = (
        PrimaryKeyConstraint("profile_id", "tombstone_id", "session_id", "message_id"),
        ForeignKeyConstraint(
            ["profile_id", "tombstone_id"],
            ["memory_tombstones.profile_id", "memory_tombstones.id"],
            ondelete="CASCADE",
        ),
        Index("ix_tombstone_messages_message", "profile_id", "session_id", "message_id"),
    )
