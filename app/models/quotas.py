"""A namespace's usage counters and its current request window (app.quotas; migration 0022 keeps them)."""

from __future__ import annotations

from sqlalchemy import BigInteger, ForeignKey, Identity, text
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base


class NamespaceUsage(Base):
    """Active memories, session messages and stored bytes of a namespace, kept by triggers."""

    __tablename__ = "namespace_usage"

    namespace_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("namespaces.id", ondelete="CASCADE"), primary_key=True
    )
    memories: Mapped[int] = mapped_column(BigInteger, nullable=False, server_default=text("0"))
    messages: Mapped[int] = mapped_column(BigInteger, nullable=False, server_default=text("0"))
    bytes: Mapped[int] = mapped_column(BigInteger, nullable=False, server_default=text("0"))


class NamespaceUsageChange(Base):
    """One statement's change to a namespace's usage, not yet folded into its row."""

    __tablename__ = "namespace_usage_changes"

    namespace_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    id: Mapped[int] = mapped_column(BigInteger, Identity(), primary_key=True)
    memories: Mapped[int] = mapped_column(BigInteger, nullable=False)
    messages: Mapped[int] = mapped_column(BigInteger, nullable=False)
    bytes: Mapped[int] = mapped_column(BigInteger, nullable=False)


class NamespaceRequestWindow(Base):
    """Requests counted in a namespace's current one-minute window (minutes since the epoch)."""

    __tablename__ = "namespace_request_windows"

    namespace_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("namespaces.id", ondelete="CASCADE"), primary_key=True
    )
    window: Mapped[int] = mapped_column(BigInteger, nullable=False)
    requests: Mapped[int] = mapped_column(BigInteger, nullable=False)
