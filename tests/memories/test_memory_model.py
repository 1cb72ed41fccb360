"""Metadata, editing, history and point-in-time reads of memories, through HTTP on a real PostgreSQL."""

from __future__ import annotations

import json

import httpx

from app.worker.runner import Worker


async def _remember(client: httpx.AsyncClient, url: str, content: str, **extra: object) -> dict[str, object]:
    response = await client.post(f"{url}/remember", json={"content": content, **extra})
    assert response.status_code == 201, response.text
    body: dict[str, object] = response.json()
    return body


async def _list(client: httpx.AsyncClient, url: str, **params: str) -> list[dict[str, object]]:
    response = await client.get(f"{url}/memories", params={"limit": "100", **params})
    assert response.status_code == 200, response.text
    memories: list[dict[str, object]] = response.json()["memories"]
    return memories


async def test_metadata_round_trip_and_filtered_list(client: httpx.AsyncClient, profile_url: str) -> None:
    apollo = await _remember(
        client, profile_url, "The launch window opens in March.", metadata={"project": "apollo", "n": 1}
    )
    assert apollo["metadata"] == {"project": "apollo", "n": 1}
    await _remember(client, profile_url, "The budget review is on Friday.", metadata={"project": "gemini"})
    await _remember(client, profile_url, "I like green tea.")
    nested = await _remember(
        client,
        profile_url,
        "Mission control is in Houston.",
        metadata={"project": "apollo", "team": {"a": 1}},
    )

    detail = (await client.get(f"{profile_url}/memories/{apollo['id']}")).json()
    assert detail["metadata"] == {"project": "apollo", "n": 1}

    found = await _list(client, profile_url, metadata=json.dumps({"project": "apollo"}))
    assert {m["id"] for m in found} == {apollo["id"], nested["id"]}
    assert all(m["metadata"]["project"] == "apollo" for m in found)  # type: ignore[index]
    both = await _list(client, profile_url, metadata=json.dumps({"project": "apollo", "n": 1}))
    assert [m["id"] for m in both] == [apollo["id"]]
    # Exact match: a nested object with fewer keys is not the stored value.
    assert await _list(client, profile_url, metadata=json.dumps({"team": {}})) == []
    assert len(await _list(client, profile_url, metadata=json.dumps({"team": {"a": 1}}))) == 1
    assert await _list(client, profile_url, metadata=json.dumps({"project": "mercury"})) == []
    assert len(await _list(client, profile_url)) == 4


async def test_metadata_limits(client: httpx.AsyncClient, profile_url: str) -> None:
    assert (await client.put(profile_url)).status_code == 201
    too_big = {"blob": "x" * 9000}
    response = await client.post(f"{profile_url}/remember", json={"content": "big", "metadata": too_big})
    assert response.status_code == 422 and "8192 bytes" in response.text
    long_key = {"k" * 65: 1}
    response = await client.post(f"{profile_url}/remember", json={"content": "key", "metadata": long_key})
    assert response.status_code == 422 and "64 characters" in response.text
    response = await client.post(
        f"{profile_url}/remember", json={"content": "nul", "metadata": {"a": "x\u0000"}}
    )
    assert response.status_code == 422
    response = await client.post(f"{profile_url}/remember", json={"content": "list", "metadata": [1]})
    assert response.status_code == 422
    for bad in ("not json", "[1, 2]", json.dumps({"k" * 65: 1})):
        response = await client.get(f"{profile_url}/memories", params={"metadata": bad})
        assert response.status_code == 422, (bad, response.text)
    message = {"role": "user", "content": "I moved to Oslo.", "metadata": too_big}
    response = await client.post(f"{profile_url}/ingest", json={"messages": [message]})
    assert response.status_code == 422 and "8192 bytes" in response.text


async def test_ingested_metadata_is_inherited(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "I moved to Oslo.", "metadata": {"channel": "email"}},
        {"role": "user", "content": "My favourite colour is teal.", "metadata": {"channel": "chat"}},
    ]
    response = await client.post(f"{profile_url}/ingest", json={"sessionId": "s1", "messages": messages})
    assert response.status_code == 202, response.text
    await worker.drain()
    email = await _list(client, profile_url, metadata=json.dumps({"channel": "email"}))
    assert [m["summary"] for m in email] == ["User moved to Oslo."]
    recall = await client.post(
        f"{profile_url}/recall",
        json={"query": "Where does the user live? colour", "metadata": {"channel": "chat"}},
    )
    assert recall.status_code == 200, recall.text
    assert [c["summary"] for c in recall.json()["candidates"]] == ["User's favourite colour is teal."]


async def test_session_metadata(client: httpx.AsyncClient, profile_url: str) -> None:
    created = await client.post(
        f"{profile_url}/sessions", json={"id": "s1", "name": "a", "metadata": {"k": "v"}}
    )
    assert created.status_code == 201, created.text
    assert created.json()["metadata"] == {"k": "v"}
    patched = await client.patch(f"{profile_url}/sessions/s1", json={"metadata": {"k": "w"}})
    assert patched.status_code == 200 and patched.json()["metadata"] == {"k": "w"}
    assert (await client.get(f"{profile_url}/sessions/s1")).json()["metadata"] == {"k": "w"}


