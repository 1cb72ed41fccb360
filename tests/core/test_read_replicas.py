"""Read replicas with read-your-writes, against a real streaming replica on loopback.

A throw-away primary and a hot standby made from it with pg_basebackup (the machine's PostgreSQL binaries,
bench/faults/cluster.py) serve an app configured with `AGENT_MEMORY_READ_DATABASE_URLS`. With the replica's
replay paused, a remember's consistency token sends the recall that follows to the primary (it finds the
memory), while a recall without one is served by the replica (it does not); a replica stopped is skipped
(every read answered 200 by the primary) and used again once it is back; one lagging past the bound is
skipped too. Where each read went is read from /metrics, as an operator would.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from app.core.consistency import HEADER
from bench import harness
from bench.faults.cluster import Cluster
from tests.conftest import admin_client, make_settings, started_app


@dataclass
class Pair:
    primary: Cluster
    replica: Cluster
    primary_url: str
    replica_url: str


@pytest.fixture(scope="module")
def pair() -> Iterator[Pair]:
    primary, replica = Cluster(), Cluster()
    try:
        primary.start()
        asyncio.run(harness.create_database(primary.url, "agent_memory", exact=True))
        replica.start_replica_of(primary)
        yield Pair(
            primary, replica, primary.database_url("agent_memory"), replica.database_url("agent_memory")
        )
    finally:
        replica.stop()
        primary.stop()


@pytest.fixture(scope="module")
async def app(pair: Pair) -> AsyncIterator[FastAPI]:
    # A generous bound: the replica is paused for a while in the read-your-writes test.
    settings = make_settings(
        pair.primary_url, read_database_urls=pair.replica_url, read_replica_max_lag_seconds=60.0
    )
    async with started_app(settings) as application:
        yield application


@pytest.fixture(scope="module")
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with admin_client(app) as c:
        yield c


async def routed(client: httpx.AsyncClient) -> dict[tuple[str, str], float]:
    """agent_memory_read_routing_total by (target, reason), as /metrics shows it."""
    text = (await client.get("/metrics")).text
    found: dict[tuple[str, str], float] = {}
    for labels, value in re.findall(r"agent_memory_read_routing_total\{([^}]*)\} (\S+)", text):
        named = dict(re.findall(r'(\w+)="(\w+)"', labels))
        found[(named["target"], named["reason"])] = float(value)
    return found


def grew(before: dict[tuple[str, str], float], after: dict[tuple[str, str], float]) -> dict[str, float]:
    return {
        f"{t}/{r}": after[(t, r)] - before.get((t, r), 0.0)
        for t, r in after
        if after[(t, r)] > before.get((t, r), 0.0)
    }


async def until_replica_has(client: httpx.AsyncClient, token: str, timeout: float = 30) -> None:
    """Wait until a read carrying `token` is served by the replica (it has replayed that write)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        before = await routed(client)
        r = await client.post(
            "/v1/namespaces/absent/profiles/p/recall", json={"query": "x"}, headers={HEADER: token}
        )
        assert r.status_code == 404, r.text
        if grew(before, await routed(client)).get("replica/ok"):
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the replica never replayed the write")


async def set_up_profile(client: httpx.AsyncClient, ns: str) -> str:
    """A namespace and a profile with one memory, replayed on the replica; the last write's token."""
    created = await client.post("/v1/namespaces", json={"name": ns})
    assert created.status_code == 201, created.text
    assert created.headers[HEADER].startswith("v1.")
    r = await client.post(
        f"/v1/namespaces/{ns}/profiles/p/remember", json={"content": "I keep bees on the roof."}
    )
    assert r.status_code == 201, r.text
    await until_replica_has(client, r.headers[HEADER])
    return r.headers[HEADER]


async def replay(pair: Pair, action: str) -> None:
    conn = await asyncpg.connect(pair.replica_url)
    try:
        await conn.execute(f"SELECT pg_wal_replay_{action}()")
    finally:
        await conn.close()


async def test_a_recall_with_the_token_finds_the_memory_while_the_replica_lags(
    client: httpx.AsyncClient, pair: Pair
) -> None:
    ns = "ryw"
    await set_up_profile(client, ns)
    profile = f"/v1/namespaces/{ns}/profiles/p"
    await replay(pair, "pause")
    try:
        written = await client.post(
            f"{profile}/remember", json={"content": "My sister Anna moved to Lisbon."}
        )
        assert written.status_code == 201, written.text
        token = written.headers[HEADER]
        question = {"query": "Where did Anna move?", "minScore": 0}

        before = await routed(client)
        with_token = await client.post(f"{profile}/recall", json=question, headers={HEADER: token})
        listed = await client.get(f"{profile}/memories", headers={HEADER: token})
        got = await client.get(f"{profile}/memories/{written.json()['id']}", headers={HEADER: token})
        assert grew(before, await routed(client)) == {"primary/token_ahead": 3}
        assert "Lisbon" in str(with_token.json()["candidates"]), with_token.text
        assert len(listed.json()["memories"]) == 2, listed.text
        assert got.status_code == 200, got.text

        # Without the token: the replica, which has not replayed the write (stale by design).
        before = await routed(client)
        without = await client.post(f"{profile}/recall", json=question)
        assert without.status_code == 200, without.text
        assert "Lisbon" not in str(without.json()["candidates"])
        missing = await client.get(f"{profile}/memories/{written.json()['id']}")
        assert missing.status_code == 404
        assert grew(before, await routed(client)) == {"replica/ok": 2}
    finally:
        await replay(pair, "resume")
    await until_replica_has(client, token)
    found = await client.post(f"{profile}/recall", json=question)
    assert "Lisbon" in str(found.json()["candidates"])


