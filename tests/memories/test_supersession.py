"""Supersession leaves exactly the newest statement of a topic active, within a batch and across batches."""

from __future__ import annotations

import httpx

from app.worker.runner import Worker


async def _ingest(client: httpx.AsyncClient, url: str, sid: str, contents: list[str]) -> None:
    messages = [{"role": "user", "content": c} for c in contents]
    response = await client.post(f"{url}/ingest", json={"sessionId": sid, "messages": messages})
    assert response.status_code == 202, response.text


async def _summaries(client: httpx.AsyncClient, url: str) -> list[str]:
    listed = (await client.get(f"{url}/memories", params={"limit": 100})).json()["memories"]
    return [m["summary"] for m in listed]


async def test_one_batch_of_compound_statements_loses_nothing(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _ingest(
        client, profile_url, "s1", [f"I moved to Lisbon and I like fado number {i}." for i in range(5)]
    )
    await worker.drain()
    summaries = await _summaries(client, profile_url)
    assert sum("Lisbon" in s for s in summaries) == 1, summaries
    assert sorted(s for s in summaries if "fado" in s) == [f"User likes fado number {i}." for i in range(5)]
    assert not any("Lisbon" in s and "fado" in s for s in summaries), "a compound statement is split"


async def test_newest_of_a_topic_wins_within_a_batch_and_across_batches(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _ingest(
        client, profile_url, "s1", ["I moved to Lisbon.", "I moved to Porto.", "I moved to Madrid."]
    )
    await worker.drain()
    assert [s for s in await _summaries(client, profile_url) if "moved" in s] == ["User moved to Madrid."]

    await _ingest(client, profile_url, "s2", ["I moved to Berlin.", "I moved to Vienna."])
    await worker.drain()
    assert [s for s in await _summaries(client, profile_url) if "moved" in s] == ["User moved to Vienna."]
    recall = (await client.post(f"{profile_url}/recall", json={"query": "Where did the user move?"})).json()
    assert [c["summary"] for c in recall["candidates"] if "moved" in c["summary"]] == [
        "User moved to Vienna."
    ]


async def test_superseding_one_part_of_a_compound_statement_keeps_the_other(
    client: httpx.AsyncClient, profile_url: str, worker: Worker
) -> None:
    await _ingest(client, profile_url, "s1", ["I moved to Lisbon and I like fado."])
    await worker.drain()
    await _ingest(client, profile_url, "s2", ["I moved to Porto."])
    await worker.drain()
    summaries = await _summaries(client, profile_url)
    assert "User likes fado." in summaries and "User moved to Porto." in summaries, summaries
    assert not any("Lisbon" in s for s in summaries)
