"""A chat between two people, each message naming its speaker (`name`), end to end: what is kept, how the
people are named, what recall answers and what the summary says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from app.worker.runner import Worker

CHAT: list[dict[str, str]] = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "chat_marta_ben.json").read_text(encoding="utf-8")
)


async def _ingested(client: httpx.AsyncClient, url: str, worker: Worker) -> list[dict[str, Any]]:
    response = await client.post(f"{url}/ingest", json={"sessionId": "catch-up", "messages": CHAT})
    assert response.status_code == 202, response.text
    await worker.drain()
    listed = await client.get(f"{url}/memories", params={"limit": 100})
    return list(listed.json()["memories"])


async def test_speakers_are_named_by_the_message_name(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    summaries = [m["summary"] for m in await _ingested(client, profile_url, worker)]
    assert any("Ben's sister Clara is getting married in Seville on 14 June" in s for s in summaries), (
        summaries
    )
    assert any(s.startswith("Marta started a new job at Feedzai") for s in summaries), summaries
    assert not any("User" in s or "Assistant" in s for s in summaries), summaries


async def test_a_name_prefix_in_the_content_names_the_speaker_too(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    message = {"role": "assistant", "content": "Ben: My sister Clara lives in Seville."}
    response = await client.post(f"{profile_url}/ingest", json={"messages": [message]})
    assert response.status_code == 202, response.text
    await worker.drain()
    listed = (await client.get(f"{profile_url}/memories")).json()["memories"]
    assert [m["summary"] for m in listed] == ["Ben's sister Clara lives in Seville."]


async def test_a_name_longer_than_64_characters_is_refused(
    client: httpx.AsyncClient, profile_url: str
) -> None:
    message = {"role": "user", "name": "x" * 65, "content": "I live in Porto."}
    response = await client.post(f"{profile_url}/ingest", json={"messages": [message]})
    assert response.status_code == 422, response.text
    assert "name" in response.text
