"""Webhook endpoints (a namespace's subscribers to its events) and their deliveries (the delivery log).

Both are namespace-wide tables: `namespace_id` leads every primary key and index, as a distribution by
namespace would need. An endpoint holds its cursor in the namespace's event stream (`cursor`: the last event
id handed to it, delivered or given up) and the lease of the worker delivering to it; a delivery is one
message to one endpoint, its body kept as sent so every retry and redelivery sends the same bytes under the
same `message_id` (the `webhook-id` header).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKeyConstraint,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Text,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, created_at_column, updated_at_column


class WebhookEndpoint(Base):
    __tablename__ = "webhook_endpoints"

    namespace_id: Mapped[int] = mapped_column(BigInteger, nullable=False)
    id: Mapped[str] = mapped_column(String(32), nullable=False)  # ep_<ULID>
    url: Mapped[str] = mapped_column(Text, nullable=False)
    # NULL: every event type; else only these.
    types: Mapped[list[str] | None] = mapped_column(ARRAY(Text))
    # NULL: events of every profile; else only this profile's (by name).
    profile: Mapped[str | None] = mapped_column(String(100))
    enabled: Mapped[bool] = mapped_column(Boolean, nullable=False, server_default=text("true"))
    disabled_reason: Mapped[str | None] = mapped_column(Text)
    # The signing secret (whsec_…) and, after a rotation, the previous one until `previous_secret_until`.
    secret: Mapped[str] = mapped_column(String(100), nullable=False)
    previous_secret: Mapped[str | None] = mapped_column(String(100))
    previous_secret_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    cursor: Mapped[int] = mapped_column(BigInteger, nullable=False, server_default=text("0"))
    # When the head delivery may be tried next (NULL: now); the claim looks only at due endpoints.
    next_attempt_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Since when every attempt failed (NULL: the last one succeeded); past a few days it is disabled.
    failing_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    leased_by: Mapped[str | None] = mapped_column(String(100))
    leased_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()

    __table_args__ = (
        PrimaryKeyConstraint("namespace_id", "id"),
        ForeignKeyConstraint(["namespace_id"], ["namespaces.id"], ondelete="CASCADE"),
    )


class WebhookDelivery(Base):
    __tablename__ = "webhook_deliveries"

    namespace_id: Mapped[int] = mapped_column(BigInteger, nullable=False)
    endpoint_id: Mapped[str] = mapped_column(String(32), nullable=False)
    id: Mapped[str] = mapped_column(String(32), nullable=False)  # dl_<ULID>
    # The `webhook-id` header: the same on every attempt and on a redelivery of the same message.
    message_id: Mapped[str] = mapped_column(String(32), nullable=False)
    # The event delivered (NULL: a test event).
    event_id: Mapped[int | None] = mapped_column(BigInteger)
    event_type: Mapped[str] = mapped_column(String(64), nullable=False)
    # In the endpoint's ordered stream (one per event, tried in event order, retried for about a day), or
    # sent on request (a test event, a redelivery: tried once, outside the stream's order).
    ordered: Mapped[bool] = mapped_column(Boolean, nullable=False)
    body: Mapped[str] = mapped_column(Text, nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, server_default=text("'pending'"))
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default=text("0"))
    next_attempt_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=text("now()")
    )
    response_status: Mapped[int | None] = mapped_column(Integer)
    response_ms: Mapped[int | None] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        PrimaryKeyConstraint("namespace_id", "endpoint_id", "id"),
        ForeignKeyConstraint(
            ["namespace_id", "endpoint_id"],
            ["webhook_endpoints.namespace_id", "webhook_endpoints.id"],
            ondelete="CASCADE",
        ),
        # One stream delivery per event and endpoint: a crash between fan-out and delivery never makes two.
        Index(
            "uq_webhook_deliveries_stream_event",
            "namespace_id",
            "endpoint_id",
            "event_id",
            unique=True,
            postgresql_where=text("ordered"),
        ),
        Index(
            "ix_webhook_deliveries_pending",
            "namespace_id",
            "endpoint_id",
            "next_attempt_at",
            postgresql_where=text("status = 'pending'"),
        ),
        Index("ix_webhook_deliveries_finished", "finished_at", postgresql_where=text("status <> 'pending'")),
    )
