"""Extraction first, the vectors after: the `embed` kind is claimed behind the other kinds, yet never starved,
and a running embed job gives way between two rounds to jobs of another kind that are waiting.

Through the worker's real loop, on the fake embeddings server (rounds of 4 memories: its batch size)."""

from __future__ import annotations

from typing import Any, ClassVar

import httpx
from fastapi import FastAPI
from sqlalchemy import text

from app.core.settings import Settings, to_async_url
from app.events.dispatch import follow_events
from app.worker import repository as jobs
from app.worker.context import JobContext, JobInfo
from app.worker.kinds import EmbedPayload, ExtractPayload, JobPayload, JobResult
from app.worker.queue import enqueue
from app.worker.registry import registry
from app.worker.runner import Worker

# The vectors of its profile when each job of the kind below ran, by its tag.
VECTORS_SEEN: dict[str, int] = {}


class WaitingPayload(JobPayload):
    """A job of a kind claimed without delay (as extraction is), recording how many vectors it found."""

    kind: ClassVar[str] = "test_waiting"
    tag: str


@registry.job(WaitingPayload)
async def count_vectors(ctx: JobContext, job: JobInfo, payload: WaitingPayload) -> JobResult:
    async with ctx.transaction() as db:
        count = (
            await db.execute(
                text("SELECT count(*) FROM memory_embeddings WHERE profile_id = :p"), {"p": job.profile_id}
            )
        ).scalar_one()
    VECTORS_SEEN[payload.tag] = count
    return JobResult()


def test_only_the_embed_kind_waits_behind_the_others() -> None:
    assert registry.claim_delays() == {EmbedPayload.kind: EmbedPayload.claim_delay_seconds}
    assert EmbedPayload.claim_delay_seconds > 0 and ExtractPayload.claim_delay_seconds == 0


async def _profile(app: FastAPI, client: httpx.AsyncClient, ns: str, name: str, memories: int) -> int:
    """A profile holding `memories` remembered facts, their embed job queued and not yet run."""
    url = f"/v1/namespaces/{ns}/profiles/{name}"
    for i in range(memories):
        response = await client.post(f"{url}/remember", json={"content": f"My locker number {i} is {i * 7}."})
        assert response.status_code == 201, response.text
    async with app.state.sessionmaker() as db:
        statement = text("SELECT profile_id FROM memories WHERE id = :id")
        profile_id: int = (await db.execute(statement, {"id": response.json()["id"]})).scalar_one()
    # The worker's subscribers read the memories' events and queue the embed job (and run no job).
    await follow_events(JobContext(settings=app.state.settings, sessionmaker=app.state.sessionmaker))
    return profile_id


async def _drain(app: FastAPI, settings: Settings, name: str) -> None:
    worker = Worker(settings, app.state.sessionmaker, to_async_url(settings.database_url or ""), name=name)
    await worker.drain(timeout=60)
    await worker.stop(grace_seconds=5)


async def _age(app: FastAPI, profile_id: int, seconds: float) -> None:
    """Make the profile's queued embed job look queued `seconds` ago."""
    async with app.state.sessionmaker() as db:
        await db.execute(
            text(
                "UPDATE jobs SET run_after = now() - make_interval(secs => :s) "
                "WHERE profile_id = :p AND kind = 'embed' AND status = 'queued'"
            ),
            {"s": seconds, "p": profile_id},
        )
        await db.commit()


async def _queue_waiting(app: FastAPI, profile_id: int, tag: str) -> str:
    async with app.state.sessionmaker() as db:
        job_id = await enqueue(db, WaitingPayload(tag=tag), profile_id=profile_id)
        await db.commit()
    return job_id


async def test_claim_order_puts_embedding_behind_unless_it_waited_the_delay(
    provider_app: FastAPI, provider_client: httpx.AsyncClient, provider_ns: str, provider_settings: Settings
) -> None:
    delays = registry.claim_delays()
    fresh = await _profile(provider_app, provider_client, provider_ns, "fresh", 1)
    waiting = await _queue_waiting(provider_app, fresh, "behind")
    async with provider_app.state.sessionmaker() as db:
        # Queued first, claimed second: the other kind's job goes ahead of a young embed job.
        claimed = await jobs.claim(db, "w1", 30, 1, delays)
        assert [j.id for j in claimed] == [waiting]
        await db.rollback()
    # An embed job that waited past its delay is claimed before a job queued after it: never starved.
    await _age(provider_app, fresh, EmbedPayload.claim_delay_seconds + 5)
    async with provider_app.state.sessionmaker() as db:
        claimed = await jobs.claim(db, "w1", 30, 1, delays)
        assert [j.kind for j in claimed] == [EmbedPayload.kind]
        await db.rollback()
    await _drain(provider_app, provider_settings, "claim-order")


async def test_a_running_embed_job_gives_way_and_its_rest_runs_after(
    provider_app: FastAPI, provider_client: httpx.AsyncClient, provider_ns: str, provider_settings: Settings
) -> None:
    profile_id = await _profile(provider_app, provider_client, provider_ns, "busy", 10)
    # The embed job is claimed first (it waited past its delay); a job of another kind is due meanwhile.
    await _age(provider_app, profile_id, EmbedPayload.claim_delay_seconds + 5)
    await _queue_waiting(provider_app, profile_id, "during")
    one_at_a_time = provider_settings.model_copy(update={"worker_concurrency": 1})
    await _drain(provider_app, one_at_a_time, "gives-way")

    async with provider_app.state.sessionmaker() as db:
        rows = (
            await db.execute(
                text(
                    "SELECT kind, status, result FROM jobs WHERE profile_id = :p AND kind IN ('embed', 'test_waiting') "
                    "ORDER BY finished_at"
                ),
                {"p": profile_id},
            )
        ).all()
        vectors = (
            await db.execute(
                text("SELECT count(*) FROM memory_embeddings WHERE profile_id = :p"), {"p": profile_id}
            )
        ).scalar_one()
    done: list[tuple[str, Any]] = [
        (r.kind, r.result.get("vectorsStored")) for r in rows if r.status == "done"
    ]
    # One round of 4 vectors, then the waiting job, then the rest of the profile in a job of its own.
    assert done == [("embed", 4), ("test_waiting", None), ("embed", 6)], done
    assert VECTORS_SEEN["during"] == 4
    assert vectors == 10
