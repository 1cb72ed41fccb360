"""remember, list, delete, deleteSession and profile deletion, with the worker's purge."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import text

from app.worker.runner import Worker


async def _count(client: httpx.AsyncClient, sql: str, **params: object) -> int:
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.sessionmaker() as db:
        return int((await db.execute(text(sql), params)).scalar_one())


async def _profile_id(client: httpx.AsyncClient, profile_url: str) -> int:
    """The id of the profile at `/v1/namespaces/{ns}/profiles/{name}`: counts stay inside this test's data."""
    ns, name = profile_url.split("/")[3], profile_url.split("/")[5]
    return await _count(
        client,
        "SELECT p.id FROM profiles p JOIN namespaces n ON n.id = p.namespace_id WHERE n.name = :ns AND p.name = :name",
        ns=ns,
        name=name,
    )


async def test_remember_creates_then_returns_existing(client: httpx.AsyncClient, profile_url: str) -> None:
    created = await client.post(f"{profile_url}/remember", json={"content": "Never use emojis in replies."})
    assert created.status_code == 201
    memory = created.json()
    assert memory["type"] == "instruction" and memory["content"] == "Never use emojis in replies."
    assert len(memory["id"]) == 26 and memory["sessionId"] is None
    again = await client.post(f"{profile_url}/remember", json={"content": "never use  emojis in replies"})
    assert again.status_code == 200 and again.json()["id"] == memory["id"]
    assert (await client.post(f"{profile_url}/remember", json={"content": ""})).status_code == 422
    too_big = await client.post(f"{profile_url}/remember", json={"content": "x" * 40000})
    assert too_big.status_code == 422
    extra = await client.post(f"{profile_url}/remember", json={"content": "x", "bogus": 1})
    assert extra.status_code == 422


async def test_delete_memory_removes_source_messages(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "I adopted a beagle named Max last month."},
        {"role": "user", "content": "I work at a bakery in Leeds."},
    ]
    await client.post(f"{profile_url}/ingest", json={"sessionId": "dog", "messages": messages})
    await worker.drain()
    listed = (await client.get(f"{profile_url}/memories")).json()["memories"]
    dog = next(m for m in listed if "Max" in m["summary"] or "beagle" in m["summary"])
    deleted = await client.delete(f"{profile_url}/memories/{dog['id']}")
    assert deleted.status_code == 200 and deleted.json()["id"] == dog["id"] and "content" in deleted.json()
    assert (await client.get(f"{profile_url}/memories/{dog['id']}")).status_code == 404
    # Deletes are idempotent (api.md): deleting it again answers as the first delete did.
    again = await client.delete(f"{profile_url}/memories/{dog['id']}")
    assert again.status_code == 200 and again.json() == deleted.json()
    never = await client.delete(f"{profile_url}/memories/01ARZ3NDEKTSV4RRFFQ69G5FAV")
    assert never.status_code == 404 and never.json()["code"] == "memory_not_found"
    pid = await _profile_id(client, profile_url)
    messages_like = "SELECT count(*) FROM messages WHERE profile_id = :p AND text_content LIKE :like"
    assert await _count(client, messages_like, p=pid, like="%beagle named Max%") == 0
    assert await _count(client, messages_like, p=pid, like="%bakery in Leeds%") >= 1


