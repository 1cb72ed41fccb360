"""The event outbox (migration 0017 holds its trigger and writer function): events numbered per namespace
after they commit (migration 0024), the counter that numbers them, and subscribers' positions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, String, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, created_at_column


class Event(Base):
    __tablename__ = "events"

    namespace_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("namespaces.id", ondelete="CASCADE"), primary_key=True
    )
    # The order of writing (the sequence `event_seq`, across namespaces).
    seq: Mapped[int] = mapped_column(
        BigInteger, primary_key=True, server_default=text("nextval('event_seq')")
    )
    # The namespace's number of the event, given after it committed (event_counters); NULL until then.
    id: Mapped[int | None] = mapped_column(BigInteger)
    type: Mapped[str] = mapped_column(String(32), nullable=False)
    profile_id: Mapped[int | None] = mapped_column(BigInteger)  # no foreign key: outlives a purge
    profile: Mapped[str | None] = mapped_column(String(100))
    memory_id: Mapped[str | None] = mapped_column(String(26))
    session_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = created_at_column()
    data: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False, server_default=text("'{}'::jsonb"))

    __table_args__ = (
        Index("uq_events_id", "namespace_id", "id", unique=True, postgresql_where=text("id IS NOT NULL")),
        Index("ix_events_unnumbered", "namespace_id", "seq", postgresql_where=text("id IS NULL")),
        Index("ix_events_profile", "namespace_id", "profile", "id", postgresql_where=text("id IS NOT NULL")),
        Index("ix_events_created_at", "created_at", postgresql_using="brin"),
    )


class EventCounter(Base):
    """A namespace's last event number; its row is locked by a numbering (`number_events`) until it
    commits."""

    __tablename__ = "event_counters"

    namespace_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("namespaces.id", ondelete="CASCADE"), primary_key=True
    )
    last_id: Mapped[int] = mapped_column(BigInteger, nullable=False, server_default=text("0"))


class EventCursor(Base):
    """How far a subscriber (follow-up work in the worker) has read a namespace's events."""

    __tablename__ = "event_cursors"

    subscriber: Mapped[str] = mapped_column(String(64), primary_key=True)
    namespace_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("namespaces.id", ondelete="CASCADE"), primary_key=True
    )
    last_id: Mapped[int] = mapped_column(BigInteger, nullable=False, server_default=text("0"))
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=text("now()")
    )
