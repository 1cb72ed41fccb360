"""Every job kind's typed payload and typed result: the contract between who enqueues a job and its handler.

A payload model names its kind (`kind`), so `queue.enqueue(db, payload, …)` needs nothing else to know what
it queues, and the registry knows which model to validate a stored payload with. A handler returns a
`JobResult`; the worker stores it as the job's JSON `result` (camelCase keys, as the API speaks).

Adding a kind: a payload (and, if it reports something, a result) here, a handler module decorated with
`@registry.job(ThatPayload)`, and that module's path in `registry.JOB_MODULES`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class _CamelModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)


class JobPayload(_CamelModel):
    """What a job needs beyond its profile and session (which are columns of `jobs`)."""

    kind: ClassVar[str]
    # Where a job of this kind stands in the claim order: as if it had been queued this much later. A kind
    # whose work can follow (vectors improve recall; extraction is what makes memories recallable at all)
    # waits behind the others, yet only for so long: a job queued more than this before another is claimed
    # first all the same, so a queue that never empties still runs it.
    claim_delay_seconds: ClassVar[float] = 0.0


class JobResult(_CamelModel):
    """What a finished job reports. `memoriesCreated` is what GET /jobs/{id} shows for every kind."""

    memories_created: int = 0


# -- extraction -------------------------------------------------------------------------------------


class ExtractPayload(JobPayload):
    """New messages of one session to turn into memories. Queued jobs of a session coalesce: ids add up."""

    kind: ClassVar[str] = "extract"
    message_ids: list[str] = Field(default_factory=list)


class ExtractResult(JobResult):
    # Memories the job's extraction made past its bound (MEMORIES_PER_JOB), not stored.
    memories_over_bound: int = 0
    # Memories it made that the namespace's memories or bytes quota left no room for (app.quotas).
    memories_over_quota: int = 0


# -- purge ------------------------------------------------------------------------------------------


class PurgePayload(JobPayload):
    """Physically remove a soft-deleted profile (its profile id is the job's)."""

    kind: ClassVar[str] = "purge_profile"


class PurgeResult(JobResult):
    rows_deleted: int = 0


# -- compaction -------------------------------------------------------------------------------------


class CompactPayload(JobPayload):
    """Automatic compaction of a session whose token estimate passed its `compactAfter`."""

    kind: ClassVar[str] = "compact"
    tail_token_budget: int = Field(default=20_000, ge=0)


class CompactResult(JobResult):
    compaction_id: str | None = None  # None: nothing to compact when the job ran


# -- embedding --------------------------------------------------------------------------------------


class EmbedPayload(JobPayload):
    """Vectors for the profile's memories that have none of the configured model yet (one job per profile:
    queued ones coalesce, and each run embeds whatever is missing then)."""

    kind: ClassVar[str] = "embed"
    claim_delay_seconds: ClassVar[float] = 60.0


class EmbedResult(JobResult):
    vectors_stored: int = 0


EXTRACT = ExtractPayload.kind
PURGE_PROFILE = PurgePayload.kind
COMPACT = CompactPayload.kind
