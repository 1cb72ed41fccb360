"""Request and response bodies of a namespace's quotas."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.schemas import BIGINT_MAX, ApiModel, RequestModel

# The largest limit a column holds (PostgreSQL's bigint): a larger one is a 422, not the database's overflow.
_OWN = "The namespace's own limit: null takes the server's default (AGENT_MEMORY_QUOTA_*), 0 is no limit."


class QuotaSettings(RequestModel):
    """A namespace's own limits, all four replaced at once (a field left out is null: the server's default)."""

    memories: int | None = Field(default=None, ge=0, le=BIGINT_MAX, description="Active memories. " + _OWN)
    messages: int | None = Field(default=None, ge=0, le=BIGINT_MAX, description="Session messages. " + _OWN)
    bytes: int | None = Field(
        default=None,
        ge=0,
        le=BIGINT_MAX,
        description="Bytes of memories' content and messages' parts as stored. " + _OWN,
    )
    requests_per_minute: int | None = Field(
        default=None,
        ge=0,
        le=BIGINT_MAX,
        description="Requests of the namespace's keys in one minute. " + _OWN,
    )


class Quota(ApiModel):
    limit: int | None = Field(description="The limit in force; null: no limit.")
    usage: int = Field(description="What the namespace holds now (requestsPerMinute: requests this minute).")
    source: Literal["namespace", "server"] = Field(
        description="Where the limit comes from: the namespace's own, or the server's default."
    )


class NamespaceQuotas(ApiModel):
    namespace: str
    memories: Quota
    messages: Quota
    bytes: Quota
    requests_per_minute: Quota
