"""Key scopes (app.core.scopes): a read key recalls, lists, reads, summarises, searches and exports; a write
key also ingests, remembers, edits and deletes; an admin key of the namespace also manages its keys and
webhooks, imports, and deletes the namespace. Each operation allowed and refused per scope, over REST and
MCP; a key without the admin scope can neither mint nor revoke."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.mcp.test_mcp import data, mcp_client

RANK = {"read": 0, "write": 1, "admin": 2}


async def _keys(client: httpx.AsyncClient, ns: str) -> dict[str, str]:
    minted = {}
    for scope in ("read", "write", "admin"):
        answer = await client.post(f"/v1/namespaces/{ns}/keys", json={"name": scope, "scope": scope})
        assert answer.status_code == 201 and answer.json()["scope"] == scope, answer.text
        minted[scope] = answer.json()["key"]
    return minted


def _operations(ns: str, memory_id: str, key_id: str) -> list[tuple[str, str, str, Any]]:
    p = f"/v1/namespaces/{ns}/profiles/alice"
    return [
        ("read", "POST", f"{p}/recall", {"query": "bees"}),
        ("read", "GET", f"{p}/memories", None),
        ("read", "GET", f"{p}/memories/{memory_id}", None),
        ("read", "GET", f"{p}/memories/{memory_id}/history", None),
        ("read", "POST", f"{p}/summary", {}),
        ("read", "GET", f"{p}/sessions/s1/history", None),
        ("read", "GET", f"{p}/search?q=bees", None),
        ("read", "GET", f"/v1/namespaces/{ns}/export", None),
        ("write", "POST", f"{p}/ingest", {"messages": [{"role": "user", "content": "I keep bees."}]}),
        ("write", "POST", f"{p}/remember", {"content": "I like honey."}),
        ("write", "PATCH", f"{p}/memories/{memory_id}", {"summary": "User keeps bees"}),
        (
            "write",
            "POST",
            f"{p}/sessions/s1/messages",
            {"message": {"id": "m9", "role": "user", "parts": []}},
        ),
        ("write", "DELETE", f"{p}/memories/01J0000000000000000000000Z", None),
        ("admin", "GET", f"/v1/namespaces/{ns}/keys", None),
        ("admin", "POST", f"/v1/namespaces/{ns}/keys", {"name": "another"}),
        ("admin", "DELETE", f"/v1/namespaces/{ns}/keys/{key_id}", None),
        ("admin", "GET", f"/v1/namespaces/{ns}/webhooks", None),
        ("admin", "POST", f"/v1/namespaces/{ns}/import", None),
    ]


async def test_each_scope_allowed_and_refused_per_operation(
    app: FastAPI, client: httpx.AsyncClient, ns: str
) -> None:
    p = f"/v1/namespaces/{ns}/profiles/alice"
    memory = (await client.post(f"{p}/remember", json={"content": "I keep bees on the roof."})).json()
    await client.post(
        f"{p}/sessions/s1/messages", json={"message": {"id": "m1", "role": "user", "parts": []}}
    )
    keys = await _keys(client, ns)
    victim = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "victim"})).json()["id"]
    for scope, key in keys.items():
        headers = {"Authorization": f"Bearer {key}"}
        for need, method, path, body in _operations(ns, memory["id"], victim):
            kwargs: dict[str, Any] = {"json": body} if body is not None else {}
            if path.endswith("/import"):
                kwargs = {"content": b"", "headers": {**headers, "content-type": "application/x-ndjson"}}
            else:
                kwargs["headers"] = headers
            answer = await client.request(method, path, **kwargs)
            if RANK[scope] >= RANK[need]:
                assert answer.status_code != 403, (scope, method, path, answer.text)
            else:
                assert answer.status_code == 403, (scope, method, path, answer.status_code)
                assert answer.json()["code"] == "forbidden" and need in answer.json()["detail"]
    me = await client.get("/v1/key", headers={"Authorization": f"Bearer {keys['read']}"})
    assert me.json()["scope"] == "read"


async def test_only_an_admin_mints_or_revokes_and_deletes_the_namespace(
    client: httpx.AsyncClient, ns: str
) -> None:
    keys = await _keys(client, ns)
    admin_key = keys.pop("admin")
    for key in keys.values():
        headers = {"Authorization": f"Bearer {key}"}
        own_id = key.split("_")[1]
        # A leaked read or write key can neither mint a successor nor revoke (its own or a sibling).
        assert (
            await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "x"}, headers=headers)
        ).status_code == 403
        assert (await client.delete(f"/v1/namespaces/{ns}/keys/{own_id}", headers=headers)).status_code == 403
        assert (await client.delete(f"/v1/namespaces/{ns}", headers=headers)).status_code == 403
    headers = {"Authorization": f"Bearer {admin_key}"}
    made = await client.post(
        f"/v1/namespaces/{ns}/keys", json={"name": "by-ns-admin", "scope": "read"}, headers=headers
    )
    assert made.status_code == 201 and made.json()["scope"] == "read"
    assert (
        await client.delete(f"/v1/namespaces/{ns}/keys/{made.json()['id']}", headers=headers)
    ).status_code == 204
    assert (await client.delete(f"/v1/namespaces/{ns}", headers=headers)).status_code == 204
    listed = (await client.post("/v1/namespaces", json={"name": ns})).status_code
    assert listed == 201  # the name is free again


@pytest.mark.parametrize("scope", ["read", "write"])
async def test_mcp_tools_honour_the_scope(
    app: FastAPI, client: httpx.AsyncClient, ns: str, scope: str
) -> None:
    p = f"/v1/namespaces/{ns}/profiles/alice"
    memory = (await client.post(f"{p}/remember", json={"content": "I keep bees on the roof."})).json()
    key = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": scope, "scope": scope})).json()["key"]
    where = {"namespace": ns, "profile": "alice"}
    async with mcp_client(app, authorization=f"Bearer {key}") as mcp:
        reads = [
            await mcp.call_tool("recall", {"query": "bees", **where}),
            await mcp.call_tool("list_memories", where),
            await mcp.call_tool("get_memory", {"memory_id": memory["id"], **where}),
            await mcp.call_tool("get_summary", where),
        ]
        writes = [
            await mcp.call_tool("remember", {"content": "I like honey.", **where}),
            await mcp.call_tool(
                "ingest", {"messages": [{"role": "user", "content": "I keep bees."}], **where}
            ),
            await mcp.call_tool("delete_memory", {"memory_id": memory["id"], **where}),
        ]
    for result in reads:
        assert not result.is_error, result
    for result in writes:
        if scope == "write":
            assert not result.is_error, result
        else:
            assert result.is_error and result.structured_content is not None
            assert result.structured_content["code"] == "forbidden"
    if scope == "write":
        assert data(writes[0])["content"] == "I like honey."
