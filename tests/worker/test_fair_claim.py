"""The worker takes jobs in turns between namespaces, and between profiles within one
(app.worker.repository's claim): a namespace whose backlog was queued first does not hold back another
namespace's one job, which is taken in the first round."""

from __future__ import annotations

import asyncpg
import httpx
from fastapi import FastAPI

from app.core.settings import Settings
from tests.conftest import new_namespace, running_worker


async def _finish_order(database_url: str, job_ids: list[str]) -> list[str]:
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch(
            "SELECT id FROM jobs WHERE id = ANY($1::text[]) ORDER BY finished_at, id", job_ids
        )
    finally:
        await conn.close()
    return [row["id"] for row in rows]


async def _ingest(client: httpx.AsyncClient, ns: str, profile: str, session: str) -> str:
    body = {
        "sessionId": session,
        "messages": [{"role": "user", "content": f"I moved to Porto in {session}."}],
    }
    answer = await client.post(f"/v1/namespaces/{ns}/profiles/{profile}/ingest", json=body)
    assert answer.status_code == 202, answer.text
    return str(answer.json()["jobId"])


async def test_a_namespaces_backlog_does_not_hold_another_namespaces_job(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings, database_url: str
) -> None:
    noisy, quiet = await new_namespace(client), await new_namespace(client)
    backlog = [await _ingest(client, noisy, "p", f"s{i}") for i in range(6)]
    # Another profile of the noisy namespace, queued after: taken before the first profile's fifth job.
    second_profile = await _ingest(client, noisy, "q", "s0")
    late = await _ingest(client, quiet, "p", "s0")
    one_at_a_time = settings.model_copy(update={"worker_concurrency": 1})
    async with running_worker(app, one_at_a_time, "fair") as worker:
        await worker.drain()
    order = await _finish_order(database_url, [*backlog, second_profile, late])
    assert len(order) == 8
    # Oldest first would have run the quiet namespace's job last; in turns it runs second.
    assert order.index(late) == 1, order
    assert order.index(second_profile) < order.index(backlog[4]), order
