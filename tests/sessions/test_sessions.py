"""Sessions and messages through HTTP: lifecycle, parent rules, branches, history, idempotence, limits, 404s."""

from __future__ import annotations

import httpx

from tests.sessions.helpers import append, history_ids, new_session, text_message


async def test_session_lifecycle_and_listing(client: httpx.AsyncClient, profile_url: str) -> None:
    created = await client.post(
        f"{profile_url}/sessions",
        json={"id": "s-1", "name": "First", "model": "gpt-x", "source": "web", "compactAfter": 5000},
    )
    assert created.status_code == 201, created.text
    info = created.json()
    assert info["id"] == "s-1" and info["name"] == "First" and info["model"] == "gpt-x"
    assert info["parentSessionId"] is None and info["endReason"] is None
    assert (info["inputTokens"], info["outputTokens"], info["estimatedCost"]) == (0, 0, 0)
    assert info["compactAfter"] == 5000

    again = await client.post(f"{profile_url}/sessions", json={"id": "s-1", "name": "dup"})
    assert again.status_code == 409 and again.json()["code"] == "session_exists"

    generated = await new_session(client, profile_url)
    assert generated != "s-1"

    renamed = await client.patch(f"{profile_url}/sessions/s-1", json={"name": "Renamed"})
    assert renamed.status_code == 200 and renamed.json()["name"] == "Renamed"
    assert renamed.json()["updatedAt"] > info["updatedAt"]

    listed = (await client.get(f"{profile_url}/sessions")).json()["sessions"]
    assert [s["id"] for s in listed] == ["s-1", generated]  # the rename moved s-1 to the top

    page = (await client.get(f"{profile_url}/sessions", params={"limit": 1})).json()
    assert len(page["sessions"]) == 1 and page["cursor"]
    rest = (await client.get(f"{profile_url}/sessions", params={"limit": 1, "cursor": page["cursor"]})).json()
    # The last page: the other session, and no cursor key at all (not a null one).
    assert [s["id"] for s in rest["sessions"]] == [generated], rest
    assert "cursor" not in rest, rest

    usage = await client.post(
        f"{profile_url}/sessions/s-1/usage", json={"inputTokens": 100, "outputTokens": 20, "cost": 0.5}
    )
    usage = await client.post(
        f"{profile_url}/sessions/s-1/usage", json={"inputTokens": 1, "outputTokens": 2, "cost": 0.25}
    )
    assert usage.status_code == 200
    assert (usage.json()["inputTokens"], usage.json()["outputTokens"], usage.json()["estimatedCost"]) == (
        101,
        22,
        0.75,
    )