async def test_reads_without_a_token_go_to_the_replica_on_every_replica_route(
    client: httpx.AsyncClient,
) -> None:
    """Every route declared a read that may lag answers from the replica (a route that wrote would fail
    there: a hot standby refuses writes)."""
    ns = "routes"
    profile = f"/v1/namespaces/{ns}/profiles/p"
    await set_up_profile(client, ns)
    ingested = await client.post(
        f"{profile}/ingest",
        json={"sessionId": "s1", "messages": [{"role": "user", "content": "I play the cello."}]},
    )
    assert ingested.status_code == 202, ingested.text
    await until_replica_has(client, ingested.headers[HEADER])
    message_id = (await client.get(f"{profile}/sessions/s1/history")).json()["messages"][0]["id"]
    memory_id = (await client.get(f"{profile}/memories")).json()["memories"][0]["id"]
    reads = [
        ("POST", f"{profile}/recall", {"query": "cello"}),
        ("POST", f"{profile}/summary", None),
        ("GET", f"{profile}/memories", None),
        ("GET", f"{profile}/memories/{memory_id}", None),
        ("GET", f"{profile}/memories/{memory_id}/history", None),
        ("GET", f"{profile}/sessions", None),
        ("GET", f"{profile}/sessions/s1", None),
        ("GET", f"{profile}/sessions/s1/history", None),
        ("GET", f"{profile}/sessions/s1/leaf", None),
        ("GET", f"{profile}/sessions/s1/messages/{message_id}", None),
        ("GET", f"{profile}/sessions/s1/messages/{message_id}/branches", None),
        ("GET", f"{profile}/sessions/s1/search?q=cello", None),
        ("GET", f"{profile}/search?q=cello", None),
        ("GET", f"{profile}/sessions/s1/compactions", None),
        ("GET", f"/v1/namespaces/{ns}/export", None),
    ]
    before = await routed(client)
    for method, url, body in reads:
        r = await client.request(method, url, json=body)
        assert r.status_code == 200, (url, r.text)
        assert HEADER not in r.headers  # a read answers no token
    assert grew(before, await routed(client)) == {"replica/ok": len(reads)}


async def test_a_stopped_replica_is_skipped_and_used_again_once_back(
    client: httpx.AsyncClient, pair: Pair
) -> None:
    ns = "stopped"
    token = await set_up_profile(client, ns)
    profile = f"/v1/namespaces/{ns}/profiles/p"
    await asyncio.to_thread(pair.replica.halt, "fast")
    try:
        statuses: list[int] = []
        before = await routed(client)
        for _ in range(20):
            r = await client.post(f"{profile}/recall", json={"query": "bees", "minScore": 0})
            statuses.append(r.status_code)
            assert "bees" in str(r.json()["candidates"]), r.text
            listed = await client.get(f"{profile}/memories")
            statuses.append(listed.status_code)
        assert statuses == [200] * 40
        assert set(grew(before, await routed(client))) == {"primary/replica_down"}
    finally:
        await asyncio.to_thread(pair.replica.start_again)
    await until_replica_has(client, token)
    before = await routed(client)
    r = await client.get(f"{profile}/memories")
    assert r.status_code == 200
    assert grew(before, await routed(client)) == {"replica/ok": 1}


async def test_a_replica_lagging_past_the_bound_is_skipped(pair: Pair) -> None:
    settings = make_settings(
        pair.primary_url, read_database_urls=pair.replica_url, read_replica_max_lag_seconds=1.0
    )
    async with started_app(settings) as application, admin_client(application) as client:
        token = await set_up_profile(client, "lagging")
        profile = "/v1/namespaces/lagging/profiles/p"
        await replay(pair, "pause")
        try:
            r = await client.post(f"{profile}/remember", json={"content": "The boiler was serviced in May."})
            assert r.status_code == 201
            await asyncio.sleep(2.0)  # past the bound, a few checks later
            before = await routed(client)
            recalled = await client.post(f"{profile}/recall", json={"query": "boiler", "minScore": 0})
            assert "boiler" in str(recalled.json()["candidates"])  # no token, yet not stale past the bound
            assert grew(before, await routed(client)) == {"primary/replica_lagging": 1}
        finally:
            await replay(pair, "resume")
        await until_replica_has(client, token)
