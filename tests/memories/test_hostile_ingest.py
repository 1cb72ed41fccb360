"""An ingest of hostile messages (every shape of bench/hostile_texts.py, 32 KiB each) is extracted: the
job finishes, within its bounds, and says how many memories it left."""

from __future__ import annotations

import httpx
import pytest

from app.extraction.statements import MESSAGE_MEMORY_BOUND
from app.memories import extraction_job
from app.worker.runner import Worker
from bench.hostile_texts import SHAPES


async def test_a_hostile_ingest_is_extracted_within_its_bounds(
    client: httpx.AsyncClient, worker: Worker, ns: str
) -> None:
    p = f"/v1/namespaces/{ns}/profiles/p"
    messages = [{"role": "user", "content": make(32 * 1024 - 8)} for make in SHAPES.values()]
    ingested = await client.post(f"{p}/ingest", json={"sessionId": "hostile", "messages": messages})
    assert ingested.status_code == 202, ingested.text
    await worker.drain(timeout=600)
    job = (await client.get(f"{p}/jobs/{ingested.json()['jobId']}")).json()
    assert job["status"] == "done", job
    assert job["memoriesCreated"] <= MESSAGE_MEMORY_BOUND * len(messages)
    assert job["memoriesOverBound"] == 0


async def test_a_job_stores_at_most_its_bound_and_says_how_many_it_left(
    client: httpx.AsyncClient, worker: Worker, ns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(extraction_job, "MEMORIES_PER_JOB", 3)
    p = f"/v1/namespaces/{ns}/profiles/p"
    cities = ["Lisbon", "Porto", "Madrid", "Paris", "Berlin", "Vienna"]
    messages = [{"role": "user", "content": f"I bought a red bike in {city}."} for city in cities]
    ingested = await client.post(f"{p}/ingest", json={"sessionId": "many", "messages": messages})
    await worker.drain(timeout=120)
    job = (await client.get(f"{p}/jobs/{ingested.json()['jobId']}")).json()
    assert job["status"] == "done", job
    assert job["memoriesCreated"] == 3 and job["memoriesOverBound"] == 3
