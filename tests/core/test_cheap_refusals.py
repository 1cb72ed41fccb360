"""Made-up keys stay cheap (`app.core.refusals`): a key refused is refused again without a database read for
a moment; an address past its failed-authentication budget is answered 429 with Retry-After without a
lookup, while a key this process verified before keeps working from it; lookups of never-verified keys are
bounded; all of it counted in /metrics."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
from fastapi import FastAPI
from sqlalchemy import event

from app.core.auth import KeyCache
from app.core.refusals import FAILURE_BURST, AuthRefusals


def made_up_key() -> str:
    return f"amk_{secrets.token_hex(6)}_{secrets.token_hex(24)}"


@asynccontextmanager
async def from_address(
    app: FastAPI, address: str, key: str | None = None
) -> AsyncIterator[httpx.AsyncClient]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    transport = httpx.ASGITransport(app=app, client=(address, 4321))
    async with httpx.AsyncClient(transport=transport, base_url="http://test", headers=headers) as c:
        yield c


def refused(metrics: str, reason: str) -> float:
    line = f'agent_memory_auth_refused_total{{reason="{reason}"}}'
    found = [row for row in metrics.splitlines() if row.startswith(line)]
    return float(found[0].split()[-1]) if found else 0.0


async def test_a_key_refused_is_refused_again_without_a_read(app: FastAPI, client: httpx.AsyncClient) -> None:
    await asyncio.wait_for(app.state.key_listener.connected.wait(), 10)  # refusals are kept while it listens
    statements: list[str] = []

    def count(*_args: object) -> None:
        statements.append("read")

    key = made_up_key()
    engine = app.state.engine.sync_engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        async with from_address(app, "10.9.0.1", key) as impostor:
            assert (await impostor.get("/v1/namespaces")).status_code == 401
            first = len(statements)
            again = await impostor.get("/v1/namespaces")
            assert again.status_code == 401 and again.json()["code"] == "unauthorized"
            assert first >= 1 and len(statements) == first  # no read the second time
    finally:
        event.remove(engine, "before_cursor_execute", count)
    metrics = (await client.get("/metrics")).text
    assert refused(metrics, "unknown") >= 1 and refused(metrics, "unknown_cached") >= 1


async def test_an_address_past_its_failures_gets_429_and_a_known_key_still_works(
    app: FastAPI, client: httpx.AsyncClient, ns: str
) -> None:
    key = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "agent"})).json()["key"]
    fresh = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "never-used"})).json()["key"]
    address = "10.9.0.2"
    async with from_address(app, address, key) as agent:
        assert (await agent.get(f"/v1/namespaces/{ns}")).status_code == 200  # verified by this process
    async with from_address(app, address) as impostor:
        # The budget refills while the requests run (FAILURE_RATE a second): sent until it is spent.
        statuses: list[int] = []
        while len(statuses) < 10 * FAILURE_BURST and 429 not in statuses:
            made_up = {"Authorization": f"Bearer {made_up_key()}"}
            answer = await impostor.get("/v1/namespaces", headers=made_up)
            statuses.append(answer.status_code)
        assert set(statuses[:-1]) == {401} and statuses[-1] == 429 and len(statuses) > FAILURE_BURST
        assert answer.json()["code"] == "rate_limited" and int(answer.headers["retry-after"]) >= 1
    cache: KeyCache = app.state.key_cache
    key_id = key.split("_")[1]
    secret_sha256, namespace_id, scope, _ = cache.entries[key_id]
    cache.entries[key_id] = (secret_sha256, namespace_id, scope, 0.0)  # its cache entry expired: read again
    async with from_address(app, address, key) as agent:
        assert (await agent.get(f"/v1/namespaces/{ns}")).status_code == 200
    refusals: AuthRefusals = app.state.auth_refusals
    # The budget spent again, just now (the requests above took time, the 429 a wait: it refilled).
    refusals.buckets[address].tokens, refusals.buckets[address].at = 0.0, time.monotonic()
    async with from_address(app, address, fresh) as newcomer:  # never verified here: waits like the rest
        assert (await newcomer.get(f"/v1/namespaces/{ns}")).status_code == 429
    async with from_address(app, "10.9.0.3", fresh) as elsewhere:  # another address is not held back
        assert (await elsewhere.get(f"/v1/namespaces/{ns}")).status_code == 200
    assert refused((await client.get("/metrics")).text, "rate_limited") >= 1


async def test_lookups_of_unverified_keys_are_bounded(app: FastAPI, client: httpx.AsyncClient) -> None:
    """Every lookup slot taken: a never-verified key waits a moment, then 503 with Retry-After."""
    refusals: AuthRefusals = app.state.auth_refusals
    held = 0
    try:
        while not refusals.lookups.locked():
            await refusals.lookups.acquire()
            held += 1
        async with from_address(app, "10.9.0.4", made_up_key()) as impostor:
            busy = await impostor.get("/v1/namespaces")
        assert busy.status_code == 503 and int(busy.headers["retry-after"]) > 0
    finally:
        for _ in range(held):
            refusals.lookups.release()
    assert (await client.get("/v1/namespaces")).status_code == 200  # the admin key needs no lookup
    assert refused((await client.get("/metrics")).text, "busy") >= 1
    assert "agent_memory_key_lookups_in_flight" in (await client.get("/metrics")).text


async def test_a_spent_address_is_refused_before_routing(app: FastAPI, client: httpx.AsyncClient) -> None:
    """Past its budget, an address's made-up keys are answered 429 before the route reads anything (a body
    the route would refuse with 422 is not even looked at), with the request id and the headers every answer
    has; routes that read no key (`/readyz`) answer as usual."""
    address = "10.9.0.5"
    refusals: AuthRefusals = app.state.auth_refusals
    async with from_address(app, address, made_up_key()) as impostor:
        assert (await impostor.get("/v1/namespaces")).status_code == 401  # the budget's bucket exists
        refusals.buckets[address].tokens, refusals.buckets[address].at = 0.0, time.monotonic()
        refused = await impostor.post("/v1/namespaces", content=b"{not json", headers={"x-request-id": "r-1"})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert (
            refused.headers["x-request-id"] == "r-1"
            and refused.headers["x-content-type-options"] == "nosniff"
        )
        assert int(refused.headers["retry-after"]) >= 1
        assert (await impostor.get("/readyz")).status_code == 200
