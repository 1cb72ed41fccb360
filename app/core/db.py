"""Database engine and the request's unit of work: one AsyncSession per request, committed by its dependency.

The pool's wait and a new connection's handshake are bounded by settings, so a saturated or restarting
database fails a request within seconds (503, see `app.core.unavailable`) instead of half a minute. Also the one database limit a
client can reach with text of an allowed size: a full-text index entry (`tsvector`) over 1 MiB, turned
into a 422 where such text is written.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Annotated, Any, TypeVar

import asyncpg
from fastapi import Depends, Request
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from app.core.errors import ValidationFailed
from app.core.settings import Settings
from app.core.unavailable import database_unavailable

__all__ = [
    "DbSession",
    "ReleaseDb",
    "database_unavailable",
    "driver_connection",
    "indexed_text_fits",
    "read_only",
]

# SQLSTATE program_limit_exceeded: here "string is too long for tsvector" (the index of one text > 1 MiB).
PROGRAM_LIMIT_EXCEEDED = "54000"


class TextTooLarge(ValidationFailed):
    def __init__(self, loc: list[str | int]) -> None:
        detail = "text too large to index for search: its full-text index would pass PostgreSQL's 1 MiB limit"
        super().__init__(detail, [{"loc": loc, "msg": detail}], code="text_too_large")


@contextmanager
def indexed_text_fits(loc: list[str | int]) -> Iterator[None]:
    """Around a write of full-text indexed text: the index's size cannot be told from the text's length
    (hyphenated words index several times), so PostgreSQL's own refusal is what tells it is too large."""
    try:
        yield
    except DBAPIError as exc:
        if getattr(exc.orig, "sqlstate", None) == PROGRAM_LIMIT_EXCEEDED:
            raise TextTooLarge(loc) from exc
        raise
    except asyncpg.PostgresError as exc:  # a statement run on the driver's connection (`driver_connection`)
        if getattr(exc, "sqlstate", None) == PROGRAM_LIMIT_EXCEEDED:
            raise TextTooLarge(loc) from exc
        raise


def create_engine(url: str, settings: Settings) -> AsyncEngine:
    return create_async_engine(
        url,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        # A saturated pool sheds load: past this wait a request answers 503 instead of queueing for 30 s.
        pool_timeout=settings.db_pool_timeout_seconds,
        # A server that accepts TCP but never finishes the handshake (starting up, overloaded) fails
        # the request within this bound rather than asyncpg's default minute.
        connect_args={"timeout": settings.db_connect_timeout_seconds},
        # No ping before every checkout (a round trip per request): a dead connection fails its request
        # with 503 instead, and the pool drops it; recycling keeps idle connections from going stale.
        pool_pre_ping=False,
        pool_recycle=1800,
    )


@asynccontextmanager
async def driver_connection(engine: AsyncEngine) -> AsyncIterator[Any]:
    """A pooled connection's own asyncpg connection, for a hot path that is one autocommit statement.

    No BEGIN/COMMIT round trips and no SQLAlchemy statement processing: what remember needs to stay near
    a raw INSERT's cost. The statement is its own unit of work (it commits on its own); anything that must
    be atomic with it runs inside `conn.transaction()`. Typed `Any` because asyncpg ships no type hints for
    its connection's methods.
    """
    async with engine.connect() as conn:
        raw = await conn.get_raw_connection()
        yield raw.driver_connection


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


_READ_ONLY = "agent_memory_read_only"
Endpoint = TypeVar("Endpoint", bound=Callable[..., object])


def read_only(endpoint: Endpoint) -> Endpoint:
    """Mark a route that only reads: its statements run in autocommit, each on its own snapshot, which
    spares the BEGIN and COMMIT round trips of a transaction around them (recall's hot path). Only for
    routes whose reads need not agree with each other to the row."""
    setattr(endpoint, _READ_ONLY, True)
    return endpoint


async def get_db(request: Request) -> AsyncIterator[AsyncSession]:
    """The request's unit of work: committed before the response is sent, rolled back on any error
    (autocommit for routes marked `read_only`)."""
    maker: async_sessionmaker[AsyncSession] = request.app.state.sessionmaker
    async with maker() as session:
        if getattr(getattr(request.scope.get("route"), "endpoint", None), _READ_ONLY, False):
            await session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        try:
            yield session
            await session.commit()
        except BaseException:
            await session.rollback()
            raise


# scope="function": the commit happens before the response is sent, so a 2xx means committed.
DbSession = Annotated[AsyncSession, Depends(get_db, scope="function")]


async def get_release(db: DbSession) -> Callable[[], Awaitable[None]]:
    """A route's way to end the database part of its unit of work before an outside (LLM) call.

    Calling it commits what the request did so far and returns the connection to the pool, so the slow
    call that follows holds none. The request's session stays usable: a later statement starts a new
    transaction, committed (or rolled back) by `get_db` as usual.
    """

    async def release() -> None:
        await db.commit()

    return release


ReleaseDb = Annotated[Callable[[], Awaitable[None]], Depends(get_release)]
