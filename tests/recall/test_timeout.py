"""A recall statement past `recall_timeout_seconds` is cancelled and answered 503 with Retry-After, so a
plan gone wrong (or a lock held too long) cannot keep a connection, and with it the pool, for minutes; the
connection serves the next recall.

Recall has one path: the REST route, the MCP `recall` tool and the session tool `recall_memory` all run it
with the configured bounds. Set to 0.5 s (the default is 10 s), each entry point answers "unavailable"
while a lock holds recall's reads, although the lock is released 3 s after the call starts: with the
default bound each would have waited for the release and answered."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import httpx

from app.core.settings import to_plain_url
from tests.conftest import ADMIN_KEY, admin_client, make_settings, new_namespace, started_app
from tests.mcp.test_mcp import mcp_client
from tests.sessions.helpers import new_session

RELEASED_AFTER = 3.0  # seconds: far past the configured bound, far before the default one


@asynccontextmanager
async def memories_locked(database_url: str) -> AsyncIterator[None]:
    """Recall's reads wait behind this lock as behind a statement that never ends; it is released
    RELEASED_AFTER seconds after the block starts, or when it ends."""
    holder = await asyncpg.connect(to_plain_url(database_url))
    locked = holder.transaction()
    await locked.start()
    await holder.execute("LOCK TABLE memories IN ACCESS EXCLUSIVE MODE")

    async def release_later() -> None:
        await asyncio.sleep(RELEASED_AFTER)
        await locked.rollback()

    releaser = asyncio.create_task(release_later())
    try:
        yield
    finally:
        await releaser
        await holder.close()


async def profile_keeping_bees(client: httpx.AsyncClient) -> tuple[str, str]:
    """A new namespace, and the URL of its profile holding one memory."""
    ns = await new_namespace(client)
    base = f"/v1/namespaces/{ns}/profiles/p"
    remembered = await client.post(f"{base}/remember", json={"content": "I keep bees on the North Shore."})
    assert remembered.status_code == 201, remembered.text
    return ns, base


async def test_a_recall_past_its_bound_answers_503_and_the_next_one_is_answered(database_url: str) -> None:
    settings = make_settings(database_url, recall_timeout_seconds=0.5, db_pool_size=1, db_max_overflow=0)
    async with started_app(settings) as app, admin_client(app) as client:
        _, base = await profile_keeping_bees(client)
        async with memories_locked(database_url):
            stuck = await client.post(f"{base}/recall", json={"query": "bees"})
        assert stuck.status_code == 503, stuck.text
        assert stuck.json()["code"] == "unavailable"
        assert stuck.headers["Retry-After"]
        answered = await client.post(f"{base}/recall", json={"query": "bees"})
        assert answered.status_code == 200, answered.text
        assert answered.json()["count"] == 1


async def while_locked(database_url: str, call: Callable[[], Awaitable[Any]]) -> Any:
    async with memories_locked(database_url):
        return await call()


async def test_each_entry_point_recalls_with_the_configured_timeout(database_url: str) -> None:
    settings = make_settings(database_url, recall_timeout_seconds=0.5)
    async with started_app(settings) as app, admin_client(app) as client:
        ns = await new_namespace(client)
        base = f"/v1/namespaces/{ns}/profiles/p"
        remembered = await client.post(
            f"{base}/remember", json={"content": "I keep bees on the North Shore."}
        )
        assert remembered.status_code == 201, remembered.text
        defined = await client.put(f"{base}/context/memory", json={"kind": "summary"})
        assert defined.status_code == 201, defined.text
        session_url = f"{base}/sessions/{await new_session(client, base)}"

        async def rest() -> httpx.Response:
            return await client.post(f"{base}/recall", json={"query": "bees"})

        stuck = await while_locked(database_url, rest)
        assert stuck.status_code == 503 and stuck.json()["code"] == "unavailable", stuck.text

        async def session_tool() -> httpx.Response:
            return await client.post(
                f"{session_url}/tools/recall_memory", json={"arguments": {"query": "bees"}}
            )

        stuck = await while_locked(database_url, session_tool)
        assert stuck.status_code == 503 and stuck.json()["code"] == "unavailable", stuck.text

        async with mcp_client(app, authorization=f"Bearer {ADMIN_KEY}") as mcp:

            async def mcp_tool() -> Any:
                return await mcp.call_tool("recall", {"query": "bees", "namespace": ns, "profile": "p"})

            failed = await while_locked(database_url, mcp_tool)
            assert failed.is_error and failed.structured_content["code"] == "unavailable", failed.content

            # Unlocked, each answers.
            answered = await mcp_tool()
            assert not answered.is_error and answered.structured_content["count"] == 1
        assert (await rest()).json()["count"] == 1
        assert "bees" in (await session_tool()).json()["result"]
