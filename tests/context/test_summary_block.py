"""The `summary` block kind: the profile's Agent Memory summary rendered live, and the recall_memory tool."""

from __future__ import annotations

import httpx

from tests.sessions.helpers import new_session


async def test_summary_block_and_recall_memory(client: httpx.AsyncClient, profile_url: str) -> None:
    ctx = f"{profile_url}/context"
    assert (
        await client.put(f"{ctx}/soul", json={"kind": "readonly", "content": "You are helpful."})
    ).status_code == 201
    defined = await client.put(f"{ctx}/profile", json={"kind": "summary", "description": "What memory knows"})
    assert defined.status_code == 201 and defined.json()["content"] == ""
    sid = await new_session(client, profile_url)
    url = f"{profile_url}/sessions/{sid}"

    names = [t["function"]["name"] for t in (await client.get(f"{url}/tools")).json()["tools"]]
    assert names == ["recall_memory"]  # session_search only comes with a history block
    # An empty profile has an empty summary: the block is skipped, as empty readonly blocks are.
    assert "PROFILE" not in (await client.get(f"{url}/system-prompt")).json()["systemPrompt"]
    empty = await client.post(
        f"{url}/tools/recall_memory", json={"arguments": {"query": "Where does the user live?"}}
    )
    assert empty.status_code == 200 and empty.json()["result"] == "No results found."

    remembered = await client.post(
        f"{profile_url}/remember", json={"content": "I moved to Lisbon last year."}
    )
    assert remembered.status_code in (200, 201), remembered.text
    block = (await client.get(f"{ctx}/profile")).json()
    assert "Lisbon" in block["content"] and block["tokens"] > 0

    prompt = (await client.post(f"{url}/system-prompt/refresh")).json()["systemPrompt"]
    assert "PROFILE (What memory knows) [readonly]\n" in prompt and "Lisbon" in prompt
    recalled = await client.post(
        f"{url}/tools/recall_memory", json={"arguments": {"query": "Where does the user live?"}}
    )
    assert recalled.status_code == 200 and "Lisbon" in recalled.json()["result"]
