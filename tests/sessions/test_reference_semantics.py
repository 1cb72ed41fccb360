"""The reference Session implementation's semantics where ours once differed (issue 10), through HTTP:
per-session message ids, per-branch overlays, sessions created on append, deletes that re-link,
ids without '/', pages without a trailing cursor, compact(leafId), and truncated older tool outputs."""

from __future__ import annotations

from typing import Any

import httpx

from app.worker.runner import Worker
from tests.sessions.helpers import append, history_ids, new_session, text_message


async def texts(client: httpx.AsyncClient, session_url: str, **params: Any) -> list[str]:
    response = await client.get(f"{session_url}/history", params=params)
    assert response.status_code == 200, response.text
    return [m["parts"][0]["text"] for m in response.json()["messages"]]


async def test_message_ids_are_unique_per_session_not_per_profile(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    one, two = f"{profile_url}/sessions/one", f"{profile_url}/sessions/two"
    for url in (one, two):
        assert (
            await client.post(f"{profile_url}/sessions", json={"id": url.rsplit("/", 1)[1]})
        ).status_code == 201
    first = await client.post(
        f"{one}/messages", json={"message": text_message("m1", "user", "I moved to Lisbon.")}
    )
    second = await client.post(
        f"{two}/messages", json={"message": text_message("m1", "user", "I adopted a cat.")}
    )
    assert first.status_code == 201 and second.status_code == 201, second.text
    await append(client, one, text_message("m2", "assistant", "Lisbon is lovely."))
    await append(client, two, text_message("m2", "assistant", "Cats are great."))
    assert await texts(client, one) == ["I moved to Lisbon.", "Lisbon is lovely."]
    assert await texts(client, two) == ["I adopted a cat.", "Cats are great."]
    assert (await client.get(f"{two}/messages/m1")).json()["parts"][0]["text"] == "I adopted a cat."
    assert [m["id"] for m in (await client.get(f"{one}/messages/m1/branches")).json()["messages"]] == ["m2"]

    # Memory sources follow the session: each memory cites its own session's m1.
    await worker.drain()
    memories = (await client.get(f"{profile_url}/memories")).json()["memories"]
    by_session = {m["sessionId"]: m["id"] for m in memories}
    assert set(by_session) == {"one", "two"}
    detail = (await client.get(f"{profile_url}/memories/{by_session['two']}")).json()
    assert [(s["messageId"], s["content"]) for s in detail["sources"]] == [("m1", "I adopted a cat.")]

    # Deleting that memory removes session two's m1 only; m2 is re-linked and stays on the path.
    assert (await client.delete(f"{profile_url}/memories/{by_session['two']}")).status_code == 200
    assert await texts(client, two) == ["Cats are great."]
    assert await texts(client, one) == ["I moved to Lisbon.", "Lisbon is lovely."]

    # Session search finds each session's own message.
    hits = (await client.get(f"{profile_url}/search", params={"q": "Lisbon moved"})).json()["results"]
    assert [(h["sessionId"], h["id"]) for h in hits] == [("one", "m1")]


async def test_overlays_apply_only_on_their_own_branch(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await append(client, url, text_message("root", "user", "Root"))
    for branch in ("a", "b"):
        parent = "root"
        for i in (1, 2, 3):
            await append(client, url, text_message(f"{branch}{i}", "user", f"{branch}{i}"), parentId=parent)
            parent = f"{branch}{i}"
    summary_b = {"summary": "Branch B summary", "fromMessageId": "root", "toMessageId": "b2"}
    assert (await client.post(f"{url}/compactions", json=summary_b)).status_code == 201
    summary_a = {"summary": "Branch A summary", "fromMessageId": "root", "toMessageId": "a2"}
    assert (await client.post(f"{url}/compactions", json=summary_a)).status_code == 201

    assert await texts(client, url, leafId="b3") == ["Branch B summary", "b3"]
    assert await texts(client, url, leafId="a3") == ["Branch A summary", "a3"]
    # An overlay whose range is only partly on a path (root is, b2 is not) leaves that path raw.
    await append(client, url, text_message("c1", "user", "c1"), parentId="root")
    assert await texts(client, url, leafId="c1") == ["Root", "c1"]


async def test_compact_a_chosen_branch(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await append(client, url, text_message("r", "user", "We are planning the Oslo offsite."))
    for branch in ("a", "b"):
        parent = "r"
        for i in range(1, 7):
            message = text_message(
                f"{branch}{i}", "user" if i % 2 else "assistant", f"Branch {branch} turn {i}."
            )
            await append(client, url, message, parentId=parent)
            parent = f"{branch}{i}"
    # The latest leaf is b6; compact branch a by its leaf.
    options = {"leafId": "a6", "protectHead": 1, "tailTokenBudget": 0, "minTailMessages": 2}
    overlay = (await client.post(f"{url}/compact", json=options)).json()
    assert (overlay["fromMessageId"], overlay["toMessageId"]) == ("a1", "a4")
    assert await history_ids(client, url, leafId="a6") == ["r", f"compaction_{overlay['id']}", "a5", "a6"]
    assert await history_ids(client, url, leafId="b6") == ["r", "b1", "b2", "b3", "b4", "b5", "b6"]
    missing = await client.post(f"{url}/compact", json={"leafId": "nope"})
    assert missing.status_code == 404 and missing.json()["code"] == "message_not_found"


async def test_appending_to_a_session_never_created_creates_it(client: httpx.AsyncClient, ns: str) -> None:
    profile_url = f"/v1/namespaces/{ns}/profiles/newcomer"  # the profile does not exist either
    url = f"{profile_url}/sessions/chat-123"
    first = await client.post(f"{url}/messages", json={"message": text_message("u1", "user", "Hello")})
    assert first.status_code == 201, first.text
    info = (await client.get(url)).json()
    assert info["id"] == "chat-123" and info["name"] == "" and info["extractMemories"] is True
    batch = await client.post(
        f"{profile_url}/sessions/chat-456/messages/batch",
        json={"messages": [text_message("x1", "user", "a"), text_message("x2", "assistant", "b")]},
    )
    assert batch.status_code == 201
    put = await client.put(
        f"{profile_url}/sessions/chat-789/messages/p1", json={"message": text_message("p1", "user", "c")}
    )
    assert put.status_code == 201
    listed = {s["id"] for s in (await client.get(f"{profile_url}/sessions")).json()["sessions"]}
    assert listed == {"chat-123", "chat-456", "chat-789"}
    assert await history_ids(client, f"{profile_url}/sessions/chat-456") == ["x1", "x2"]


async def test_deletes_relink_children_and_clear_takes_no_body(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    for i in range(1, 8):
        await append(client, url, text_message(f"m{i}", "user" if i % 2 else "assistant", f"turn {i}"))
    assert (await client.delete(f"{url}/messages/m3")).status_code == 204
    assert await history_ids(client, url) == ["m1", "m2", "m4", "m5", "m6", "m7"]
    assert (await client.get(f"{url}/messages/m4")).status_code == 200

    # Bulk delete of a chain (m5, m6) and a head (m1): what stays is still one path.
    bulk = await client.post(f"{url}/messages/delete", json={"ids": ["m5", "m1", "m6", "ghost"]})
    assert bulk.status_code == 200 and bulk.json() == {"deleted": ["m5", "m1", "m6"]}
    history = (await client.get(f"{url}/history")).json()
    assert [m["id"] for m in history["messages"]] == ["m2", "m4", "m7"] and history["pathLength"] == 3
    assert (await client.post(f"{url}/messages/delete", json={"ids": []})).status_code == 422

    # A body on DELETE …/messages is refused; nothing is cleared.
    with_body = await client.request("DELETE", f"{url}/messages", json={"messageIds": ["m2"]})
    assert with_body.status_code == 422 and "POST" in with_body.json()["detail"]
    assert await history_ids(client, url) == ["m2", "m4", "m7"]
    assert (await client.request("DELETE", f"{url}/messages")).status_code == 204
    assert await history_ids(client, url) == []


async def test_deleting_a_memory_keeps_the_history_walkable(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    messages = [
        {"role": "user", "content": "Hi there."},
        {"role": "assistant", "content": "Hello! How can I help?"},
        {"role": "user", "content": "I moved to Lisbon last month."},
        {"role": "assistant", "content": "Nice, how do you like it?"},
        {"role": "user", "content": "Thanks, it is great."},
    ]
    ingested = await client.post(f"{profile_url}/ingest", json={"sessionId": "talk", "messages": messages})
    assert ingested.status_code == 202
    await worker.drain()
    url = f"{profile_url}/sessions/talk"
    assert len((await client.get(f"{url}/history")).json()["messages"]) == 5
    lisbon = [
        m
        for m in (await client.get(f"{profile_url}/memories")).json()["memories"]
        if "Lisbon" in m["summary"]
    ]
    assert len(lisbon) == 1
    assert (await client.delete(f"{profile_url}/memories/{lisbon[0]['id']}")).status_code == 200
    remaining = await texts(client, url)
    assert remaining == [
        "Hi there.",
        "Hello! How can I help?",
        "Nice, how do you like it?",
        "Thanks, it is great.",
    ]


async def test_ids_with_a_slash_are_refused_everywhere(client: httpx.AsyncClient, profile_url: str) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    await append(client, url, text_message("ok", "user", "fine"))
    refused = [
        await client.post(f"{profile_url}/sessions", json={"id": "a/b"}),
        await client.post(f"{profile_url}/sessions", json={"id": "s", "parentSessionId": "a/b"}),
        await client.post(f"{url}/messages", json={"message": text_message("x/y", "user", "hi")}),
        await client.post(
            f"{url}/messages", json={"message": text_message("z", "user", "hi"), "parentId": "o/k"}
        ),
        await client.post(f"{url}/messages/batch", json={"messages": [text_message("a/", "user", "hi")]}),
        await client.post(f"{url}/messages/delete", json={"ids": ["a/b"]}),
        await client.post(f"{url}/fork", json={"atMessageId": "o/k"}),
        await client.post(
            f"{url}/compactions", json={"summary": "s", "fromMessageId": "a/b", "toMessageId": "ok"}
        ),
        await client.post(f"{url}/compact", json={"leafId": "/ok"}),
        await client.post(
            f"{profile_url}/ingest", json={"sessionId": "a/b", "messages": [{"role": "user", "content": "x"}]}
        ),
        await client.post(f"{profile_url}/remember", json={"content": "I like tea.", "sessionId": "a/b"}),
        await client.put(f"{profile_url}/context/a%2Fb", json={"kind": "readonly"}),
        await client.get(f"{profile_url}/sessions/a%2Fb"),
        await client.delete(f"{profile_url}/sessions/a%2Fb"),
        await client.get(f"{url}/messages/x%2Fy"),
        await client.put(f"{profile_url}/context/ok/entries/k%2F1", json={"content": "x"}),
    ]
    for response in refused:
        assert response.status_code == 422, (response.request.url, response.text)
    body_errors = [r.json() for r in refused[:-5]]
    assert all("must not contain '/'" in str(e["errors"]) for e in body_errors), body_errors
    assert all(r.json()["code"] == "validation_failed" for r in refused)
    assert all("must not contain '/'" in r.json()["detail"] for r in refused[-5:])
    # A '/' in a search query is just text.
    assert (await client.get(f"{url}/search", params={"q": "a/b"})).status_code == 200
    # Nothing was created under such an id.
    listed = [s["id"] for s in (await client.get(f"{profile_url}/sessions")).json()["sessions"]]
    assert listed == [sid]


async def test_last_pages_leave_the_cursor_out(client: httpx.AsyncClient, ns: str) -> None:
    profile_url = f"/v1/namespaces/{ns}/profiles/pages"
    for i in range(3):
        await new_session(client, profile_url, id=f"s{i}")
        remembered = await client.post(
            f"{profile_url}/remember", json={"content": f"I own {i + 2} bicycles."}
        )
        assert remembered.status_code == 201
        await client.put(f"/v1/namespaces/{ns}/profiles/p{i}")
    routes = [
        ("/v1/namespaces", "namespaces"),
        (f"/v1/namespaces/{ns}/profiles", "profiles"),
        (f"{profile_url}/sessions", "sessions"),
        (f"{profile_url}/memories", "memories"),
    ]
    for path, key in routes:
        seen: list[Any] = []
        cursor: str | None = None
        while True:
            params: dict[str, Any] = {"limit": 2}
            if cursor is not None:
                params["cursor"] = cursor
            page = (await client.get(path, params=params)).json()
            seen += page[key]
            if "cursor" not in page:
                break
            assert isinstance(page["cursor"], str) and page["cursor"]
            cursor = page["cursor"]
            assert len(seen) < 10_000, path
        assert len(seen) >= 3, (path, seen)
        whole = (await client.get(path, params={"limit": 500})).json()
        assert "cursor" not in whole, path
    spec = (await client.get("/openapi.json")).json()["components"]["schemas"]
    for name in ("NamespaceList", "ProfileList", "SessionList", "MemoryList"):
        assert "cursor" in spec[name]["properties"] and "cursor" not in spec[name].get("required", [])


async def test_large_tool_output_is_stored_and_truncated_in_older_history(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"
    output = "x" * 1_100_000
    tool = {
        "id": "t1",
        "role": "assistant",
        "parts": [
            {
                "type": "tool-grep",
                "toolCallId": "c1",
                "state": "output-available",
                "input": {"q": "x"},
                "output": output,
            },
            {"type": "text", "text": "y" * 12_000},
        ],
    }
    stored = await client.post(f"{url}/messages", json={"message": tool})
    assert stored.status_code == 201, stored.text[:300]
    rows = {"rows": ["é"] * 300}
    structured: dict[str, Any] = {
        "id": "t2",
        "role": "assistant",
        "parts": [
            {
                "type": "dynamic-tool",
                "toolCallId": "c2",
                "state": "output-available",
                "output": rows,
            }
        ],
    }
    await append(client, url, structured)
    for i in range(4):
        await append(client, url, text_message(f"r{i}", "user", f"recent {i} " + "z" * 11_000))

    full = (await client.get(f"{url}/history")).json()
    assert full["messages"][0]["parts"][0]["output"] == output  # storage keeps everything

    cut = (await client.get(f"{url}/history", params={"truncate": "true"})).json()
    first = cut["messages"][0]["parts"]
    assert first[0]["output"] == "x" * 500 + "... [truncated 1100000 chars]"
    assert first[0]["input"] == {"q": "x"}
    assert first[1]["text"] == "y" * 10_000 + "... [truncated 12000 chars]"
    serialised = '{"rows":[' + ",".join(['"é"'] * 300) + "]}"
    assert (
        cut["messages"][1]["parts"][0]["output"]
        == serialised[:500] + f"... [truncated {len(serialised)} chars]"
    )
    # The last four (keepRecent) are intact, and the estimate counts what is answered.
    assert [m["parts"][0]["text"] for m in cut["messages"][2:]] == [
        m["parts"][0]["text"] for m in full["messages"][2:]
    ]
    assert cut["tokenEstimate"] < full["tokenEstimate"] // 10

    tuned = (
        await client.get(
            f"{url}/history",
            params={"truncate": "true", "keepRecent": 5, "maxToolOutputChars": 10, "maxTextChars": 20},
        )
    ).json()["messages"]
    assert tuned[0]["parts"][0]["output"] == "x" * 10 + "... [truncated 1100000 chars]"
    assert tuned[0]["parts"][1]["text"] == "y" * 20 + "... [truncated 12000 chars]"
    assert tuned[1]["parts"][0]["output"] == rows