async def test_edit_then_history(client: httpx.AsyncClient, profile_url: str) -> None:
    memory = await _remember(client, profile_url, "My favourite colour is blue.", metadata={"src": "a"})
    mid = memory["id"]
    edited = await client.patch(f"{profile_url}/memories/{mid}", json={"content": "I always take the train."})
    assert edited.status_code == 200, edited.text
    body = edited.json()
    assert body["id"] == mid and body["content"] == "I always take the train." and body["version"] == 2
    assert "train" in body["summary"] and body["metadata"] == {"src": "a"}
    summary_only = await client.patch(
        f"{profile_url}/memories/{mid}",
        json={"summary": "Commutes by train", "type": "fact", "metadata": {"src": "b"}},
    )
    assert summary_only.json()["summary"] == "Commutes by train" and summary_only.json()["metadata"] == {
        "src": "b"
    }
    assert (await client.patch(f"{profile_url}/memories/{mid}", json={})).status_code == 422
    assert (await client.patch(f"{profile_url}/memories/nope", json={"summary": "x"})).status_code == 404

    history = (await client.get(f"{profile_url}/memories/{mid}/history")).json()
    assert history["memoryId"] == mid
    steps = [(v["version"], v["change"], v["content"]) for v in history["versions"]]
    assert steps == [
        (1, "created", "My favourite colour is blue."),
        (2, "edited", "I always take the train."),
        (3, "edited", "I always take the train."),
    ]
    assert history["versions"][2]["summary"] == "Commutes by train"

    deleted = await client.delete(f"{profile_url}/memories/{mid}")
    assert deleted.status_code == 200
    after = (await client.get(f"{profile_url}/memories/{mid}/history")).json()["versions"]
    assert [v["change"] for v in after] == ["created", "edited", "edited", "deleted"]
    assert (await client.get(f"{profile_url}/memories/{mid}")).status_code == 404


async def test_supersession_in_history_and_include_superseded(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    blue = await _remember(client, profile_url, "My favourite colour is blue.")
    green = await _remember(client, profile_url, "My favourite colour is green.")
    assert [m["id"] for m in await _list(client, profile_url)] == [green["id"]]
    everything = await _list(client, profile_url, include="superseded")
    marks = {m["id"]: m["supersededBy"] for m in everything}
    assert marks == {green["id"]: None, blue["id"]: green["id"]}

    history = (await client.get(f"{profile_url}/memories/{blue['id']}/history")).json()["versions"]
    assert [(v["change"], v["supersededBy"]) for v in history] == [
        ("created", None),
        ("superseded", green["id"]),
    ]

    conflict = await client.patch(f"{profile_url}/memories/{blue['id']}", json={"summary": "x"})
    assert conflict.status_code == 409 and conflict.json()["code"] == "memory_superseded"
    taken = await client.patch(
        f"{profile_url}/memories/{green['id']}", json={"content": "My favourite colour is blue."}
    )
    assert taken.status_code == 409 and taken.json()["code"] == "memory_content_exists"


async def test_as_of_before_and_after_an_edit_and_a_supersession(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    blue = await _remember(client, profile_url, "My favourite colour is blue.")
    t_created = str(blue["createdAt"])
    edited = (
        await client.patch(
            f"{profile_url}/memories/{blue['id']}", json={"content": "My favourite colour is navy blue."}
        )
    ).json()
    t_edited = edited["updatedAt"]
    green = await _remember(client, profile_url, "My favourite colour is green.")
    t_superseded = str(green["createdAt"])

    def ids(rows: list[dict[str, object]]) -> list[object]:
        return [r["id"] for r in rows]

    before_all = "2000-01-01T00:00:00Z"
    assert await _list(client, profile_url, asOf=before_all) == []
    at_creation = await _list(client, profile_url, asOf=t_created)
    assert ids(at_creation) == [blue["id"]] and at_creation[0]["summary"] == blue["summary"]
    at_edit = await _list(client, profile_url, asOf=t_edited)
    assert ids(at_edit) == [blue["id"]] and "navy" in str(at_edit[0]["summary"])
    now = await _list(client, profile_url, asOf=t_superseded)
    assert ids(now) == [green["id"]]

    old = await client.get(f"{profile_url}/memories/{blue['id']}", params={"asOf": t_created})
    assert old.status_code == 200 and old.json()["content"] == "My favourite colour is blue."
    assert old.json()["version"] == 1 and old.json()["supersededBy"] is None
    mid = await client.get(f"{profile_url}/memories/{blue['id']}", params={"asOf": t_edited})
    assert mid.json()["content"] == "My favourite colour is navy blue."
    gone = await client.get(f"{profile_url}/memories/{blue['id']}", params={"asOf": t_superseded})
    assert gone.status_code == 404
    assert (await client.get(f"{profile_url}/memories", params={"asOf": "yesterday"})).status_code == 422
    assert (
        await client.get(f"{profile_url}/memories", params={"asOf": "2024-01-01T00:00:00"})
    ).status_code == 422

    recall_then = await client.post(
        f"{profile_url}/recall", json={"query": "favourite colour", "asOf": t_edited}
    )
    assert recall_then.status_code == 200, recall_then.text
    assert [c["id"] for c in recall_then.json()["candidates"]] == [blue["id"]]
    recall_now = await client.post(f"{profile_url}/recall", json={"query": "favourite colour"})
    assert [c["id"] for c in recall_now.json()["candidates"]] == [green["id"]]


async def test_editing_the_content_dates_the_memory_again(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    created = (
        await client.post(f"{profile_url}/remember", json={"content": "I fly to Tokyo on 3 March 2031."})
    ).json()
    assert created["eventTime"].startswith("2031-03-03"), created
    edited = await client.patch(
        f"{profile_url}/memories/{created['id']}", json={"content": "I fly to Tokyo on 5 April 2031."}
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["eventTime"].startswith("2031-04-05"), edited.json()
    fetched = (await client.get(f"{profile_url}/memories/{created['id']}")).json()
    assert fetched["eventTime"].startswith("2031-04-05") and "April" in fetched["summary"], fetched
