"""Request and response bodies of the summary endpoint."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.names import SessionId
from app.core.schemas import ApiModel, RequestModel


class SummaryRequest(RequestModel):
    session_id: SessionId | None = Field(
        default=None, description="The session shown under Last Session; default: the most recent one."
    )
    response_length: Literal["short", "medium", "long"] = Field(
        default="medium",
        description="The budget: about 600 / 2,000 / 4,000 tokens for short / medium (default) / long.",
    )


class SummaryOut(ApiModel):
    summary: str = Field(
        description=(
            "Markdown: `## Instructions`, `## Key Facts`, `## Recent Events`, `## Active Tasks`, "
            "`## Last Session`, empty sections left out; about 2,000 tokens (`responseLength` scales it); "
            '`""` for an empty profile.'
        )
    )
