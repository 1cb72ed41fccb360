"""Request and response bodies of the profile endpoints."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from pydantic import create_model

from app.core.memory_types import MemoryType
from app.core.schemas import ApiModel, PageModel


class ProfileOut(ApiModel):
    name: str
    namespace: str
    created_at: datetime


if TYPE_CHECKING:

    class MemoryCounts(ApiModel):
        """Active memories per type (one int field per `MemoryType` value, 0 when none)."""

else:
    # One field per memory type, made from the enum, so a new type is counted without an edit here.
    MemoryCounts = create_model(
        "MemoryCounts", __base__=ApiModel, __module__=__name__, **{t.value: (int, 0) for t in MemoryType}
    )


class ProfileCounts(ApiModel):
    memories: MemoryCounts
    messages: int
    sessions: int
    pending_jobs: int


class ProfileDetail(ProfileOut):
    counts: ProfileCounts


class ProfileList(PageModel):
    profiles: list[ProfileOut]
