"""The job queue under real concurrency: no job runs twice, a killed worker's job is finished by another."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
from sqlalchemy import text

from app.core.settings import Settings
from app.worker.context import JobContext, JobInfo
from app.worker.kinds import JobPayload, JobResult
from app.worker.queue import enqueue
from app.worker.registry import registry
from app.worker.runner import Worker
from tests.conftest import make_settings

# Test job kinds, registered the way the product registers its own.
RUNS: Counter[str] = Counter()
ATTEMPTS: Counter[str] = Counter()


class ProbePayload(JobPayload):
    kind: ClassVar[str] = "test_probe"
    n: str


class BrokenPayload(JobPayload):
    kind: ClassVar[str] = "test_broken"
    tag: str


@registry.job(ProbePayload)
async def probe(ctx: JobContext, job: JobInfo, payload: ProbePayload) -> JobResult:
    RUNS[payload.n] += 1
    await asyncio.sleep(0.005)
    return JobResult()


@registry.job(BrokenPayload)
async def broken(ctx: JobContext, job: JobInfo, payload: BrokenPayload) -> JobResult:
    ATTEMPTS[payload.tag] += 1
    raise RuntimeError(f"upstream said no ({payload.tag})")


async def test_two_workers_never_run_a_job_twice(app: Any, settings: Settings, profile_url: str) -> None:
    RUNS.clear()
    async with app.state.sessionmaker() as db:
        for n in range(120):
            await enqueue(db, ProbePayload(n=str(n)), profile_id=None)
        await db.commit()
    url = settings.database_url or ""
    one = Worker(settings, app.state.sessionmaker, url, name="w1")
    two = Worker(settings, app.state.sessionmaker, url, name="w2")
    await asyncio.gather(one.drain(), two.drain())
    await one.stop()
    await two.stop()
    assert len(RUNS) == 120 and set(RUNS.values()) == {1}


async def test_killed_worker_job_is_finished_by_another(
    client: httpx.AsyncClient, profile_url: str, database_url: str, app: Any
) -> None:
    response = await client.post(
        f"{profile_url}/ingest",
        json={
            "sessionId": "k",
            "messages": [{"role": "user", "content": "I keep bees on my roof in Bristol."}],
        },
    )
    job_id = response.json()["jobId"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    env.update(
        AGENT_MEMORY_DATABASE_URL=database_url,
        AGENT_MEMORY_JOB_LEASE_SECONDS="2",
        AGENT_MEMORY_WORKER_POLL_SECONDS="0.1",
        AGENT_MEMORY_LOG_FORMAT="console",
        PYTHONPATH=str(Path(__file__).resolve().parents[2]),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.memories.slow_worker"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert proc.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), timeout=60)
        assert line.strip() == b"claimed"
        status = (await client.get(f"{profile_url}/jobs/{job_id}")).json()
        assert status["status"] == "running"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()

    started = time.monotonic()
    rescuer = Worker(
        make_settings(database_url, job_lease_seconds=2.0),
        app.state.sessionmaker,
        database_url,
        name="rescuer",
    )
    await rescuer.drain(timeout=30)
    await rescuer.stop()
    assert time.monotonic() - started >= 0.5, "the job waited for the dead worker's lease"
    job = (await client.get(f"{profile_url}/jobs/{job_id}")).json()
    assert job["status"] == "done" and job["attempts"] == 2
    memories = (await client.get(f"{profile_url}/memories")).json()["memories"]
    assert len(memories) == 1 and "bees" in memories[0]["summary"]


async def test_failing_job_retries_then_fails_with_error_kept(app: Any, settings: Settings) -> None:
    async with app.state.sessionmaker() as db:
        job_id = await enqueue(db, BrokenPayload(tag="three"), profile_id=None, max_attempts=3)
        await db.commit()
    w = Worker(settings, app.state.sessionmaker, settings.database_url or "", name="w")
    await w.drain()
    await w.stop()
    assert ATTEMPTS["three"] == 3
    async with app.state.sessionmaker() as db:
        row = (
            await db.execute(
                text("SELECT status, attempts, last_error FROM jobs WHERE id = :id"), {"id": job_id}
            )
        ).one()
    assert row.status == "failed" and row.attempts == 3 and "upstream said no (three)" in row.last_error


async def test_worker_loop_wakes_on_notify(
    app: Any, settings: Settings, client: httpx.AsyncClient, profile_url: str
) -> None:
    """The running loop (not drain) picks up a job promptly through LISTEN/NOTIFY."""
    slow_poll = make_settings(settings.database_url or "", worker_poll_seconds=30.0)
    w = Worker(slow_poll, app.state.sessionmaker, settings.database_url or "", name="listener")
    await w.start()
    try:
        await asyncio.sleep(0.3)  # let it LISTEN
        response = await client.post(
            f"{profile_url}/ingest",
            json={"messages": [{"role": "user", "content": "I play chess every Sunday."}]},
        )
        job_id = response.json()["jobId"]
        for _ in range(100):
            if (await client.get(f"{profile_url}/jobs/{job_id}")).json()["status"] == "done":
                break
            await asyncio.sleep(0.05)
        assert (await client.get(f"{profile_url}/jobs/{job_id}")).json()["status"] == "done"
    finally:
        await w.stop()


async def test_worker_process_runs_jobs_and_stops_cleanly_on_sigterm(
    client: httpx.AsyncClient, profile_url: str, database_url: str
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    env.update(AGENT_MEMORY_DATABASE_URL=database_url, AGENT_MEMORY_LOG_FORMAT="console")
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "worker"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        response = await client.post(
            f"{profile_url}/ingest",
            json={"messages": [{"role": "user", "content": "I teach yoga on Tuesday evenings."}]},
        )
        job_id = response.json()["jobId"]
        for _ in range(200):
            if (await client.get(f"{profile_url}/jobs/{job_id}")).json()["status"] == "done":
                break
            await asyncio.sleep(0.1)
        assert (await client.get(f"{profile_url}/jobs/{job_id}")).json()["status"] == "done"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


async def test_job_max_attempts_setting_applies_to_jobs_without_their_own(
    app: Any, settings: Settings
) -> None:
    async with app.state.sessionmaker() as db:
        job_id = await enqueue(db, BrokenPayload(tag="setting"), profile_id=None)
        await db.commit()
    two = make_settings(settings.database_url or "", job_max_attempts=2)
    w = Worker(two, app.state.sessionmaker, settings.database_url or "", name="w2")
    await w.drain()
    await w.stop()
    assert ATTEMPTS["setting"] == 2
    async with app.state.sessionmaker() as db:
        status = (
            await db.execute(text("SELECT status FROM jobs WHERE id = :id"), {"id": job_id})
        ).scalar_one()
    assert status == "failed"


class LosesConnectionPayload(JobPayload):
    kind: ClassVar[str] = "test_loses_connection"


@registry.job(LosesConnectionPayload)
async def loses_connection(ctx: JobContext, job: JobInfo, payload: LosesConnectionPayload) -> JobResult:
    """First attempt: the handler's own connection is terminated under it, mid-transaction."""
    async with ctx.transaction() as db:
        await db.execute(text("SELECT 1"))
        if job.attempts == 1:
            await db.execute(text("SELECT pg_terminate_backend(pg_backend_pid())"))
    return JobResult(memories_created=job.attempts)


async def test_job_whose_connection_drops_is_released_at_once(
    app: Any, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    async with app.state.sessionmaker() as db:
        job_id = await enqueue(db, LosesConnectionPayload(), profile_id=None)
        await db.commit()
    # A lease that never expires in this test: were the job left `running`, drain would time out.
    long_lease = make_settings(settings.database_url or "", job_lease_seconds=3600.0)
    w = Worker(long_lease, app.state.sessionmaker, settings.database_url or "", name="lost")
    with caplog.at_level(logging.INFO, logger="agent_memory.worker"):
        await w.drain(timeout=30)
    await w.stop()
    async with app.state.sessionmaker() as db:
        row = (
            await db.execute(
                text("SELECT status, attempts, result, last_error FROM jobs WHERE id = :id"), {"id": job_id}
            )
        ).one()
    assert row.status == "done" and row.attempts == 2 and row.result == {"memoriesCreated": 2}
    assert any("lost its database connection" in r.getMessage() for r in caplog.records)
    assert not any("never retrieved" in r.getMessage() for r in caplog.records)
