"""The background job queue (outbox): extraction, purge and compaction jobs claimed by workers."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, Index, Integer, String, Text, text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.models.base import Base, created_at_column, updated_at_column


class Job(Base):
    __tablename__ = "jobs"

    id: Mapped[str] = mapped_column(String(26), primary_key=True)  # ULID: sorts by creation
    kind: Mapped[str] = mapped_column(String(32), nullable=False)
    profile_id: Mapped[int | None] = mapped_column(BigInteger)
    session_id: Mapped[str | None] = mapped_column(String(64))
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False, server_default=text("'{}'"))
    status: Mapped[str] = mapped_column(String(16), nullable=False, server_default=text("'queued'"))
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default=text("0"))
    # NULL: the worker's AGENT_MEMORY_JOB_MAX_ATTEMPTS; a number overrides it for this job.
    max_attempts: Mapped[int | None] = mapped_column(Integer)
    run_after: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, server_default=text("now()")
    )
    locked_by: Mapped[str | None] = mapped_column(String(100))
    locked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    # Queued jobs with the same key coalesce into one (e.g. extraction of one session).
    dedupe_key: Mapped[str | None] = mapped_column(String(200))
    # The handler's typed result (app.worker.kinds), camelCase JSON; NULL until the job is done.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    created_at: Mapped[datetime] = created_at_column()
    updated_at: Mapped[datetime] = updated_at_column()
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_jobs_queued", "run_after", postgresql_where=text("status = 'queued'")),
        Index("ix_jobs_running_lease", "locked_until", postgresql_where=text("status = 'running'")),
        Index(
            "uq_jobs_queued_dedupe",
            "dedupe_key",
            unique=True,
            postgresql_where=text("status = 'queued' AND dedupe_key IS NOT NULL"),
        ),
        Index("ix_jobs_profile", "profile_id", "session_id", "created_at"),
    )
