"""The worker keeps the planner statistics of the tables recall reads fresh: once its jobs have filled
them, they are analysed within seconds, not whenever autovacuum comes round (or never, where it is off)."""

from __future__ import annotations

import asyncio
import time

import asyncpg

from app.core.settings import to_async_url, to_plain_url
from app.worker.runner import ANALYSED_TABLES, Worker
from tests.conftest import admin_client, fresh_database, make_settings, new_namespace, started_app

_ANALYSES = """
    SELECT relname, analyze_count + autoanalyze_count AS analyses FROM pg_stat_user_tables
    WHERE schemaname = current_schema() AND relname = ANY($1::text[])
"""


async def _analyses(conn: asyncpg.Connection) -> dict[str, int]:
    return {row["relname"]: row["analyses"] for row in await conn.fetch(_ANALYSES, ANALYSED_TABLES)}


async def test_tables_a_conversation_filled_are_analysed_once_it_is_extracted() -> None:
    async with fresh_database("am_test_stats") as url:
        settings = make_settings(url)
        async with started_app(settings) as app, admin_client(app) as client:
            ns = await new_namespace(client)
            conn = await asyncpg.connect(to_plain_url(url))
            try:
                before = await _analyses(conn)
                messages = [
                    {
                        "role": "user" if n % 2 == 0 else "assistant",
                        "content": f"I went to the museum number {n} in Lisbon with my sister Ana last week.",
                    }
                    for n in range(120)
                ]
                response = await client.post(
                    f"/v1/namespaces/{ns}/profiles/p/ingest", json={"messages": messages, "sessionId": "s1"}
                )
                assert response.status_code == 202, response.text
                worker = Worker(settings, app.state.sessionmaker, to_async_url(url), name="stats")
                await worker.start()
                try:
                    deadline = time.monotonic() + 30
                    while time.monotonic() < deadline:
                        after = await _analyses(conn)
                        fresh = {
                            t for t in ("memories", "memory_sources", "messages") if after[t] > before[t]
                        }
                        if len(fresh) == 3:
                            break
                        await asyncio.sleep(0.2)
                    assert fresh == {"memories", "memory_sources", "messages"}, (before, after)
                finally:
                    await worker.stop(grace_seconds=5)
            finally:
                await conn.close()
