"""The Python client carries the consistency token for its user, against a real streaming replica (the
primary and hot standby of tests/core/test_read_replicas.py, whose fixtures this module reuses): with the
replica's replay paused, a `recall` right after a `remember` on the same `AsyncMemoryClient` finds the new
memory (its token sent the read to the primary), while a client that wrote nothing is served by the lagging
replica and does not."""

from __future__ import annotations

import httpx
from agent_memory_client import AsyncMemoryClient
from fastapi import FastAPI

from tests.conftest import ADMIN_KEY, admin_client
from tests.core.test_read_replicas import Pair, app, pair, replay, until_replica_has

__all__ = ["app", "pair"]  # the replica pair and the app reading from it, as module fixtures here


def client_of(application: FastAPI) -> AsyncMemoryClient:
    return AsyncMemoryClient(
        "http://test",
        api_key=ADMIN_KEY,
        namespace="ryw-client",
        transport=httpx.ASGITransport(app=application),
    )


async def test_recall_after_remember_reads_its_own_write(app: FastAPI, pair: Pair) -> None:
    async with client_of(app) as memory, client_of(app) as stranger, admin_client(app) as raw:
        await memory.create_namespace("ryw-client")
        await memory.remember("p", "I keep bees on the roof.")
        assert memory.consistency.value is not None
        await until_replica_has(raw, memory.consistency.value)

        await replay(pair, "pause")
        try:
            written = await memory.remember("p", "My sister Anna moved to Lisbon.")
            found = await memory.recall("p", "Where did Anna move?", min_score=0)
            assert written.id in [c.id for c in found.candidates], found
            assert (await memory.get("p", written.id)).content == "My sister Anna moved to Lisbon."

            stale = await stranger.recall("p", "Where did Anna move?", min_score=0)
            assert stranger.consistency.value is None
            assert written.id not in [c.id for c in stale.candidates]
        finally:
            await replay(pair, "resume")
