"""A recall statement past `recall_timeout_seconds` is cancelled and answered 503 with Retry-After, so a
plan gone wrong (or a lock held too long) cannot keep a connection, and with it the pool, for minutes; the
connection serves the next recall."""

from __future__ import annotations

import asyncpg

from app.core.settings import to_plain_url
from tests.conftest import admin_client, make_settings, new_namespace, started_app


async def test_a_recall_past_its_bound_answers_503_and_the_next_one_is_answered(database_url: str) -> None:
    settings = make_settings(database_url, recall_timeout_seconds=0.5, db_pool_size=1, db_max_overflow=0)
    async with started_app(settings) as app, admin_client(app) as client:
        ns = await new_namespace(client)
        base = f"/v1/namespaces/{ns}/profiles/p"
        remembered = await client.post(
            f"{base}/remember", json={"content": "I keep bees on the North Shore."}
        )
        assert remembered.status_code == 201, remembered.text
        holder = await asyncpg.connect(to_plain_url(database_url))
        try:
            # Recall's reads wait behind this lock as behind a statement that never ends.
            locked = holder.transaction()
            await locked.start()
            await holder.execute("LOCK TABLE memories IN ACCESS EXCLUSIVE MODE")
            stuck = await client.post(f"{base}/recall", json={"query": "bees"})
            assert stuck.status_code == 503, stuck.text
            assert stuck.json()["code"] == "unavailable"
            assert stuck.headers["Retry-After"]
            await locked.rollback()
        finally:
            await holder.close()
        answered = await client.post(f"{base}/recall", json={"query": "bees"})
        assert answered.status_code == 200, answered.text
        assert answered.json()["count"] == 1
