"""The scaled fault scenario: two API processes and two workers on one database, one of each SIGKILLed and
started again, then PostgreSQL restarted, all under the writers' load; optionally every process through
PgBouncer in transaction mode (bench/faults/pgbouncer.py).

Checked afterwards, on a direct connection: every acknowledged memory and message is there, no memory is
duplicated, every job finished (none failed), and no job that ran more than once (its worker killed, its
connection lost) left a different result: every acknowledged message is cited by as many memories as the
extractor makes of one such message, none by more and none by fewer.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import time
from collections import Counter
from typing import Any

import httpx

from bench.faults.cluster import Cluster
from bench.faults.pgbouncer import Bouncer
from bench.faults.run import Run, _connect, drain, fault_amid_load, load, namespace, verify
from bench.harness import ADMIN_KEY, Server, service


def worker_server(database_url: str, env: dict[str, str]) -> Server:
    """`agent-memory worker` with its health port, ready when /healthz answers."""
    return Server(
        env={"AGENT_MEMORY_DATABASE_URL": database_url, "AGENT_MEMORY_ADMIN_KEY": ADMIN_KEY, **env},
        args=("-m", "app", "worker", "--metrics-port", "{port}"),
        ready_path="/healthz",
    )


async def long_jobs(run: Run, base: str, ns: str, sessions: int = 2, messages: int = 300) -> None:
    """Sessions of many messages (worded as the writers' are, so one extraction makes as many memories of
    each): one long extraction job per session."""
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=60) as client:
        for s in range(sessions):
            texts = [
                f"In {run.name} batch {s}-{i} I planted {i} tomato seedlings in pot number {100 + s}."
                for i in range(messages)
            ]
            body = {"sessionId": f"long{s}", "messages": [{"role": "user", "content": t} for t in texts]}
            r = await client.post(f"/v1/namespaces/{ns}/profiles/p{s}/ingest", json=body)
            if r.status_code == 202:
                run.messages.extend(texts)


async def running_job_of(url: str, pid: int, within: float) -> str | None:
    """The id of a job the worker of this pid is running, waiting up to `within` seconds for one."""
    conn = await _connect(url)
    try:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            job = await conn.fetchval(
                "SELECT id FROM jobs WHERE status = 'running' AND locked_by LIKE $1 LIMIT 1", f"%:{pid}:%"
            )
            if job is not None:
                return str(job)
            await asyncio.sleep(0.01)
        return None
    finally:
        await conn.close()


async def extraction_results(url: str, ns: str, messages: list[str]) -> tuple[Counter[int], int, int]:
    """(memories citing each acknowledged message → how many messages, jobs of the namespace, of which run
    more than once)."""
    conn = await _connect(url)
    try:
        rows = await conn.fetch(
            """
            SELECT m.text_content, count(DISTINCT s.memory_id) AS memories
            FROM messages m
            LEFT JOIN memory_sources s
              ON s.profile_id = m.profile_id AND s.session_id = m.session_id AND s.message_id = m.id
            WHERE m.text_content = ANY($1::text[])
            GROUP BY m.text_content
            """,
            messages,
        )
        jobs = await conn.fetchrow(
            """
            SELECT count(*) AS jobs, count(*) FILTER (WHERE j.attempts > 1) AS again
            FROM jobs j JOIN profiles p ON p.id = j.profile_id JOIN namespaces n ON n.id = p.namespace_id
            WHERE n.name = $1
            """,
            ns,
        )
    finally:
        await conn.close()
    return Counter(int(r["memories"]) for r in rows), int(jobs["jobs"]), int(jobs["again"])


async def scenario_scaled(
    cluster: Cluster, args: argparse.Namespace, *, pooler: bool
) -> tuple[Run, dict[str, Any]]:
    run = Run("scaled-pgbouncer" if pooler else "scaled")
    ns = run.name
    direct = cluster.database_url("agent_memory")
    bouncer: Bouncer | None = None
    env = {
        "AGENT_MEMORY_JOB_LEASE_SECONDS": "10",
        "AGENT_MEMORY_EMBEDDINGS": args.scaled_embeddings,
        "AGENT_MEMORY_LOG_LEVEL": "WARNING",
    }
    url = direct
    if pooler:
        bouncer = Bouncer(cluster)
        bouncer.start()
        url = bouncer.database_url("agent_memory")
        env |= {"AGENT_MEMORY_DB_TRANSACTION_POOLER": "true", "AGENT_MEMORY_LISTEN_DATABASE_URL": direct}
    apis = [service(url, worker=False, env=env) for _ in range(2)]
    workers = [worker_server(url, env) for _ in range(2)]
    processes = [*apis, *workers]
    try:
        for p in processes:
            p.spawn()
        await asyncio.gather(*(p.ready(timeout=300) for p in processes))
        await namespace(apis[0].base_url, ns)

        async def fault() -> None:
            # The worker is killed in the middle of a job: two sessions of 300 messages each make one long
            # extraction job per worker; the killed one's runs again elsewhere once its lease expires.
            await long_jobs(run, apis[1].base_url, ns)
            assert workers[0].process is not None
            mid_job = await running_job_of(direct, workers[0].process.pid, within=15.0)
            killed = time.monotonic()
            for p in (apis[0], workers[0]):
                assert p.process is not None
                os.kill(p.process.pid, signal.SIGKILL)
                p.process.wait()
                p.spawn()
            run.notes.append(
                f"worker killed {'in the middle of job ' + mid_job if mid_job else 'between jobs'}"
            )
            await asyncio.gather(apis[0].ready(timeout=120), workers[0].ready(timeout=120))
            run.notes.append(
                f"API process and worker SIGKILLed, both back in {time.monotonic() - killed:.1f}s"
            )
            await asyncio.sleep(args.seconds / 8)
            started = time.monotonic()
            await asyncio.to_thread(cluster.restart, "fast")
            run.notes.append(f"PostgreSQL down and back in {time.monotonic() - started:.1f}s")

        # The load runs until the fault is over and a third of `seconds` more, however long restarting the
        # processes takes on a busy machine.
        stop = asyncio.Event()
        bases = [a.base_url for a in apis]
        task = asyncio.create_task(load(run, bases, ns, 3600, args.concurrency, stop))
        await fault_amid_load(run, fault, args.seconds, stop, task)
        pending, failed = await drain(direct)
        result = await verify(run, direct, ns)
        per_message, jobs, again = await extraction_results(direct, ns, run.messages)
    finally:
        for p in processes:
            p.stop()
        if bouncer is not None:
            bouncer.stop()
    usual = per_message.most_common(1)[0][0] if per_message else 0
    odd = sum(n for memories, n in per_message.items() if memories != usual)
    run.notes.append(
        f"{jobs} jobs, {failed} failed, {again} run more than once; messages by the memories citing them: "
        f"{dict(sorted(per_message.items()))} ({odd} differ from the usual {usual})"
    )
    disturbed = (run.last_bad - run.fault_start) if run.last_bad and run.fault_start else 0.0
    return run, {
        **result,
        # A message whose extraction gave another result than the others counts as duplicated (more
        # memories) or lost (fewer, none).
        "duplicated": result["duplicated"] + sum(n for m, n in per_message.items() if m > usual),
        "lost": result["lost"] + sum(n for m, n in per_message.items() if m < usual),
        "pending": pending,
        "failed": failed,
        "disturbed_s": disturbed,
    }