async def test_regenerate_flow_branches_and_history(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await append(client, url, text_message("u1", "user", "What's the capital of France?"))
    await append(client, url, text_message("a1", "assistant", "Paris."))
    # Regenerate: a second answer to the same user message.
    await append(
        client, url, text_message("a2", "assistant", "The capital of France is Paris."), parentId="u1"
    )

    branches = (await client.get(f"{url}/messages/u1/branches")).json()["messages"]
    assert [m["id"] for m in branches] == ["a1", "a2"]

    assert await history_ids(client, url) == ["u1", "a2"]  # latest leaf
    assert await history_ids(client, url, leafId="a1") == ["u1", "a1"]
    leaf = (await client.get(f"{url}/leaf")).json()
    assert leaf["id"] == "a2"

    # Continuing without parentId follows the latest leaf.
    await append(client, url, text_message("u2", "user", "And of Italy?"))
    history = (await client.get(f"{url}/history")).json()
    assert [m["id"] for m in history["messages"]] == ["u1", "a2", "u2"]
    assert history["pathLength"] == 3
    assert history["messages"][2]["parts"] == [{"type": "text", "text": "And of Italy?"}]
    assert history["tokenEstimate"] > 0

    # Continue the first branch explicitly.
    await append(client, url, text_message("u3", "user", "Thanks"), parentId="a1")
    assert await history_ids(client, url) == ["u1", "a1", "u3"]


async def test_parent_rules_and_idempotent_append(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    other = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    first = await append(client, url, text_message("m1", "user", "hello"))
    assert first.status_code == 201
    root = await append(client, url, text_message("m2", "user", "new topic"), parentId=None)
    assert root.status_code == 201
    assert await history_ids(client, url) == ["m2"]  # null parent → a new root

    await append(client, f"{profile_url}/sessions/{other}", text_message("x1", "user", "elsewhere"))
    await append(client, url, text_message("m3", "user", "cross"), parentId="x1")
    assert await history_ids(client, url, leafId="m3") == ["m3"]  # parent in another session → new root

    same = await client.post(
        f"{url}/messages", json={"message": text_message("m1", "assistant", "changed?"), "parentId": "m3"}
    )
    assert same.status_code == 200
    assert same.json()["role"] == "user" and same.json()["parts"][0]["text"] == "hello"

    # Ids are unique per session: another session may hold its own m1.
    twin = await client.post(
        f"{profile_url}/sessions/{other}/messages", json={"message": text_message("m1", "user", "x")}
    )
    assert twin.status_code == 201 and twin.json()["parts"][0]["text"] == "x"


async def test_batch_upsert_delete_clear(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    batch = await client.post(
        f"{url}/messages/batch",
        json={
            "messages": [
                text_message(f"b{i}", "user" if i % 2 == 0 else "assistant", f"turn {i}") for i in range(4)
            ]
        },
    )
    assert batch.status_code == 201, batch.text
    assert [m["id"] for m in batch.json()["messages"]] == ["b0", "b1", "b2", "b3"]
    assert await history_ids(client, url) == ["b0", "b1", "b2", "b3"]

    updated = await client.put(
        f"{url}/messages/b1", json={"message": text_message("b1", "assistant", "edited")}
    )
    assert updated.status_code == 200
    assert (await client.get(f"{url}/messages/b1")).json()["parts"][0]["text"] == "edited"
    inserted = await client.put(f"{url}/messages/b4", json={"message": text_message("b4", "user", "more")})
    assert inserted.status_code == 201
    assert await history_ids(client, url) == ["b0", "b1", "b2", "b3", "b4"]
    mismatch = await client.put(f"{url}/messages/b5", json={"message": text_message("b6", "user", "x")})
    assert mismatch.status_code == 422

    assert (await client.delete(f"{url}/messages/b4")).status_code == 204
    assert (await client.get(f"{url}/messages/b4")).status_code == 404
    assert await history_ids(client, url) == ["b0", "b1", "b2", "b3"]

    assert (await client.delete(f"{url}/messages")).status_code == 204
    history = (await client.get(f"{url}/history")).json()
    assert history["messages"] == [] and history["pathLength"] == 0
    assert (await client.get(f"{url}/leaf")).json() is None


async def test_unknown_part_types_round_trip(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    parts = [
        {"type": "reasoning", "text": "thinking about weather"},
        {
            "type": "tool-getWeather",
            "toolCallId": "c1",
            "state": "output-available",
            "input": {"city": "Oslo"},
            "output": {"tempC": -3, "nested": [1, {"a": None}]},
        },
        {"type": "data-custom", "data": {"anything": ["goes", 1.5, True]}, "id": "x"},
        {"type": "text", "text": "It is cold in Oslo."},
    ]
    created = await client.post(
        f"{url}/messages", json={"message": {"id": "t1", "role": "assistant", "parts": parts}}
    )
    assert created.status_code == 201
    assert created.json()["parts"] == parts
    assert (await client.get(f"{url}/messages/t1")).json()["parts"] == parts
    hits = (await client.get(f"{url}/search", params={"q": "weather"})).json()["results"]
    assert [h["id"] for h in hits] == ["t1"]


async def test_limits_and_not_found(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    too_long = await client.post(f"{url}/messages", json={"message": text_message("x" * 129, "user", "hi")})
    assert too_long.status_code == 422
    bad_role = await client.post(f"{url}/messages", json={"message": text_message("r", "robot", "hi")})
    assert bad_role.status_code == 422
    no_type = await client.post(
        f"{url}/messages", json={"message": {"id": "p", "role": "user", "parts": [{"text": "x"}]}}
    )
    assert no_type.status_code == 422
    nul = await client.post(f"{url}/messages", json={"message": text_message("n", "user", "a\u0000b")})
    assert nul.status_code == 422

    missing = f"{profile_url}/sessions/nope"
    for response in [
        await client.get(missing),
        await client.patch(missing, json={"name": "x"}),
        await client.get(f"{missing}/history"),
        await client.get(f"{missing}/search", params={"q": "x"}),
        await client.get(f"{missing}/system-prompt"),
        await client.get(f"{missing}/tools"),
    ]:
        assert response.status_code == 404 and response.json()["code"] == "session_not_found", response.text
    for response in [
        await client.get(f"{url}/messages/nope"),
        await client.get(f"{url}/messages/nope/branches"),
        await client.get(f"{url}/history", params={"leafId": "nope"}),
        await client.post(f"{url}/fork", json={"atMessageId": "nope", "name": "f"}),
    ]:
        assert response.status_code == 404 and response.json()["code"] == "message_not_found", response.text
    # Deletes are idempotent: a message that is not there is deleted already.
    assert (await client.delete(f"{url}/messages/nope")).status_code == 204
    ghost = await client.get(f"{profile_url.rsplit('/', 1)[0]}/ghost/sessions")
    assert ghost.status_code == 404 and ghost.json()["code"] == "profile_not_found"


async def test_compact_after_beyond_the_column_is_422(client: httpx.AsyncClient, profile_url: str) -> None:
    # Regression: compactAfter over 2^31-1 overflowed the INTEGER column with a 500.
    created = await client.post(f"{profile_url}/sessions", json={"compactAfter": 25492385077})
    assert created.status_code == 422
    sid = await new_session(client, profile_url, compactAfter=2**31 - 1)
    patched = await client.patch(f"{profile_url}/sessions/{sid}", json={"compactAfter": 2**31})
    assert patched.status_code == 422


async def test_created_at_outside_the_utc_calendar_is_422(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    # Regression: year 1 at +14:00 is year 0 in UTC (and 9999 at -14:00 is 10000): a 500 on insert.
    url = f"{profile_url}/sessions/{await new_session(client, profile_url)}"
    for i, when in enumerate(["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"]):
        message = {**text_message(f"t{i}", "user", "hi"), "createdAt": when}
        response = await client.post(f"{url}/messages", json={"message": message})
        assert response.status_code == 422, response.text
    for i, when in enumerate(
        ["0001-01-01T00:00:00-14:00", "9999-12-31T23:59:59+14:00", "2024-05-08T10:00:00"]
    ):
        await append(client, url, {**text_message(f"ok{i}", "user", "hi"), "createdAt": when})
    assert (await client.get(f"{url}/history")).status_code == 200


async def test_parts_jsonb_cannot_store_are_422(client: httpx.AsyncClient, profile_url: str) -> None:
    # Regression: NaN/Infinity (1e999) reached jsonb as invalid JSON, and parts nested ~255 deep were
    # stored but could not be serialised back: both 500s.
    url = f"{profile_url}/sessions/{await new_session(client, profile_url)}"
    headers = {"content-type": "application/json"}
    for i, value in enumerate(["NaN", "Infinity", "-Infinity", "1e999", "[" * 300 + "1" + "]" * 300]):
        body = f'{{"message": {{"id": "n{i}", "role": "user", "parts": [{{"type": "data", "v": {value}}}]}}}}'
        response = await client.post(f"{url}/messages", content=body, headers=headers)
        assert response.status_code == 422, (value[:20], response.text)
    nested: object = 1
    for _ in range(60):
        nested = [nested]
    await append(
        client, url, {"id": "deep", "role": "assistant", "parts": [{"type": "data", "v": nested, "x": 1e308}]}
    )
    assert (await client.get(f"{url}/messages/deep")).json()["parts"][0]["v"] == nested


async def test_text_too_large_to_index_is_stored_and_its_prefix_indexed(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    # Regression: well under the 1 MiB body limit, distinct hyphenated words (each indexed three times)
    # made a tsvector over PostgreSQL's 1 MiB limit ("string is too long for tsvector"): a 500 on append
    # and upsert. Search and extraction read a bounded prefix of a message's text now
    # (app.sessions.row_bound), so the message is stored whole.
    url = f"{profile_url}/sessions/{await new_session(client, profile_url)}"
    words = " ".join(f"a{i}-b{i}" for i in range(40_000))
    big = await client.post(f"{url}/messages", json={"message": text_message("big", "user", words)})
    assert big.status_code == 201, big.text[:300]
    assert (await client.get(f"{url}/messages/big")).json()["parts"][0]["text"] == words
    await append(client, url, text_message("m", "user", "small"))
    upsert = await client.put(f"{url}/messages/m", json={"message": text_message("m", "user", words)})
    assert upsert.status_code == 200, upsert.text[:300]
    split = await client.post(f"{url}/split", json={"summary": words[:199_000]})
    # 199,000 characters of these words still index: the split succeeds (no 500, and no needless 422).
    assert split.status_code == 201, split.text[:300]


async def test_concurrent_writes_to_one_session_never_deadlock(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    # Regression: two batches inserting the same ids in opposite orders (and a delete racing appends)
    # deadlocked in PostgreSQL, a 500 for one of them. Writers now take the session row first.
    import asyncio

    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    messages = [text_message(f"b{i}", "user", f"line {i}") for i in range(20)]
    forward = {"messages": messages}
    backward = {"messages": messages[::-1]}
    responses = await asyncio.gather(
        *[client.post(f"{url}/messages/batch", json=forward if i % 2 else backward) for i in range(8)]
    )
    assert [r.status_code for r in responses] == [201] * 8, [r.text[:200] for r in responses]
    assert len((await client.get(f"{url}/messages/b0/branches")).json()["messages"]) <= 1
    racing = await asyncio.gather(
        *[client.post(f"{url}/messages/batch", json=backward) for _ in range(3)],
        client.post(f"{url}/compact", json={"protectHead": 0, "tailTokenBudget": 0, "minTailMessages": 0}),
        client.post(f"{url}/split", json={"summary": "s"}),
        client.delete(f"{url}/messages"),
        client.delete(url),
    )
    assert all(r.status_code < 500 for r in racing), [(r.status_code, r.text[:200]) for r in racing]
