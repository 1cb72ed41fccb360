"""Behind PgBouncer in transaction mode (the Debian package, 1.18: no prepared statements kept across
transactions): with `AGENT_MEMORY_DB_TRANSACTION_POOLER` the app and a worker work through a pool of two
server connections shared by many client connections, and LISTEN goes to PostgreSQL directly
(`AGENT_MEMORY_LISTEN_DATABASE_URL`), so a revoked key is refused at once. The fault suite runs the same
through PgBouncer under SIGKILLs and a PostgreSQL restart (`python -m bench faults --only scaled-pgbouncer`).
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from pydantic import ValidationError

from app.core.settings import Settings
from bench import harness
from bench.faults.cluster import Cluster
from bench.faults.pgbouncer import BINARY, Bouncer
from tests.conftest import admin_client, make_settings, running_worker, started_app

pytestmark = pytest.mark.skipif(
    shutil.which(BINARY) is None and not Path(BINARY).exists(), reason="pgbouncer is not installed"
)


@pytest.fixture(scope="module")
def pooled() -> Iterator[tuple[str, str]]:
    """(the database through PgBouncer, the same database directly)."""
    cluster = Cluster()
    bouncer: Bouncer | None = None
    try:
        cluster.start()
        asyncio.run(harness.create_database(cluster.url, "agent_memory", exact=True))
        bouncer = Bouncer(cluster, pool_size=2)
        bouncer.start()
        yield bouncer.database_url("agent_memory"), cluster.database_url("agent_memory")
    finally:
        if bouncer is not None:
            bouncer.stop()
        cluster.stop()


@pytest.fixture(scope="module")
def settings(pooled: tuple[str, str]) -> Settings:
    through, direct = pooled
    return make_settings(through, db_transaction_pooler=True, listen_database_url=direct)


@pytest.fixture(scope="module")
async def app(settings: Settings) -> AsyncIterator[FastAPI]:
    async with started_app(settings) as application:
        yield application


@pytest.fixture(scope="module")
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with admin_client(app) as c:
        yield c


def test_a_transaction_pooler_needs_a_direct_url_for_listen() -> None:
    with pytest.raises(ValidationError, match="LISTEN_DATABASE_URL"):
        Settings(database_url="postgresql://pooler/db", db_transaction_pooler=True)


async def test_the_api_and_a_worker_work_through_the_pooler(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings
) -> None:
    assert (await client.post("/v1/namespaces", json={"name": "pooled"})).status_code == 201
    profile = "/v1/namespaces/pooled/profiles/p"
    # Many client connections (the app's pool) over two server connections, each statement prepared in
    # its own exchange: concurrent requests must not meet each other's statements.
    remembered = await asyncio.gather(
        *(
            client.post(f"{profile}/remember", json={"content": f"I keep {i} hives of bees."})
            for i in range(30)
        )
    )
    assert [r.status_code for r in remembered] == [201] * 30
    reads = await asyncio.gather(
        *(client.post(f"{profile}/recall", json={"query": "bees", "minScore": 0}) for _ in range(10)),
        *(client.get(f"{profile}/memories?limit=100") for _ in range(10)),
    )
    assert [r.status_code for r in reads] == [200] * 20
    assert len(reads[-1].json()["memories"]) == 30
    ingested = await client.post(
        f"{profile}/ingest",
        json={
            "sessionId": "s1",
            "messages": [{"role": "user", "content": "My daughter Mia plays the cello."}],
        },
    )
    assert ingested.status_code == 202, ingested.text
    async with running_worker(app, settings, "pooled") as worker:
        await worker.drain()
    job = await client.get(f"{profile}/jobs/{ingested.json()['jobId']}")
    assert job.json()["status"] == "done", job.text
    found = await client.post(f"{profile}/recall", json={"query": "Who plays the cello?", "minScore": 0})
    assert "cello" in str(found.json()["candidates"])


async def test_a_key_revoked_by_one_process_is_refused_by_another_at_once(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings
) -> None:
    """Key changes are heard on the direct connection: a second app (another API process, its own key
    cache) refuses a key the first revoked well before its cache entry would expire (5 s)."""
    await client.post("/v1/namespaces", json={"name": "pooled-keys"})
    created = await client.post("/v1/namespaces/pooled-keys/keys", json={"name": "k"})
    assert created.status_code == 201, created.text
    headers = {"Authorization": f"Bearer {created.json()['key']}"}
    async with (
        started_app(settings) as other,
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=other), base_url="http://test", headers=headers
        ) as elsewhere,
    ):
        await asyncio.wait_for(other.state.key_listener.connected.wait(), 10)
        assert (await elsewhere.get("/v1/namespaces/pooled-keys")).status_code == 200  # now cached there
        revoked = await client.delete(f"/v1/namespaces/pooled-keys/keys/{created.json()['id']}")
        assert revoked.status_code == 204, revoked.text
        deadline = asyncio.get_running_loop().time() + 2.0
        status = 200
        while status == 200 and asyncio.get_running_loop().time() < deadline:
            status = (await elsewhere.get("/v1/namespaces/pooled-keys")).status_code
            await asyncio.sleep(0.05)
        assert status == 401


async def test_quotas_hold_through_the_pooler(app: FastAPI, client: httpx.AsyncClient) -> None:
    """The quota lock is transaction-scoped and the request window one statement: writers racing at a
    namespace's limit store exactly the limit, and its requests per minute are counted, over two server
    connections."""
    assert (await client.post("/v1/namespaces", json={"name": "quota"})).status_code == 201
    limits = {"memories": 4, "requestsPerMinute": 2}
    assert (await client.put("/v1/namespaces/quota/quotas", json=limits)).status_code == 200
    things = ["kite", "oboe", "sled", "yurt", "canoe", "loom", "harp", "wok"]
    remembered = await asyncio.gather(
        *(
            client.post("/v1/namespaces/quota/profiles/p/remember", json={"content": f"I own a {t}."})
            for t in things
        )
    )
    assert sorted(r.status_code for r in remembered) == [201] * 4 + [429] * 4
    usage = (await client.get("/v1/namespaces/quota/quotas")).json()
    assert usage["memories"]["usage"] == 4
    key = (await client.post("/v1/namespaces/quota/keys", json={"name": "k", "scope": "read"})).json()["key"]
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app),
        base_url="http://test",
        headers={"Authorization": f"Bearer {key}"},
    ) as tenant:
        statuses = [(await tenant.get("/v1/namespaces/quota/quotas")).status_code for _ in range(4)]
    assert statuses[0] == 200 and 429 in statuses, statuses
