"""Namespaces (the tenants) and their API keys."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Identity, Index, LargeBinary, String, text
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, created_at_column


class Namespace(Base):
    __tablename__ = "namespaces"

    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    name: Mapped[str] = mapped_column(String(32), nullable=False)
    created_at: Mapped[datetime] = created_at_column()
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The namespace's own limits (app.quotas): NULL takes the server's default, 0 means no limit.
    quota_memories: Mapped[int | None] = mapped_column(BigInteger)
    quota_messages: Mapped[int | None] = mapped_column(BigInteger)
    quota_bytes: Mapped[int | None] = mapped_column(BigInteger)
    quota_requests_per_minute: Mapped[int | None] = mapped_column(BigInteger)

    __table_args__ = (
        # Only live namespaces hold their name: a deleted one frees it at once.
        Index("uq_namespaces_live_name", "name", unique=True, postgresql_where=text("deleted_at IS NULL")),
    )


class ApiKey(Base):
    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(100), nullable=False)
    # NULL namespace: an admin key.
    namespace_id: Mapped[int | None] = mapped_column(
        BigInteger, ForeignKey("namespaces.id", ondelete="CASCADE"), index=True
    )
    secret_sha256: Mapped[bytes] = mapped_column(LargeBinary(32), nullable=False)
    # read | write | admin of its namespace (app.core.scopes); CHECK ck_api_keys_scope.
    scope: Mapped[str] = mapped_column(String(8), nullable=False, server_default=text("'admin'"))
    created_at: Mapped[datetime] = created_at_column()
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
