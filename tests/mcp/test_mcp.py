"""The MCP server at /mcp, driven by the official SDK's own client over Streamable HTTP (the ASGI app
through httpx2, the SDK's HTTP client): tools listed with schemas, remember → recall, every memory tool,
session tools, keys and errors carrying the problem's code."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import httpx2
from fastapi import FastAPI
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

from app.worker.runner import Worker
from tests.conftest import ADMIN_KEY

BASE = "http://127.0.0.1:8080"
TOOLS = {
    "remember",
    "recall",
    "ingest",
    "list_memories",
    "get_memory",
    "delete_memory",
    "get_summary",
    "search_sessions",
    "get_history",
}


@asynccontextmanager
async def mcp_client(app: FastAPI, **headers: str) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE, headers=headers)
    async with http, Client(streamable_http_client(f"{BASE}/mcp", http_client=http)) as client:
        yield client


def data(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    content: dict[str, Any] | None = result.structured_content
    assert content is not None
    return content


def admin() -> dict[str, str]:
    return {"authorization": f"Bearer {ADMIN_KEY}"}


async def test_tools_are_listed_with_schemas_and_descriptions(app: FastAPI) -> None:
    async with mcp_client(app, **admin()) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 40
        schema = tool.input_schema
        assert schema["type"] == "object"
        assert {"namespace", "profile"} <= set(schema["properties"])
        assert all(p.get("description") for p in schema["properties"].values()), tool.name
    assert tools["remember"].input_schema["required"] == ["content"]
    assert tools["get_history"].input_schema["required"] == ["session_id"]


async def test_an_agent_remembers_and_recalls_through_mcp(app: FastAPI, ns: str) -> None:
    where = {"namespace": ns, "profile": "agent"}
    async with mcp_client(app, **admin()) as client:
        stored = data(await client.call_tool("remember", {"content": "I live in Lisbon.", **where}))
        assert stored["created"] is True and stored["type"] == "fact"
        again = data(await client.call_tool("remember", {"content": "I live in Lisbon.", **where}))
        assert again["id"] == stored["id"] and again["created"] is False

        found = data(await client.call_tool("recall", {"query": "Where do I live?", **where}))
        assert found["count"] >= 1
        assert found["candidates"][0]["id"] == stored["id"]
        assert "Lisbon" in found["answer"]

        listed = data(await client.call_tool("list_memories", {"limit": 5, **where}))
        assert [m["id"] for m in listed["memories"]] == [stored["id"]]
        one = data(await client.call_tool("get_memory", {"memory_id": stored["id"], **where}))
        assert one["content"] == "I live in Lisbon."
        summary = data(await client.call_tool("get_summary", where))
        assert "Lisbon" in summary["summary"]
        deleted = data(await client.call_tool("delete_memory", {"memory_id": stored["id"], **where}))
        assert deleted["id"] == stored["id"]
        gone = await client.call_tool("get_memory", {"memory_id": stored["id"], **where})
    assert gone.is_error
    assert gone.structured_content is not None and gone.structured_content["code"] == "memory_not_found"
    assert gone.content[0].text.startswith("memory_not_found:")  # type: ignore[union-attr]


async def test_ingest_search_and_history(app: FastAPI, client: httpx.AsyncClient, ns: str) -> None:
    where = {"namespace": ns, "profile": "bob"}
    async with mcp_client(app, **admin()) as mcp:
        result = data(
            await mcp.call_tool(
                "ingest",
                {
                    "session_id": "trip",
                    "messages": [
                        {"role": "user", "content": "We are planning a trip to Kyoto in April."},
                        {"role": "assistant", "content": "Cherry blossom season, book early."},
                    ],
                    **where,
                },
            )
        )
        assert result["sessionId"] == "trip" and result["messagesNew"] == 2 and result["jobId"]
        # Conversations of the Session API are searchable and readable through the session tools.
        profile = f"/v1/namespaces/{ns}/profiles/bob"
        created = await client.post(f"{profile}/sessions", json={"id": "s1", "name": "Chat"})
        assert created.status_code == 201, created.text
        message = {
            "id": "m1",
            "role": "user",
            "parts": [{"type": "text", "text": "Deploying the release tonight"}],
        }
        appended = await client.post(f"{profile}/sessions/s1/messages", json={"message": message})
        assert appended.status_code == 201, appended.text
        hits = data(await mcp.call_tool("search_sessions", {"query": "deployment", **where}))
        assert [h["sessionId"] for h in hits["results"]] == ["s1"]
        history = data(await mcp.call_tool("get_history", {"session_id": "s1", **where}))
        assert [m["id"] for m in history["messages"]] == ["m1"]
        missing = await mcp.call_tool("get_history", {"session_id": "nope", **where})
    assert missing.is_error and missing.structured_content is not None
    assert missing.structured_content["code"] == "session_not_found"


async def test_scoped_key_implies_namespace_and_header_sets_profile(
    app: FastAPI, client: httpx.AsyncClient, ns: str
) -> None:
    key = (await client.post(f"/v1/namespaces/{ns}/keys", json={"name": "agent"})).json()["key"]
    async with mcp_client(app, authorization=f"Bearer {key}", **{"x-agent-memory-profile": "carol"}) as mcp:
        stored = data(await mcp.call_tool("remember", {"content": "Allergic to peanuts."}))
        other = await client.post("/v1/namespaces", json={"name": "o-" + secrets.token_hex(5)})
        outside = await mcp.call_tool(
            "list_memories", {"namespace": other.json()["name"], "profile": "carol"}
        )
    assert outside.is_error and outside.structured_content is not None
    assert outside.structured_content["code"] == "namespace_not_found"
    listed = await client.get(f"/v1/namespaces/{ns}/profiles/carol/memories")
    assert [m["id"] for m in listed.json()["memories"]] == [stored["id"]]


async def test_validation_and_missing_profile_are_tool_errors(app: FastAPI, ns: str) -> None:
    async with mcp_client(app, **admin()) as mcp:
        no_profile = await mcp.call_tool("recall", {"query": "anything", "namespace": ns})
        too_long = await mcp.call_tool("recall", {"query": "x" * 2000, "namespace": ns, "profile": "p"})
        unknown = await mcp.call_tool("get_summary", {"namespace": ns, "profile": "nobody"})
        wrong_type = await mcp.call_tool("list_memories", {"limit": "many", "namespace": ns, "profile": "p"})
        # Names past their limits are the caller's error, as over REST (422), never "unavailable".
        long_profile = await mcp.call_tool(
            "remember", {"content": "x", "namespace": ns, "profile": "p" * 5000}
        )
        long_namespace = await mcp.call_tool(
            "remember", {"content": "x", "namespace": "n" * 5000, "profile": "p"}
        )
        long_session = await mcp.call_tool(
            "remember", {"content": "x", "namespace": ns, "profile": "p", "session_id": "s" * 5000}
        )
    for result, code in (
        (long_profile, "validation_failed"),
        (long_namespace, "validation_failed"),
        (long_session, "validation_failed"),
        (no_profile, "validation_failed"),
        (too_long, "validation_failed"),
        (unknown, "profile_not_found"),
        (wrong_type, "validation_failed"),
    ):
        assert result.is_error and result.structured_content is not None
        assert result.structured_content["code"] == code


async def test_mcp_needs_a_key_when_not_open(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as http:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
        headers = {"accept": "application/json, text/event-stream"}
        missing = await http.post("/mcp", json=body, headers=headers)
        wrong = await http.post("/mcp", json=body, headers={**headers, "authorization": "Bearer amk_x_y"})
    assert missing.status_code == 401 and missing.json()["code"] == "unauthorized"
    assert wrong.status_code == 401


async def test_wrong_argument_names_are_refused_naming_the_expected_ones(app: FastAPI, ns: str) -> None:
    where = {"namespace": ns, "profile": "p"}
    async with mcp_client(app, **admin()) as mcp:
        by_id = await mcp.call_tool("get_memory", {"id": "01MXXXXXXXXXXXXXXXXXXXXXXX", **where})
        typo = await mcp.call_tool("recall", {"question": "where?", **where})
    assert by_id.is_error and by_id.structured_content is not None
    assert by_id.structured_content["code"] == "validation_failed"
    assert by_id.structured_content["detail"] == (
        'get_memory: unknown argument "id"; missing required argument "memory_id". '
        "Its arguments: memory_id (required), namespace, profile."
    )
    assert by_id.content[0].text.startswith("validation_failed: get_memory: unknown argument")  # type: ignore[union-attr]
    assert typo.is_error and typo.structured_content is not None
    detail = typo.structured_content["detail"]
    assert 'unknown argument "question"' in detail and "query (required)" in detail


async def test_a_memory_deleted_through_mcp_stays_deleted(
    app: FastAPI, client: httpx.AsyncClient, ns: str, worker: Worker
) -> None:
    """Two speakers' same words are two messages; deleting one memory and re-sending the conversation, or
    remembering the statement again, does not bring it back; `restore` does."""
    where = {"namespace": ns, "profile": "pair"}
    conversation = {
        "session_id": "chat",
        "messages": [
            {"role": "user", "name": "Alice", "content": "I am allergic to peanuts."},
            {"role": "user", "name": "Bob", "content": "I am allergic to peanuts."},
        ],
        **where,
    }
    async with mcp_client(app, **admin()) as mcp:
        first = data(await mcp.call_tool("ingest", conversation))
        assert first["messagesNew"] == 2
        await worker.drain()
        listed = data(await mcp.call_tool("list_memories", {"limit": 10, **where}))["memories"]
        bob = next(m for m in listed if m["summary"].startswith("Bob"))
        assert any(m["summary"].startswith("Alice") for m in listed)
        data(await mcp.call_tool("delete_memory", {"memory_id": bob["id"], **where}))

        again = data(await mcp.call_tool("ingest", conversation))
        assert again["messagesNew"] == 0 and again.get("jobId") is None
        await worker.drain()
        content = "Bob: I am allergic to peanuts."
        refused = await mcp.call_tool("remember", {"content": content, **where})
        assert refused.is_error and refused.structured_content is not None
        assert refused.structured_content["code"] == "memory_forgotten"
        assert refused.structured_content["tombstoneId"] == bob["id"]
        listed = data(await mcp.call_tool("list_memories", {"limit": 10, **where}))["memories"]
        assert [m["summary"] for m in listed] == ["Alice is allergic to peanuts."]

        restored = data(await mcp.call_tool("remember", {"content": content, "restore": True, **where}))
        assert restored["created"] is True
    tombstones = await client.get(f"/v1/namespaces/{ns}/profiles/pair/tombstones")
    assert tombstones.json()["tombstones"] == []
