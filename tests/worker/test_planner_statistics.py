"""The worker keeps the planner statistics of the tables recall reads fresh: once its jobs have filled
them, they are analysed within seconds, not whenever autovacuum comes round (or never, where it is off);
and a profile the statistics have not seen yet gets them analysed again, not believed empty."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import asyncpg
import httpx

from app.core.settings import to_async_url, to_plain_url
from app.worker.runner import ANALYSED_TABLES, Worker
from tests.conftest import admin_client, fresh_database, make_settings, new_namespace, started_app

_ANALYSES = """
    SELECT relname, analyze_count + autoanalyze_count AS analyses FROM pg_stat_user_tables
    WHERE schemaname = current_schema() AND relname = ANY($1::text[])
"""
_KNOWN_PROFILES = """
    SELECT most_common_vals::text::bigint[] FROM pg_stats
    WHERE schemaname = current_schema() AND tablename = 'memories' AND attname = 'profile_id'
"""
FILLED = ("memories", "memory_sources", "messages")


async def _analyses(conn: asyncpg.Connection) -> dict[str, int]:
    return {row["relname"]: row["analyses"] for row in await conn.fetch(_ANALYSES, ANALYSED_TABLES)}


async def _eventually(check: Callable[[], Awaitable[bool]], seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await check():
            return True
        await asyncio.sleep(0.2)
    return False


async def _ingest(client: httpx.AsyncClient, ns: str, profile: str, count: int) -> None:
    messages = [
        {
            "role": "user" if n % 2 == 0 else "assistant",
            # Named: an unnamed assistant's own story is not a memory about anyone.
            "content": f"{'Ana' if n % 2 == 0 else 'Ben'}: I went to the museum number {n} in Lisbon with my "
            "sister last week.",
        }
        for n in range(count)
    ]
    response = await client.post(
        f"/v1/namespaces/{ns}/profiles/{profile}/ingest", json={"messages": messages, "sessionId": "s1"}
    )
    assert response.status_code == 202, response.text


@dataclass
class _Setup:
    client: httpx.AsyncClient
    ns: str
    conn: asyncpg.Connection  # straight to the database, to read its statistics
    worker: Worker  # not started: each test starts it when its story needs


@asynccontextmanager
async def _fresh_service() -> AsyncIterator[_Setup]:
    """A new database with the app, a namespace, a connection of our own and a worker, all stopped after."""
    async with fresh_database("am_test_stats") as url:
        settings = make_settings(url)
        async with started_app(settings) as app, admin_client(app) as client:
            conn = await asyncpg.connect(to_plain_url(url))
            worker = Worker(settings, app.state.sessionmaker, to_async_url(url), name="stats")
            try:
                yield _Setup(client, await new_namespace(client), conn, worker)
            finally:
                await worker.stop(grace_seconds=5)
                await conn.close()


async def test_tables_a_conversation_filled_are_analysed_once_it_is_extracted() -> None:
    async with _fresh_service() as setup:
        before = await _analyses(setup.conn)
        await _ingest(setup.client, setup.ns, "p", 120)
        await setup.worker.start()

        async def analysed() -> bool:
            after = await _analyses(setup.conn)
            return all(after[t] > before[t] for t in FILLED)

        assert await _eventually(analysed), (before, await _analyses(setup.conn))


async def test_a_profile_the_statistics_have_not_seen_gets_them_analysed_again() -> None:
    async with _fresh_service() as setup:
        await setup.worker.start()
        conn = setup.conn
        await _ingest(setup.client, setup.ns, "first", 400)
        first = await conn.fetchval("SELECT id FROM profiles WHERE name = 'first'")  # created by the ingest

        async def knows(profile_id: int) -> bool:
            return profile_id in (await conn.fetchval(_KNOWN_PROFILES) or [])

        assert await _eventually(lambda: knows(first))
        # Fewer new rows than autovacuum's threshold (50 + a tenth of the table): only the profile the
        # statistics do not know makes them stale.
        await _ingest(setup.client, setup.ns, "second", 80)
        second = await conn.fetchval("SELECT id FROM profiles WHERE name = 'second'")
        assert await _eventually(lambda: knows(second)), await conn.fetchval(_KNOWN_PROFILES)
