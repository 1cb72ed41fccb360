"""Job handlers by kind. Each takes its own short transactions; none holds a connection across slow calls."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.settings import Settings
from app.worker import queue

if TYPE_CHECKING:
    from app.llm.client import LlmClient


class PermanentJobError(Exception):
    """A failure that retrying cannot fix: the job goes straight to `failed`."""


@dataclass
class JobContext:
    settings: Settings
    sessionmaker: async_sessionmaker[AsyncSession]
    cache: dict[str, Any] = field(default_factory=dict)  # per-worker objects (extractor, LLM client)
    # Closed on stop; a client handed in by the API process stays the lifespan's to close.
    owned: list[LlmClient] = field(default_factory=list)

    def llm(self) -> LlmClient | None:
        """The worker's LLM client, created on first use; None when no LLM is configured."""
        if "llm" not in self.cache:
            from app.llm.client import LlmClient

            client = LlmClient.from_settings(self.settings)
            self.cache["llm"] = client
            if client is not None:
                self.owned.append(client)
        client_or_none: LlmClient | None = self.cache["llm"]
        return client_or_none

    async def close(self) -> None:
        """Close the clients this context created (called when the worker stops)."""
        while self.owned:
            await self.owned.pop().aclose()
        self.cache.clear()


Handler = Callable[[JobContext, int | None, str | None, dict[str, Any]], Awaitable[int]]

PURGE_BATCH = 5000

# Children first, in batches, so purging a huge profile never holds one giant transaction.
_PURGE_STEPS = [
    "DELETE FROM memory_sources WHERE ctid IN "
    "(SELECT ctid FROM memory_sources WHERE profile_id = :p LIMIT :n)",
    "DELETE FROM memories WHERE ctid IN (SELECT ctid FROM memories WHERE profile_id = :p LIMIT :n)",
    "DELETE FROM messages WHERE ctid IN (SELECT ctid FROM messages WHERE profile_id = :p LIMIT :n)",
]


async def purge_profile(
    ctx: JobContext, profile_id: int | None, _sid: str | None, _payload: dict[str, Any]
) -> int:
    if profile_id is None:
        raise PermanentJobError("purge job without a profile")
    for step in _PURGE_STEPS:
        while True:
            async with ctx.sessionmaker() as db:
                result = await db.execute(text(step), {"p": profile_id, "n": PURGE_BATCH})
                await db.commit()
            if getattr(result, "rowcount", 0) < PURGE_BATCH:
                break
    async with ctx.sessionmaker() as db:
        # The profile row last: its foreign keys cascade whatever small per-profile rows remain.
        await db.execute(
            text(
                "DELETE FROM jobs WHERE profile_id = :p AND status IN ('queued', 'failed', 'done') "
                "AND kind <> :kind"
            ),
            {"p": profile_id, "kind": queue.PURGE_PROFILE},
        )
        await db.execute(
            text("DELETE FROM profiles WHERE id = :p AND deleted_at IS NOT NULL"), {"p": profile_id}
        )
        await db.commit()
    return 0


HANDLERS: dict[str, Handler] = {}


def load_handlers() -> dict[str, Handler]:
    """Fill the registry on first use: the domain handlers import the worker, so not at import time."""
    from app.embeddings.job import EMBED, run_embedding
    from app.memories.extraction_job import run_extraction

    HANDLERS.update({queue.PURGE_PROFILE: purge_profile, queue.EXTRACT: run_extraction})
    HANDLERS[EMBED] = run_embedding
    return HANDLERS
