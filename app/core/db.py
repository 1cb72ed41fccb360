"""Database engine and the request's unit of work: one AsyncSession per request, committed by its dependency."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from app.core.settings import Settings


def create_engine(url: str, settings: Settings) -> AsyncEngine:
    return create_async_engine(
        url,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        # No ping before every checkout (a round trip per request): a dead connection fails its request
        # with 503 instead, and the pool drops it; recycling keeps idle connections from going stale.
        pool_pre_ping=False,
        pool_recycle=1800,
    )


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


async def get_db(request: Request) -> AsyncIterator[AsyncSession]:
    """The request's unit of work: committed before the response is sent, rolled back on any error."""
    maker: async_sessionmaker[AsyncSession] = request.app.state.sessionmaker
    async with maker() as session:
        try:
            yield session
            await session.commit()
        except BaseException:
            await session.rollback()
            raise


# scope="function": the commit happens before the response is sent, so a 2xx means committed.
DbSession = Annotated[AsyncSession, Depends(get_db, scope="function")]
