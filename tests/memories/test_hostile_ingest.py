"""An ingest of hostile messages (every shape of bench/hostile_texts.py, 32 KiB each) is extracted: the
job finishes, within its bounds, and says how many memories it left."""

from __future__ import annotations

import httpx

from app.extraction.default import MESSAGE_MEMORY_BOUND
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
