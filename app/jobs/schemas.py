"""Response bodies of the job endpoints."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from app.core.schemas import ApiModel, PageModel

JobState = Literal["queued", "running", "done", "failed"]


class JobOut(ApiModel):
    id: str
    kind: str
    status: JobState
    attempts: int
    memories_created: int
    memories_over_bound: int = Field(
        default=0,
        description="Memories an extraction made past its bound (2,000 a job, 100 a message), not stored.",
    )
    memories_over_quota: int = Field(
        default=0,
        description="Memories an extraction made that were not stored because the namespace's memories or "
        "bytes quota was reached (its messages are kept).",
    )
    error: str | None = None
    created_at: datetime
    finished_at: datetime | None = None


class JobList(PageModel):
    jobs: list[JobOut]