async def test_delete_session_is_idempotent_and_complete(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    msgs = [{"role": "user", "content": "I am training for the Berlin marathon in September."}]
    await client.post(f"{profile_url}/ingest", json={"sessionId": "gone", "messages": msgs})
    await client.post(
        f"{profile_url}/ingest",
        json={
            "sessionId": "kept",
            "messages": [{"role": "user", "content": "My daughter Lina starts school in August."}],
        },
    )
    await worker.drain()
    await client.post(
        f"{profile_url}/remember", json={"content": "I prefer window seats.", "sessionId": "gone"}
    )
    # a queued job for the session, not yet run, must not resurrect anything
    await client.post(
        f"{profile_url}/ingest",
        json={
            "sessionId": "gone",
            "messages": [{"role": "user", "content": "I bought new running shoes yesterday."}],
        },
    )

    first = await client.delete(f"{profile_url}/sessions/gone")
    second = await client.delete(f"{profile_url}/sessions/gone")
    assert first.status_code == 204 and second.status_code == 204
    queued = "SELECT count(*) FROM jobs WHERE profile_id = :p AND session_id = 'gone' AND status = 'queued'"
    assert await _count(client, queued, p=await _profile_id(client, profile_url)) == 0  # dropped with it
    await worker.drain()
    listed = (await client.get(f"{profile_url}/memories")).json()["memories"]
    assert all(m["sessionId"] != "gone" for m in listed) and any(m["sessionId"] == "kept" for m in listed)
    pid = await _profile_id(client, profile_url)
    for table, column in (("messages", "session_id"), ("memories", "session_id"), ("sessions", "id")):
        sql = f"SELECT count(*) FROM {table} WHERE profile_id = :p AND {column} = 'gone'"
        assert await _count(client, sql, p=pid) == 0, table


async def test_delete_profile_purges_everything(client: httpx.AsyncClient, ns: str, worker: Worker) -> None:
    url = f"/v1/namespaces/{ns}/profiles/doomed"
    await client.post(
        f"{url}/ingest",
        json={
            "sessionId": "x",
            "messages": [{"role": "user", "content": "I live in Oslo and I play the cello."}],
        },
    )
    await worker.drain()
    profile_id = await _count(
        client,
        "SELECT p.id FROM profiles p JOIN namespaces n ON n.id = p.namespace_id "
        "WHERE n.name = :ns AND p.name = 'doomed'",
        ns=ns,
    )
    assert (await client.delete(url)).status_code == 202
    assert (await client.get(f"{url}/memories")).status_code == 404
    # the name is free at once, and the new profile starts empty
    assert (await client.put(url)).status_code == 201
    assert (await client.get(f"{url}/memories")).json()["memories"] == []
    await worker.drain()
    for table in ("memories", "messages", "sessions", "memory_sources"):
        assert await _count(client, f"SELECT count(*) FROM {table} WHERE profile_id = :p", p=profile_id) == 0
    assert await _count(client, "SELECT count(*) FROM profiles WHERE id = :p", p=profile_id) == 0


async def test_namespace_delete_purges_its_profiles(
    client: httpx.AsyncClient, ns: str, worker: Worker
) -> None:
    url = f"/v1/namespaces/{ns}/profiles/p1"
    await client.post(f"{url}/remember", json={"content": "I am allergic to peanuts."})
    assert (await client.delete(f"/v1/namespaces/{ns}")).status_code == 204
    await worker.drain()
    left = await _count(
        client,
        "SELECT count(*) FROM memories m JOIN profiles p ON p.id = m.profile_id "
        "JOIN namespaces n ON n.id = p.namespace_id WHERE n.name = :ns",
        ns=ns,
    )
    assert left == 0


async def test_remembering_a_replaced_statement_makes_it_current_again(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    blue = (
        await client.post(f"{profile_url}/remember", json={"content": "My favourite colour is blue."})
    ).json()
    green = (
        await client.post(f"{profile_url}/remember", json={"content": "My favourite colour is green."})
    ).json()
    listed = [m["id"] for m in (await client.get(f"{profile_url}/memories")).json()["memories"]]
    assert listed == [green["id"]]
    again = await client.post(f"{profile_url}/remember", json={"content": "My favourite colour is blue."})
    assert again.status_code == 200 and again.json()["id"] == blue["id"]
    listed = [m["id"] for m in (await client.get(f"{profile_url}/memories")).json()["memories"]]
    assert listed == [blue["id"]]


@pytest.mark.parametrize("session_param", ["s1", None])
async def test_list_filters_and_pagination(
    client: httpx.AsyncClient, profile_url: str, worker: Worker, session_param: str | None
) -> None:
    for i in range(7):
        sid = "s1" if i % 2 == 0 else "s2"
        r = await client.post(
            f"{profile_url}/remember",
            json={"content": f"Fact number {i}: I own {i} bikes.", "sessionId": sid},
        )
        assert r.status_code == 201
    params: dict[str, str | int] = {"limit": 2}
    if session_param:
        params["sessionId"] = session_param
    seen: list[str] = []
    cursor = None
    while True:
        page = (
            await client.get(
                f"{profile_url}/memories", params={**params, **({"cursor": cursor} if cursor else {})}
            )
        ).json()
        seen += [m["id"] for m in page["memories"]]
        cursor = page.get("cursor")
        if not cursor:
            break
    assert len(seen) == (4 if session_param else 7)
    assert "cursor" not in page, page  # the last page leaves the key out, not null
    assert seen == sorted(seen, reverse=True), "newest first"
    task = await client.post(f"{profile_url}/remember", json={"content": "Remind me to call the plumber."})
    assert task.status_code == 201 and task.json()["type"] == "task", task.text
    typed = (await client.get(f"{profile_url}/memories", params={"type": "task"})).json()["memories"]
    assert [m["id"] for m in typed] == [task.json()["id"]], typed
    assert (await client.get(f"{profile_url}/memories", params={"type": "bogus"})).status_code == 422
