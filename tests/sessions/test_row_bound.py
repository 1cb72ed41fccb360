"""Session messages are bounded as the reference bounds them (app.sessions.row_bound): text of any message
up to the row bound round-trips intact (the 200 KB reference case), a tool output that takes a message over
it is stored as a preview with a note recommending to run the tool again, and extraction and search read a
bounded prefix of each message's text."""

from __future__ import annotations

import httpx

from app.sessions.row_bound import INDEXED_TEXT_BYTES, MESSAGE_ROW_BYTES, PREVIEW_CHARS
from tests.sessions.helpers import append, new_session, text_message


async def test_a_200_kb_user_message_round_trips_intact(client: httpx.AsyncClient, profile_url: str) -> None:
    url = f"{profile_url}/sessions/{await new_session(client, profile_url)}"
    text = "Large message content. " * (200_000 // 23) + "ünïcödé ✓ 漢字"
    await append(client, url, text_message("large", "user", text))
    assert (await client.get(f"{url}/messages/large")).json()["parts"][0]["text"] == text
    history = (await client.get(f"{url}/history")).json()["messages"]
    assert history[-1]["parts"][0]["text"] == text


async def test_a_19_mb_tool_output_is_stored_as_a_preview_with_a_note(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    url = f"{profile_url}/sessions/{await new_session(client, profile_url)}"
    output = "row 1: " + "x" * (19 * 1024 * 1024)
    message = {
        "id": "tool",
        "role": "assistant",
        "parts": [
            {"type": "text", "text": "I ran the query."},
            {
                "type": "tool-sql",
                "toolCallId": "c1",
                "state": "output-available",
                "input": {"q": "SELECT"},
                "output": output,
            },
            {"type": "tool-small", "toolCallId": "c2", "state": "output-available", "output": {"rows": 3}},
        ],
    }
    stored = await client.post(f"{url}/messages", json={"message": message})
    assert stored.status_code == 201, stored.text[:300]
    parts = (await client.get(f"{url}/messages/tool")).json()["parts"]
    assert parts[0] == message["parts"][0] and parts[2] == message["parts"][2]  # the rest kept as sent
    big = parts[1]
    assert big["input"] == {"q": "SELECT"} and big["toolCallId"] == "c1"
    assert big["output"].startswith(output[:PREVIEW_CHARS])
    assert "Run the tool again" in big["output"] and len(big["output"]) < PREVIEW_CHARS + 500
    history = (await client.get(f"{url}/history")).json()
    assert len(history["messages"][-1]["parts"][1]["output"]) < PREVIEW_CHARS + 500


async def test_text_over_the_row_bound_is_refused(client: httpx.AsyncClient, profile_url: str) -> None:
    url = f"{profile_url}/sessions/{await new_session(client, profile_url)}"
    text = "a" * (MESSAGE_ROW_BYTES + 1)
    refused = await client.post(f"{url}/messages", json={"message": text_message("huge", "user", text)})
    assert refused.status_code == 422 and refused.json()["code"] == "validation_failed"
    assert str(MESSAGE_ROW_BYTES) in refused.text


async def test_search_reads_a_bounded_prefix_of_each_message(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    url = f"{profile_url}/sessions/{await new_session(client, profile_url)}"
    filler = "plain words here " * (INDEXED_TEXT_BYTES // 17 + 100)
    await append(client, url, text_message("long", "user", f"marmalade {filler} zeppelin"))
    found = await client.get(f"{url}/search", params={"q": "marmalade"})
    assert [m["id"] for m in found.json()["results"]] == ["long"]
    assert (await client.get(f"{url}/search", params={"q": "zeppelin"})).json()["results"] == []
    # The message itself is whole.
    assert (await client.get(f"{url}/messages/long")).json()["parts"][0]["text"].endswith("zeppelin")
