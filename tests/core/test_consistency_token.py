"""The consistency token's position: read once for many concurrent writes (`PositionReader`), yet never
before a write that asked for it had committed: every token is at or past the position the primary had
once its write was committed, read on the write's own connection."""

from __future__ import annotations

import asyncio

import asyncpg
from sqlalchemy.ext.asyncio import AsyncEngine

from app.core.consistency import PositionReader, decode, encode, primary_position
from app.core.db import create_engine
from app.core.settings import Settings, to_async_url


async def test_concurrent_writes_each_get_a_position_past_their_commit(settings: Settings) -> None:
    url = settings.database_url or ""
    engine = create_engine(to_async_url(url), settings)

    async def slow_read(engine: AsyncEngine) -> int:
        # A read whose answer comes back late (a busy server, a long network path): writes commit
        # meanwhile, and must not be given its position.
        position = await primary_position(engine)
        await asyncio.sleep(0.05)
        return position

    reader = PositionReader(engine, slow_read)
    connections = [await asyncpg.connect(url) for _ in range(12)]
    try:
        await connections[0].execute("CREATE TABLE IF NOT EXISTS token_probe (n bigint)")

        async def write(conn: asyncpg.Connection, n: int) -> tuple[int, int]:
            await asyncio.sleep(n % 100 * 0.01)  # staggered: writes commit while a read is in flight
            await conn.execute("INSERT INTO token_probe VALUES ($1)", n)  # committed on its own
            committed = await conn.fetchval("SELECT (pg_current_wal_insert_lsn() - '0/0')::bigint")
            return int(committed), await reader.position()

        for round_ in range(5):
            results = await asyncio.gather(*(write(c, round_ * 100 + i) for i, c in enumerate(connections)))
            assert all(position >= committed for committed, position in results), results
    finally:
        await connections[0].execute("DROP TABLE IF EXISTS token_probe")
        for c in connections:
            await c.close()
        await engine.dispose()


def test_a_token_round_trips_and_an_unreadable_one_means_the_primary() -> None:
    assert decode(encode(0x30FB180)) == 0x30FB180
    assert decode("garbage") > 1 << 63  # no replica has replayed that far: the read is the primary's
    assert decode("v2.abc") > 1 << 63
