"""Group commit for remember (app.memories.batching): concurrent remembers of one process share statements,
counted on the wire, and each request still gets its own answer: its own memory, the existing one for
content already stored, its own 404 for a namespace out of reach, its own error when the server refuses
its row."""

from __future__ import annotations

import asyncio
import re
import secrets

import asyncpg
import httpx
import pytest

from app.core.settings import Settings
from tests.conftest import admin_client, new_namespace, started_app
from tests.recall.test_round_trips import proxied_client

STATEMENTS = re.compile(r"^agent_memory_remember_statement_items_(count|sum) (\S+)$", re.MULTILINE)


async def _statement_items(client: httpx.AsyncClient) -> dict[str, float]:
    """The statements remember has sent and the items they stored, from /metrics."""
    metrics = (await client.get("/metrics")).text
    return {kind: float(value) for kind, value in STATEMENTS.findall(metrics)}


async def test_concurrent_remembers_share_statements_and_keep_their_own_answers(database_url: str) -> None:
    async with proxied_client(database_url) as (client, proxy):
        ns = await new_namespace(client)
        base = f"/v1/namespaces/{ns}/profiles"
        # Two profiles exist; carol and dave are created by the concurrent remembers themselves.
        for name in ("alice", "bob"):
            warm = await client.post(f"{base}/{name}/remember", json={"content": f"I am {name}."})
            assert warm.status_code == 201, warm.text
        profiles = ("alice", "bob", "carol", "dave")
        requests = [(profiles[i % 4], f"I planted tomato number {i} in the garden.") for i in range(40)]
        # The same content twice in one profile: one memory, both answered with it.
        requests += [("carol", "My locker code is 4417."), ("carol", "My locker code is 4417.")]
        before = await _statement_items(client)
        proxy.reset()
        responses = await asyncio.gather(
            *(client.post(f"{base}/{name}/remember", json={"content": content}) for name, content in requests)
        )
        round_trips = proxy.round_trips
        after = await _statement_items(client)

        statuses = [r.status_code for r in responses]
        assert statuses[:40] == [201] * 40, [r.text for r in responses if r.status_code != 201]
        assert sorted(statuses[40:]) == [200, 201]
        assert responses[40].json()["id"] == responses[41].json()["id"]
        for (_, content), response in zip(requests, responses, strict=True):
            assert response.json()["content"] == content
        assert len({r.json()["id"] for r in responses}) == 41
        # 42 requests, one statement each, would be 42 round trips at least.
        assert round_trips < 30, round_trips
        statements = after["count"] - before["count"]
        assert after["sum"] - before["sum"] == 42  # every request stored by exactly one statement
        assert statements < 42

        for name in profiles:
            listed = await client.get(f"{base}/{name}/memories", params={"limit": 100})
            ids = {m["id"] for m in listed.json()["memories"]}
            expected = {r.json()["id"] for (n, _), r in zip(requests, responses, strict=True) if n == name}
            assert expected <= ids and len(ids) == len(expected) + (name in ("alice", "bob"))
        names = [p["name"] for p in (await client.get(f"{base}", params={"limit": 100})).json()["profiles"]]
        assert sorted(names) == sorted(profiles)


async def test_a_namespace_out_of_reach_is_its_own_requests_404(
    client: httpx.AsyncClient, anon: httpx.AsyncClient, ns: str
) -> None:
    other = await new_namespace(client)
    key = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "batch"})).json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    missing = "t-missing-" + secrets.token_hex(4)
    calls = []
    for i in range(30):
        # The key's own namespace, another namespace it cannot reach, and (as admin) one that does not exist.
        target, headers = [(ns, auth), (other, auth), (missing, dict(client.headers))][i % 3]
        calls.append(
            (
                target,
                anon.post(
                    f"/v1/namespaces/{target}/profiles/p/remember",
                    json={"content": f"I read book number {i} this year."},
                    headers=headers,
                ),
            )
        )
    responses = await asyncio.gather(*(call for _, call in calls))
    for (target, _), response in zip(calls, responses, strict=True):
        if target == ns:
            assert response.status_code == 201, response.text
        else:
            assert response.status_code == 404 and response.json()["code"] == "namespace_not_found"
    assert (await client.get(f"/v1/namespaces/{other}/profiles")).json()["profiles"] == []
    stored = (await client.get(f"/v1/namespaces/{ns}/profiles/p/memories", params={"limit": 100})).json()
    assert len(stored["memories"]) == 10


