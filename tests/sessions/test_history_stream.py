"""getHistory is streamed (app.sessions.history_stream) in batches bounded in bytes (app.core.batches): a
long path of large messages answers the same document as the one built whole (MCP's `get_history`), in
order, overlays and truncation applied, whatever falls on a batch's edge."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from app.core.batches import BATCH_BYTES
from tests.mcp.test_mcp import admin, data, mcp_client
from tests.sessions.helpers import append, new_session, text_message


def _tool_message(message_id: str, size: int) -> dict[str, Any]:
    return {
        "id": message_id,
        "role": "assistant",
        "parts": [
            {"type": "text", "text": f"I ran the report for {message_id}."},
            {
                "type": "tool-report",
                "toolCallId": f"call-{message_id}",
                "state": "output-available",
                "input": {"q": message_id},
                "output": {"rows": [f"ligne {i} ✓ 漢字 {message_id}" for i in range(size // 30)]},
            },
        ],
    }


async def _long_session(client: httpx.AsyncClient, profile_url: str) -> tuple[str, list[dict[str, Any]]]:
    """More messages than the first batches ask for, every third one big enough that a batch's byte budget
    cuts it: the reads fall on every kind of edge."""
    url = f"{profile_url}/sessions/{await new_session(client, profile_url)}"
    sent = []
    for i in range(37):
        if i % 3 == 2:
            message = _tool_message(f"m{i}", BATCH_BYTES // 3)
        else:
            message = text_message(f"m{i}", "user" if i % 2 == 0 else "assistant", f"Message {i}: ünï ✓")
        await append(client, url, message)
        sent.append(message)
    return url, sent


async def test_a_long_history_of_large_messages_reads_whole_and_in_order(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    url, sent = await _long_session(client, profile_url)
    raw = await client.get(f"{url}/history", params={"raw": "true"})
    assert raw.status_code == 200 and raw.headers["content-type"].startswith("application/json")
    body = raw.json()
    assert len(raw.content) > 3 * BATCH_BYTES  # several batches' worth
    assert [m["id"] for m in body["messages"]] == [m["id"] for m in sent]
    assert [m["parts"] for m in body["messages"]] == [m["parts"] for m in sent]
    assert body["pathLength"] == len(sent)
    assert list(body) == ["messages", "pathLength", "tokenEstimate"]


async def test_the_streamed_history_is_the_document_built_whole(
    app: FastAPI, client: httpx.AsyncClient, ns: str
) -> None:
    profile_url = f"/v1/namespaces/{ns}/profiles/p"
    url, sent = await _long_session(client, profile_url)
    overlay = await client.post(
        f"{url}/compactions",
        json={"summary": "The first reports.", "fromMessageId": "m3", "toMessageId": "m9"},
    )
    assert overlay.status_code == 201, overlay.text
    session_id = url.rsplit("/", 1)[1]
    where = {"namespace": ns, "profile": "p", "session_id": session_id}
    async with mcp_client(app, **admin()) as mcp:
        for params in ({}, {"raw": True}, {"leaf_id": "m20"}):
            whole = data(await mcp.call_tool("get_history", {**where, **params}))
            query = {{"raw": "raw", "leaf_id": "leafId"}[k]: str(v).lower() for k, v in params.items()}
            streamed = (await client.get(f"{url}/history", params=query)).json()
            # MCP leaves out what is null (a message without a speaker's name); REST sends it as null.
            nulls_left_out = [{k: v for k, v in m.items() if v is not None} for m in streamed["messages"]]
            assert {**streamed, "messages": nulls_left_out} == whole, params
    ids = [m["id"] for m in streamed["messages"]]
    assert ids[3].startswith("compaction_") and ids[4] == "m10"


async def test_truncation_applies_to_the_older_messages_of_the_stream(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    url, sent = await _long_session(client, profile_url)
    whole = (await client.get(f"{url}/history")).json()
    cut = (
        await client.get(
            f"{url}/history", params={"truncate": "true", "keepRecent": 2, "maxToolOutputChars": 50}
        )
    ).json()
    assert [m["id"] for m in cut["messages"]] == [m["id"] for m in sent]
    assert cut["messages"][-2:] == whole["messages"][-2:]
    older_tool = cut["messages"][2]["parts"][1]["output"]
    assert isinstance(older_tool, str) and "[truncated" in older_tool
    assert cut["tokenEstimate"] < whole["tokenEstimate"] / 10


async def test_a_missing_leaf_is_a_404_before_anything_is_streamed(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    url = f"{profile_url}/sessions/{await new_session(client, profile_url)}"
    empty = await client.get(f"{url}/history")
    assert empty.status_code == 200 and empty.json()["messages"] == [] and empty.json()["pathLength"] == 0
    missing = await client.get(f"{url}/history", params={"leafId": "nope"})
    assert missing.status_code == 404 and missing.json()["code"] == "message_not_found"
    gone = await client.get(f"{profile_url}/sessions/nope/history")
    assert gone.status_code == 404 and gone.json()["code"] == "session_not_found"
