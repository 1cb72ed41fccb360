"""Request and response bodies of the profile endpoints."""

from __future__ import annotations

from datetime import datetime

from app.core.schemas import ApiModel, Page


class ProfileOut(ApiModel):
    name: str
    namespace: str
    created_at: datetime


class MemoryCounts(ApiModel):
    fact: int = 0
    event: int = 0
    instruction: int = 0
    task: int = 0


class ProfileCounts(ApiModel):
    memories: MemoryCounts
    messages: int
    sessions: int
    pending_jobs: int


class ProfileDetail(ProfileOut):
    counts: ProfileCounts


class ProfileList(Page):
    profiles: list[ProfileOut]