async def test_a_row_the_server_refuses_fails_only_its_own_request(
    client: httpx.AsyncClient, ns: str, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    marker = "refuse-" + secrets.token_hex(4)
    conn = await asyncpg.connect(database_url.replace("+asyncpg", ""))
    # A trigger of the test's own, refusing one row: the batched statement that carries it fails whole.
    await conn.execute(
        f"""
        CREATE FUNCTION refuse_{marker.replace("-", "_")}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.content LIKE '%{marker}%' THEN RAISE EXCEPTION 'refused by the test'; END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER refuse_{marker.replace("-", "_")} BEFORE INSERT ON memories
            FOR EACH ROW EXECUTE FUNCTION refuse_{marker.replace("-", "_")}();
        """
    )
    try:
        url = f"/v1/namespaces/{ns}/profiles/alice/remember"
        contents = [f"I visited museum number {i}." for i in range(20)]
        contents[7] = f"I keep the code {marker}."
        responses = await asyncio.gather(*(client.post(url, json={"content": c}) for c in contents))
    finally:
        name = marker.replace("-", "_")
        await conn.execute(f"DROP TRIGGER refuse_{name} ON memories; DROP FUNCTION refuse_{name}()")
        await conn.close()
    assert responses[7].status_code == 500
    assert "batched remember refused" in caplog.text  # its batch was refused whole, then stored item by item
    others = [r for i, r in enumerate(responses) if i != 7]
    assert [r.status_code for r in others] == [201] * 19, [r.text for r in others]
    stored = (await client.get(f"/v1/namespaces/{ns}/profiles/alice/memories", params={"limit": 100})).json()
    assert {m["id"] for m in stored["memories"]} == {r.json()["id"] for r in others}


async def test_concurrent_statements_of_one_topic_leave_one_active(
    client: httpx.AsyncClient, ns: str
) -> None:
    base = f"/v1/namespaces/{ns}/profiles"
    cities = ["Lisbon", "Porto", "Madrid", "Berlin", "Vienna", "Prague", "Oslo", "Rome"]
    calls = [(name, f"I moved to {city}.") for city in cities for name in ("alice", "bob")]
    calls += [("alice", f"I went to concert number {i} this month.") for i in range(16)]
    responses = await asyncio.gather(
        *(client.post(f"{base}/{name}/remember", json={"content": content}) for name, content in calls)
    )
    assert [r.status_code for r in responses] == [201] * len(calls), [r.text for r in responses]
    for name in ("alice", "bob"):
        listed = (await client.get(f"{base}/{name}/memories", params={"limit": 100})).json()["memories"]
        moved = [m["summary"] for m in listed if "moved" in m["summary"]]
        assert len(moved) == 1, moved  # each statement superseded the one before it, none left beside it
        everything = await client.get(
            f"{base}/{name}/memories", params={"limit": 100, "include": "superseded"}
        )
        chain = [m for m in everything.json()["memories"] if "moved" in m["summary"]]
        assert len(chain) == len(cities)
        assert sorted(m["supersededBy"] is None for m in chain) == [False] * (len(cities) - 1) + [True]


async def _lock_waiters(conn: asyncpg.Connection) -> int:
    return int(
        await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
    )


async def test_api_processes_remembering_one_topic_leave_one_active(
    settings: Settings, database_url: str
) -> None:
    """Two API processes (two apps, each with its own pool and batcher) remember one profile's topic while
    a third transaction holds the memory both must supersede. Each statement waits; when the holder lets
    go, the one that goes second must supersede what the first stored (it committed after the second's
    statement began), so one memory of the topic stays active, as it does within one process."""
    async with (
        started_app(settings) as first,
        started_app(settings) as second,
        admin_client(first) as one,
        admin_client(second) as two,
    ):
        ns = await new_namespace(one)
        base = f"/v1/namespaces/{ns}/profiles/alice"
        lisbon = await one.post(f"{base}/remember", json={"content": "I moved to Lisbon."})
        assert lisbon.status_code == 201, lisbon.text
        holder = await asyncpg.connect(database_url.replace("+asyncpg", ""))
        try:
            held = holder.transaction()
            await held.start()
            await holder.execute("SELECT 1 FROM memories WHERE id = $1 FOR UPDATE", lisbon.json()["id"])
            moves = []
            for waiting, (client, city) in enumerate(((one, "Porto"), (two, "Madrid")), start=1):
                moves.append(
                    asyncio.create_task(
                        client.post(f"{base}/remember", json={"content": f"I moved to {city}."})
                    )
                )
                async with asyncio.timeout(10):
                    while await _lock_waiters(holder) < waiting:
                        await asyncio.sleep(0.01)
            await held.rollback()
            responses = await asyncio.gather(*moves)
        finally:
            await holder.close()
        assert [r.status_code for r in responses] == [201, 201], [r.text for r in responses]
        everything = await one.get(f"{base}/memories", params={"limit": 100, "include": "superseded"})
        chain = [m for m in everything.json()["memories"] if "moved" in m["summary"]]
        assert len(chain) == 3
        active = [m["summary"] for m in chain if m["supersededBy"] is None]
        assert len(active) == 1, active
