"""Request and response bodies of the summary endpoint."""

from __future__ import annotations

from pydantic import Field

from app.core.names import SessionId
from app.core.schemas import ApiModel, RequestModel


class SummaryRequest(RequestModel):
    session_id: SessionId | None = Field(
        default=None, description="The session shown under Last Session; default: the most recent one."
    )


class SummaryOut(ApiModel):
    summary: str = Field(
        description=(
            "Markdown: `## Key Facts`, `## Recent Events`, `## Active Tasks`, `## Last Session`, "
            '`## Instructions`, empty sections left out; about 2,000 tokens; `""` for an empty profile.'
        )
    )
