"""Export → import into a fresh database: every read equal to the source; re-import changes nothing; a bad
line rolls the whole import back. Through HTTP on real PostgreSQL (and the CLI, in test_cli.py)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.core.batches import BATCH_BYTES
from app.main import create_app
from app.worker.runner import Worker
from tests.conftest import ADMIN_KEY, fresh_database, make_settings
from tests.sessions.helpers import append, text_message


@pytest.fixture(scope="module")
async def target_app() -> AsyncIterator[FastAPI]:
    """A second server on an empty database of its own: where the export is imported."""
    async with fresh_database("am_test_import") as url:
        application = create_app(make_settings(url), run_worker=False)
        async with application.router.lifespan_context(application):
            yield application


@pytest.fixture
async def target(target_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=target_app),
        base_url="http://target",
        headers={"Authorization": f"Bearer {ADMIN_KEY}"},
    ) as c:
        yield c


async def build_profile(client: httpx.AsyncClient, url: str, worker: Worker) -> None:
    """A profile with sessions, branches, a compaction, blocks, entries and memories (edited, superseded)."""
    messages = [
        {"role": "user", "content": "I moved to Lisbon and I like fado.", "metadata": {"channel": "chat"}},
        {"role": "assistant", "content": "Lisbon is lovely."},
        {"role": "user", "content": "From now on, always answer in French."},
    ]
    assert (
        await client.post(f"{url}/ingest", json={"sessionId": "ing", "messages": messages})
    ).status_code == 202
    await worker.drain()
    blue = (await client.post(f"{url}/remember", json={"content": "My favourite colour is blue."})).json()
    await client.post(
        f"{url}/remember", json={"content": "My favourite colour is green.", "metadata": {"k": 1}}
    )
    note = (await client.post(f"{url}/remember", json={"content": "The review is on Friday."})).json()
    await client.patch(f"{url}/memories/{note['id']}", json={"content": "The review moved to Monday."})
    assert blue["id"]

    created = await client.post(
        f"{url}/sessions", json={"id": "chat", "name": "Chat", "metadata": {"a": "b"}}
    )
    assert created.status_code == 201, created.text
    chat = f"{url}/sessions/chat"
    for i in range(8):
        role = "user" if i % 2 == 0 else "assistant"
        await append(
            client, chat, text_message(f"m{i}", role, f"Message {i} about the Lisbon office and item {i}.")
        )
    await append(client, chat, text_message("alt", "assistant", "Another answer."), parentId="m2")
    compacted = await client.post(f"{chat}/compact", json={"tailTokenBudget": 0, "protectHead": 1})
    assert compacted.status_code == 200 and compacted.json() is not None, compacted.text

    await client.put(f"{url}/context/soul", json={"kind": "readonly", "content": "You are terse."})
    await client.put(
        f"{url}/context/notes", json={"kind": "writable", "maxTokens": 500, "content": "Note one."}
    )
    await client.put(f"{url}/context/skills", json={"kind": "skill", "description": "How-tos"})
    await client.put(
        f"{url}/context/skills/entries/deploy", json={"content": "Run make deploy.", "description": "Deploy"}
    )
    await client.put(f"{url}/context/profile", json={"kind": "summary"})
    prompt = await client.get(f"{chat}/system-prompt")
    assert prompt.status_code == 200, prompt.text
    await worker.drain()  # the appended messages' extraction: nothing left pending to differ


async def reads(client: httpx.AsyncClient, url: str) -> dict[str, Any]:
    """Everything a client can read of the profile, for comparing two servers."""
    out: dict[str, Any] = {}
    listed = (await client.get(f"{url}/memories", params={"limit": 500, "include": "superseded"})).json()
    out["list"] = listed
    out["active"] = (await client.get(f"{url}/memories", params={"limit": 500})).json()
    for memory in listed["memories"]:
        mid = memory["id"]
        if memory["supersededBy"] is None:
            out[f"get {mid}"] = (await client.get(f"{url}/memories/{mid}")).json()
        out[f"history {mid}"] = (await client.get(f"{url}/memories/{mid}/history")).json()
    for query in ("Where does the user live?", "favourite colour", "review"):
        out[f"recall {query}"] = (await client.post(f"{url}/recall", json={"query": query})).json()
    sessions = (await client.get(f"{url}/sessions")).json()["sessions"]
    out["sessions"] = sessions
    for session in sessions:
        base = f"{url}/sessions/{session['id']}"
        out[f"history {session['id']}"] = (await client.get(f"{base}/history")).json()
        out[f"raw {session['id']}"] = (await client.get(f"{base}/history", params={"raw": "true"})).json()
        out[f"compactions {session['id']}"] = (await client.get(f"{base}/compactions")).json()
        out[f"prompt {session['id']}"] = (await client.get(f"{base}/system-prompt")).json()
    out["branches"] = (await client.get(f"{url}/sessions/chat/messages/m2/branches")).json()
    out["context"] = (await client.get(f"{url}/context")).json()
    out["entries"] = (await client.get(f"{url}/context/skills/entries")).json()
    out["summary"] = (await client.post(f"{url}/summary", json={})).json()
    counts = (await client.get(url)).json()
    out["counts"] = {k: v for k, v in counts.items() if k not in ("createdAt",)}
    return out


async def export(client: httpx.AsyncClient, ns: str, **params: str) -> bytes:
    async with client.stream("GET", f"/v1/namespaces/{ns}/export", params=params) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        return b"".join([chunk async for chunk in response.aiter_bytes()])


async def test_export_import_into_a_fresh_database_reads_the_same(
    client: httpx.AsyncClient, target: httpx.AsyncClient, ns: str, worker: Worker
) -> None:
    url = f"/v1/namespaces/{ns}/profiles/alice"
    await build_profile(client, url, worker)
    await client.post(f"/v1/namespaces/{ns}/profiles/bob/remember", json={"content": "Bob likes chess."})
    source = await reads(client, url)

    body = await export(client, ns, profile="alice")
    lines = [json.loads(line) for line in body.splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["profile"] == "alice"
    assert lines[-1] == {"type": "end", "records": len(lines) - 2}
    kinds = {line["type"] for line in lines}
    assert {
        "profile",
        "session",
        "message",
        "compaction",
        "memory",
        "memory_source",
        "memory_version",
    } <= kinds
    assert {"context_block", "context_entry"} <= kinds
    assert {line["profile"] for line in lines[1:-1]} == {"alice"}, "?profile= exports that profile only"

    assert (await target.post("/v1/namespaces", json={"name": ns})).status_code == 201
    imported = await target.post(
        f"/v1/namespaces/{ns}/import", content=body, headers={"content-type": "application/x-ndjson"}
    )
    assert imported.status_code == 200, imported.text
    result = imported.json()
    assert result["records"] == len(lines) - 2 and sum(result["skipped"].values()) == 0
    assert await reads(target, url) == source

    again = await target.post(f"/v1/namespaces/{ns}/import", content=body)
    assert again.status_code == 200, again.text
    assert sum(again.json()["inserted"].values()) == 0 and again.json()["records"] == result["records"]
    assert await reads(target, url) == source
    assert await export(target, ns, profile="alice") != b""


async def test_whole_namespace_export(client: httpx.AsyncClient, ns: str) -> None:
    for name in ("p1", "p2"):
        await client.post(
            f"/v1/namespaces/{ns}/profiles/{name}/remember", json={"content": f"{name} likes tea."}
        )
    lines = [json.loads(line) for line in (await export(client, ns)).splitlines()]
    assert [line["profile"] for line in lines if line["type"] == "profile"] == ["p1", "p2"]
    missing = await client.get(f"/v1/namespaces/{ns}/export", params={"profile": "nobody"})
    assert missing.status_code == 404 and missing.json()["code"] == "profile_not_found"


async def test_a_bad_line_rolls_the_whole_import_back(
    client: httpx.AsyncClient, target: httpx.AsyncClient, ns: str
) -> None:
    url = f"/v1/namespaces/{ns}/profiles/carol"
    for i in range(5):
        await client.post(f"{url}/remember", json={"content": f"Carol fact number {i}."})
    body = await export(client, ns)
    lines = body.decode().splitlines()
    assert (await target.post("/v1/namespaces", json={"name": ns})).status_code == 201

    corrupt = [*lines[:4], '{"type": "memory", "profile": "carol", "data": {"id": 5}}', *lines[4:]]
    bad = await target.post(f"/v1/namespaces/{ns}/import", content="\n".join(corrupt))
    assert bad.status_code == 422 and bad.json()["code"] == "import_line_invalid"
    assert "line 5" in bad.json()["detail"]
    assert (await target.get(url)).status_code == 404, "nothing half-imported: not even the profile"

    not_json = [*lines[:3], "{oops", *lines[3:]]
    assert (
        "line 4"
        in (await target.post(f"/v1/namespaces/{ns}/import", content="\n".join(not_json))).json()["detail"]
    )
    truncated = "\n".join(lines[:-1])
    cut = await target.post(f"/v1/namespaces/{ns}/import", content=truncated)
    assert cut.status_code == 422 and "end record is missing" in cut.json()["detail"]
    # A line the database refuses (a source naming a message that does not exist) is found and named too.
    memory_id = next(json.loads(x)["data"]["id"] for x in lines if json.loads(x)["type"] == "memory")
    orphan = {
        "type": "memory_source",
        "profile": "carol",
        "data": {"memory_id": memory_id, "message_id": "nope"},
    }
    at = len(lines) - 1  # just before the end record
    with_orphan = [*lines[:at], json.dumps(orphan), *lines[at:]]
    with_orphan[-1] = json.dumps({"type": "end", "records": len(lines) - 1})
    refused = await target.post(f"/v1/namespaces/{ns}/import", content="\n".join(with_orphan))
    assert refused.status_code == 422 and f"line {at + 1}" in refused.json()["detail"], refused.text
    assert (await target.get(url)).status_code == 404

    good = await target.post(f"/v1/namespaces/{ns}/import", content=body)
    assert good.status_code == 200 and good.json()["inserted"]["memory"] == 5


async def test_an_export_of_large_messages_is_read_in_bounded_batches_and_imports_whole(
    client: httpx.AsyncClient, target: httpx.AsyncClient, ns: str
) -> None:
    """Messages of half a batch's byte budget each (app.core.batches): the export's reads are cut by bytes,
    each row in exactly once, and the import reads back the same history."""
    url = f"/v1/namespaces/{ns}/profiles/big"
    chat = f"{url}/sessions/long"
    texts = [f"Report {i} ✓ 漢字. " + "ligne de données " * (BATCH_BYTES // 2 // 17) for i in range(7)]
    for i, body in enumerate(texts):
        await append(client, chat, text_message(f"m{i}", "user" if i % 2 == 0 else "assistant", body))
    for i in range(40):
        await client.post(f"{url}/remember", json={"content": f"Fact number {i} about the archive."})
    dump = await export(client, ns, profile="big")
    lines = [json.loads(line) for line in dump.splitlines()]
    messages = [line["data"] for line in lines if line["type"] == "message"]
    assert [m["id"] for m in messages] == [f"m{i}" for i in range(7)]
    assert [m["parts"][0]["text"] for m in messages] == texts
    assert len([line for line in lines if line["type"] == "memory"]) == 40
    assert lines[-1] == {"type": "end", "records": len(lines) - 2}

    assert (await target.post("/v1/namespaces", json={"name": ns})).status_code in (201, 409)
    imported = await target.post(f"/v1/namespaces/{ns}/import", content=dump)
    assert imported.status_code == 200, imported.text
    source = (await client.get(f"{chat}/history")).json()
    assert (await target.get(f"{chat}/history")).json() == source
