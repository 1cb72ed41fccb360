"""What a job handler is given: settings, the unit of work it writes through, per-worker clients.

`ctx.transaction()` is the handler's unit of work: it commits when the block ends and rolls back when it
raises, so handlers never commit by hand. A handler that calls an LLM (or any outside service) does so
between two such blocks, never inside one: no connection is held while it waits.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.settings import Settings

if TYPE_CHECKING:
    from app.llm.client import LlmClient


class Closeable(Protocol):
    """A client the context closes when the worker stops (LLM client, embedder)."""

    async def aclose(self) -> None: ...


C = TypeVar("C", bound=Closeable)


class PermanentJobError(Exception):
    """A failure that retrying cannot fix: the job goes straight to `failed`."""


@dataclass(frozen=True)
class JobInfo:
    """The claimed job as its handler sees it (the payload comes typed, separately)."""

    id: str
    kind: str
    profile_id: int | None
    session_id: str | None
    attempts: int

    def require_profile(self) -> int:
        if self.profile_id is None:
            raise PermanentJobError(f"{self.kind} job without a profile")
        return self.profile_id

    def require_session(self) -> tuple[int, str]:
        if self.profile_id is None or self.session_id is None:
            raise PermanentJobError(f"{self.kind} job needs a profile and a session")
        return self.profile_id, self.session_id


@dataclass
class JobContext:
    settings: Settings
    sessionmaker: async_sessionmaker[AsyncSession]
    cache: dict[str, Any] = field(default_factory=dict)  # per-worker objects (extractor, LLM client)
    # Closed on stop; a client handed in by the API process stays the lifespan's to close.
    owned: list[Closeable] = field(default_factory=list)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A unit of work: committed when the block ends, rolled back if it raises."""
        async with self.sessionmaker() as db:
            try:
                yield db
                await db.commit()
            except BaseException:
                await db.rollback()
                raise

    def shared(self, key: str, build: Callable[[], C | None]) -> C | None:
        """The worker's one `key` client (LLM, embedder), built on first use and closed when the worker
        stops; None (remembered too) when it is not configured."""
        if key not in self.cache:
            client = build()
            self.cache[key] = client
            if client is not None:
                self.owned.append(client)
        found: C | None = self.cache[key]
        return found

    def llm(self) -> LlmClient | None:
        """The worker's LLM client; None when no LLM is configured."""
        from app.llm.client import LlmClient

        return self.shared("llm", lambda: LlmClient.from_settings(self.settings))

    async def close(self) -> None:
        """Close the clients this context created (called when the worker stops)."""
        while self.owned:
            await self.owned.pop().aclose()
        self.cache.clear()
