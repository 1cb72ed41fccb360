"""The fault suite: crash and restart the pieces of a running service under load, and count what clients saw.

Run: .venv/bin/python -m bench faults [--only worker-kill,api-kill,pg-fast,pg-immediate,forget,pool,healthz,
     hostile,scaled,scaled-pgbouncer,webhooks]
     [--seconds 12] [--concurrency 16] [--healthz-seconds 300] [--pool-embeddings none|local]

Everything runs on loopback against a throw-away PostgreSQL cluster (bench/faults/cluster.py) and real
`agent-memory serve` processes (their supervised worker child included). Every loop is bounded in time.

Scenarios:
- worker-kill: SIGKILL serve's worker process in the middle of extraction jobs (it is restarted).
- api-kill: SIGKILL the API process under load, start it again.
- pg-fast / pg-immediate: `pg_ctl restart -m fast|immediate` under load.
- forget: ingest a twenty-person conversation, delete half its memories, re-send it ten times under load
  (and once into another session, for the worker to extract): the deleted memories stay deleted (counted
  in dup when back), the kept ones keep their sources, and nothing acknowledged is lost.
- pool: every pooled connection busy (a lock held on `memories`), 120 concurrent recalls: they must shed
  with 503 within the pool's bounded wait, not queue for half a minute (`--pool-embeddings local`: with
  the semantic channel, two checkouts per recall).
- healthz: `/healthz` latency while serve extracts 4 × 300 messages of ~11 KB.
- scaled: two API processes and two `agent-memory worker` processes on one database under the writers'
  load; one API process and one worker SIGKILLed and started again, then PostgreSQL restarted
  (bench/faults/scaled.py). scaled-pgbouncer: the same with every process connecting through PgBouncer
  in transaction mode.
- webhooks: serve's worker delivering every event to three receivers on loopback (one answering 500 to
  every seventh request, one taking `memory.created` only) under the writers' load, SIGKILLed three times
  in the middle of the deliveries, then PostgreSQL restarted: per endpoint, events written against
  delivered, lost, out of order, duplicates (allowed) and duplicates under another webhook-id
  (bench/faults/webhooks.py).

For each: requests, status codes overall and during the fault, acknowledged writes (201'd memories and
202'd messages), lost (acknowledged but not in the database afterwards, or a change without its event),
duplicated memories, how long clients were disturbed, and for extraction whether every job finished. The
load scenarios also note events written against changes made (the outbox, docs/events.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import httpx
import psutil

from bench import harness
from bench.common import LeanClient, percentile
from bench.faults.cluster import Cluster
from bench.faults.tenancy import SCENARIOS as TENANCY
from bench.faults.tenancy import add_arguments, run_tenancy
from bench.harness import ADMIN_KEY, Server, print_table, service
from bench.hostile_texts import SHAPES, slowest_per_kb

TIMEOUT = 10.0


@dataclass
class Run:
    name: str
    statuses: Counter[str] = field(default_factory=Counter)
    during: Counter[str] = field(default_factory=Counter)
    memories: dict[str, str] = field(default_factory=dict)  # acknowledged id → content
    messages: list[str] = field(default_factory=list)  # acknowledged message contents
    fault_start: float | None = None
    fault_end: float | None = None
    last_bad: float | None = None  # when the last non-2xx answer (or no answer) came back
    latencies: list[float] = field(default_factory=list)
    max_latency: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def record(self, status: str, started: float, ended: float) -> None:
        self.statuses[status] += 1
        self.latencies.append(ended - started)
        self.max_latency[status] = max(self.max_latency.get(status, 0.0), ended - started)
        # During: answered after the fault began, sent before it was over (plus a settling margin).
        in_fault = self.fault_start is not None and ended >= self.fault_start
        in_fault = in_fault and (self.fault_end is None or started <= self.fault_end + 2.0)
        if in_fault:
            self.during[status] += 1
        if not status.startswith("2") and self.fault_start is not None and ended >= self.fault_start:
            self.last_bad = ended if self.last_bad is None else max(self.last_bad, ended)


async def _call(
    run: Run, client: httpx.AsyncClient, method: str, url: str, body: Any
) -> httpx.Response | None:
    started = time.monotonic()
    try:
        response = await client.request(method, url, json=body)
    except httpx.HTTPError:
        run.record("no answer", started, time.monotonic())
        return None
    run.record(str(response.status_code), started, time.monotonic())
    return response


async def load(
    run: Run,
    base: str | list[str],
    ns: str,
    seconds: float,
    concurrency: int,
    stop: asyncio.Event | None = None,
    pace: float = 0.0,
) -> None:
    """Writers: remember and ingest unique statements for `seconds` (or until `stop`), keeping what was
    acknowledged; each writer waits `pace` seconds after each request (0: none, as fast as answered). With several API processes (`base` a list) writer w starts on process w modulo their
    number and, as behind a load balancer, moves to the next one when its process does not answer."""
    deadline = time.monotonic() + seconds
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    bases = [base] if isinstance(base, str) else base

    async def writer(w: int) -> None:
        profile = f"/v1/namespaces/{ns}/profiles/p{w % 4}"
        i = 0
        at = w % len(bases)
        async with contextlib.AsyncExitStack() as stack:
            clients = [
                await stack.enter_async_context(
                    httpx.AsyncClient(base_url=b, headers=headers, timeout=TIMEOUT)
                )
                for b in bases
            ]
            while time.monotonic() < deadline and not (stop is not None and stop.is_set()):
                client = clients[at]
                i += 1
                text = f"In {run.name} round {w}-{i} I planted {i} tomato seedlings in pot number {w}."
                if i % 2:
                    r = await _call(run, client, "POST", f"{profile}/remember", {"content": text})
                    if r is not None and r.status_code == 201:
                        run.memories[r.json()["id"]] = text
                else:
                    body = {"sessionId": f"s{w}", "messages": [{"role": "user", "content": text}]}
                    r = await _call(run, client, "POST", f"{profile}/ingest", body)
                    if r is not None and r.status_code == 202:
                        run.messages.append(text)
                if r is None:
                    at = (at + 1) % len(clients)
                    await asyncio.sleep(0.05)  # the API is down: do not spin
                elif pace:
                    await asyncio.sleep(pace)

    await asyncio.gather(*(writer(w) for w in range(concurrency)))


async def _connect(url: str) -> asyncpg.Connection:
    for _ in range(100):
        with contextlib.suppress(OSError, asyncpg.PostgresError):
            return await asyncpg.connect(url, timeout=2)
        await asyncio.sleep(0.2)
    raise RuntimeError("database not reachable")


async def drain(url: str, seconds: float = 180.0) -> tuple[int, int]:
    """Wait for the queue to empty; (jobs still pending, jobs failed)."""
    deadline = time.monotonic() + seconds
    conn = await _connect(url)
    try:
        while True:
            pending = await conn.fetchval("SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')")
            if not pending or time.monotonic() > deadline:
                failed = await conn.fetchval("SELECT count(*) FROM jobs WHERE status = 'failed'")
                return int(pending), int(failed)
            await asyncio.sleep(0.5)
    finally:
        await conn.close()


async def verify(run: Run, url: str, ns: str) -> dict[str, int]:
    conn = await _connect(url)
    try:
        found = await conn.fetch("SELECT id FROM memories WHERE id = ANY($1::text[])", list(run.memories))
        stored = await conn.fetch(
            "SELECT DISTINCT text_content FROM messages WHERE text_content = ANY($1::text[])", run.messages
        )
        duplicated = await conn.fetchval(
            """
            SELECT coalesce(sum(n - 1), 0) FROM (
                SELECT count(*) AS n FROM memories m JOIN profiles p ON p.id = m.profile_id
                JOIN namespaces s ON s.id = p.namespace_id
                WHERE s.name = $1 AND m.superseded_by IS NULL GROUP BY m.profile_id, m.content_hash) t
            """,
            ns,
        )
    finally:
        await conn.close()
    return {
        "acked": len(run.memories) + len(run.messages),
        "lost": len(run.memories) - len(found) + len(set(run.messages)) - len(stored),
        "duplicated": int(duplicated),
    }


async def outbox_check(url: str, ns: str) -> dict[str, int]:
    """Events written against changes made, in the namespace (docs/events.md): memories stored and
    `memory.created` events, memories superseded and `memory.superseded` events, and whether the ids run
    1, 2, 3… without a gap or a repeat (an event lost or numbered twice by a crash would show here)."""
    conn = await _connect(url)
    try:
        await conn.execute("SELECT number_all_events()")  # as every reader: ids first, committed, then read
        row = await conn.fetchrow(
            """
            WITH ns AS (SELECT id FROM namespaces WHERE name = $1 AND deleted_at IS NULL),
            m AS (SELECT m.id, m.superseded_by FROM memories m JOIN profiles p ON p.id = m.profile_id
                  WHERE p.namespace_id = (SELECT id FROM ns)),
            e AS (SELECT * FROM events WHERE namespace_id = (SELECT id FROM ns))
            SELECT (SELECT count(*) FROM m) AS memories,
                   (SELECT count(*) FROM m WHERE superseded_by IS NOT NULL) AS superseded,
                   (SELECT count(*) FROM e) AS events,
                   (SELECT count(DISTINCT memory_id) FROM e WHERE type = 'memory.created') AS created_events,
                   (SELECT count(*) FROM m WHERE NOT EXISTS (SELECT 1 FROM e WHERE e.type = 'memory.created'
                        AND e.memory_id = m.id)) AS without_created,
                   (SELECT count(*) FROM m WHERE superseded_by IS NOT NULL AND NOT EXISTS (
                        SELECT 1 FROM e WHERE e.type = 'memory.superseded' AND e.memory_id = m.id))
                       AS without_superseded,
                   (SELECT coalesce(max(id), 0) - count(*) FROM e) AS id_gaps
            """,
            ns,
        )
    finally:
        await conn.close()
    return dict(row)


async def namespace(base: str, name: str) -> None:
    """Set-up between scenarios: a client told 503 with Retry-After (a connection the last fault left
    dead fails one request) waits and tries again, as clients are asked to."""
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {ADMIN_KEY}"}) as client:
        for _ in range(5):
            response = await client.post("/v1/namespaces", json={"name": name})
            if response.status_code != 503:
                break
            await asyncio.sleep(float(response.headers.get("retry-after", "1")))
        assert response.status_code in (201, 409), response.text


def worker_pid(server: Server) -> int | None:
    assert server.process is not None
    children = psutil.Process(server.process.pid).children()
    return next((c.pid for c in children if "worker" in " ".join(c.cmdline())), None)


# -- scenarios --------------------------------------------------------------------------------------


async def fault_amid_load(run: Run, fault: Any, seconds: float, stop: asyncio.Event, load_task: Any) -> None:
    """A third of `seconds` of load, the fault (its span kept on `run`), a third more, then the load stopped
    and awaited: the load lasts as long as the fault takes, however slow restarting is on a busy machine."""
    await asyncio.sleep(seconds / 3)
    run.fault_start = time.monotonic()
    await fault()
    run.fault_end = time.monotonic()
    await asyncio.sleep(seconds / 3)
    stop.set()
    await load_task


async def under_load(
    run: Run, server: Server, cluster: Cluster, args: argparse.Namespace, fault: Any
) -> dict[str, Any]:
    ns = run.name
    await namespace(server.base_url, ns)
    task = asyncio.create_task(load(run, server.base_url, ns, args.seconds, args.concurrency))
    await asyncio.sleep(args.seconds / 3)
    run.fault_start = time.monotonic()
    await fault()
    run.fault_end = time.monotonic()
    await task
    db = cluster.database_url("agent_memory")
    pending, failed = await drain(db)
    result = await verify(run, db, ns)
    outbox = await outbox_check(db, ns)
    run.notes.append(
        f"outbox: {outbox['events']} events; {outbox['memories']} memories, {outbox['created_events']} "
        f"memory.created ({outbox['without_created']} memories without one); {outbox['superseded']} "
        f"superseded ({outbox['without_superseded']} without memory.superseded); id gaps {outbox['id_gaps']}"
    )
    result["lost"] += outbox["without_created"] + outbox["without_superseded"]
    disturbed = (run.last_bad - run.fault_start) if run.last_bad and run.fault_start else 0.0
    return {**result, "pending": pending, "failed": failed, "disturbed_s": disturbed}


async def scenario_worker_kill(
    server: Server, cluster: Cluster, args: argparse.Namespace
) -> tuple[Run, dict[str, Any]]:
    run = Run("worker-kill")

    async def fault() -> None:
        for _ in range(3):  # kill it, let the supervisor restart it, kill the new one too
            pid = worker_pid(server)
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(args.seconds / 8)
        for _ in range(100):  # the supervisor restarts it after its backoff
            restarted = worker_pid(server)
            if restarted is not None:
                break
            await asyncio.sleep(0.1)
        run.notes.append(f"killed 3 times; worker running again as pid {restarted}")

    return run, await under_load(run, server, cluster, args, fault)


async def scenario_api_kill(
    server: Server, cluster: Cluster, args: argparse.Namespace
) -> tuple[Run, dict[str, Any]]:
    run = Run("api-kill")

    async def fault() -> None:
        assert server.process is not None
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
        killed = time.monotonic()
        server.spawn()
        ready = await server.ready()
        run.notes.append(f"API back in {ready - killed:.1f}s")

    return run, await under_load(run, server, cluster, args, fault)


def scenario_pg(mode: str) -> Any:
    async def scenario(
        server: Server, cluster: Cluster, args: argparse.Namespace
    ) -> tuple[Run, dict[str, Any]]:
        run = Run(f"pg-{mode}")

        async def fault() -> None:
            started = time.monotonic()
            await asyncio.to_thread(cluster.restart, mode)
            run.notes.append(f"PostgreSQL down and back in {time.monotonic() - started:.1f}s")

        return run, await under_load(run, server, cluster, args, fault)

    return scenario


# A conversation of twenty people in which each message makes two memories (so that deleting every other
# memory leaves shared sources behind), and in which four say the same words. One message per person
# and topic: a second job of the same person would supersede the first.
_SPEAKERS = (
    "Alice", "Bruno", "Chen", "Dara", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jana",
    "Kofi", "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tomas",
)  # fmt: skip
_JOBS = ("nurse", "baker", "pilot", "plumber", "teacher", "lawyer", "chemist", "welder", "florist", "editor")
_CITIES = ("Lisbon", "Denver", "Osaka", "Leeds", "Quito", "Tartu", "Hobart", "Accra", "Bergen", "Izmir")


def forget_conversation() -> list[dict[str, str]]:
    messages = [
        {
            "role": "user",
            "name": who,
            "content": f"I work as a {_JOBS[i % 10]} and I live in {_CITIES[(i * 3) % 10]}.",
        }
        for i, who in enumerate(_SPEAKERS)
    ]
    messages += [
        {"role": "user", "name": who, "content": "I am allergic to peanuts."} for who in _SPEAKERS[:4]
    ]
    return messages


async def _conversation_state(conn: asyncpg.Connection, ns: str) -> tuple[dict[str, str], int, int]:
    """(content hash → memory id of the conversation's memories, its messages, memories without sources)."""
    profile = (
        "(SELECT p.id FROM profiles p JOIN namespaces n ON n.id = p.namespace_id "
        "WHERE n.name = $1 AND p.name = 'forget' AND p.deleted_at IS NULL)"
    )
    memories = await conn.fetch(
        f"SELECT content_hash, id FROM memories WHERE profile_id = {profile} AND session_id = 'conv'", ns
    )
    messages = await conn.fetchval(
        f"SELECT count(*) FROM messages WHERE profile_id = {profile} AND session_id = 'conv'", ns
    )
    orphans = await conn.fetchval(
        f"""SELECT count(*) FROM memories m WHERE m.profile_id = {profile} AND m.session_id = 'conv'
            AND NOT EXISTS (SELECT 1 FROM memory_sources s WHERE s.profile_id = m.profile_id
                            AND s.memory_id = m.id)""",
        ns,
    )
    return {r["content_hash"]: r["id"] for r in memories}, int(messages), int(orphans)


async def scenario_forget(
    server: Server, cluster: Cluster, args: argparse.Namespace
) -> tuple[Run, dict[str, Any]]:
    """Ingest a conversation, delete every other of its memories, then re-send it ten times under the
    writers' load:
    the deleted memories must stay deleted, and nothing else be lost (the kept memories, their sources,
    the messages they cite, the load's acknowledged writes)."""
    run = Run("forget")
    ns = run.name
    db = cluster.database_url("agent_memory")
    await namespace(server.base_url, ns)
    conversation = forget_conversation()
    url = f"/v1/namespaces/{ns}/profiles/forget"
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    async with httpx.AsyncClient(base_url=server.base_url, headers=headers, timeout=60) as client:
        body = {"sessionId": "conv", "messages": conversation}
        first = await client.post(f"{url}/ingest", json=body)
        assert first.status_code == 202 and first.json()["messagesNew"] == len(conversation), first.text
        await drain(db)
        conn = await _connect(db)
        try:
            before, messages_before, _ = await _conversation_state(conn, ns)
        finally:
            await conn.close()
        doomed = dict(list(sorted(before.items(), key=lambda kv: kv[1]))[::2])
        for memory_id in doomed.values():
            deleted = await client.delete(f"{url}/memories/{memory_id}")
            assert deleted.status_code == 200, deleted.text
        conn = await _connect(db)
        try:
            after_delete, messages_kept, _ = await _conversation_state(conn, ns)
        finally:
            await conn.close()

        resends: list[int] = []
        copied: list[int] = []

        async def fault() -> None:
            for _ in range(10):
                r = await _call(run, client, "POST", f"{url}/ingest", body)
                if r is not None and r.status_code == 202:
                    resends.append(int(r.json()["messagesNew"]))
                await asyncio.sleep(args.seconds / 15)
            # The same words once more in a session of their own: new messages, so the worker extracts
            # them, and must skip every memory a tombstone holds.
            r = await _call(run, client, "POST", f"{url}/ingest", {**body, "sessionId": "conv-copy"})
            if r is not None and r.status_code == 202:
                copied.append(int(r.json()["messagesNew"]))

        result = await under_load(run, server, cluster, args, fault)

    conn = await _connect(db)
    try:
        final, messages_final, orphans = await _conversation_state(conn, ns)
        anywhere = await conn.fetch(
            "SELECT content_hash FROM memories m JOIN profiles p ON p.id = m.profile_id "
            "JOIN namespaces n ON n.id = p.namespace_id WHERE n.name = $1 AND p.name = 'forget'",
            ns,
        )
    finally:
        await conn.close()
    back = len(set(doomed) & ({r["content_hash"] for r in anywhere} | set(final)))
    kept_lost = len(set(after_delete) - set(final))
    run.notes.append(
        f"conversation of {len(conversation)} messages → {len(before)} memories; {len(doomed)} deleted, "
        f"{messages_before - messages_kept} messages went with them ({messages_kept} stayed, shared)"
    )
    run.notes.append(
        f"{len(resends)} of 10 re-sends answered 202, new messages {sum(resends)}; a copy in another "
        f"session stored {sum(copied)} messages; after: {back} deleted "
        f"memories back, {kept_lost} kept memories lost, {orphans} without sources, conversation messages "
        f"{messages_final} of {messages_kept}"
    )
    lost = result["lost"] + kept_lost + max(messages_kept - messages_final, 0)
    return run, {**result, "lost": lost, "duplicated": result["duplicated"] + back}


async def scenario_pool(cluster: Cluster, args: argparse.Namespace) -> tuple[Run, dict[str, Any]]:
    """A small pool, every connection stuck behind a lock: excess recalls must get 503 within the bound."""
    run = Run("pool")
    db = cluster.database_url("agent_memory")
    env = {
        "AGENT_MEMORY_DATABASE_URL": db,
        "AGENT_MEMORY_DB_POOL_SIZE": "4",
        "AGENT_MEMORY_DB_MAX_OVERFLOW": "0",
        "AGENT_MEMORY_DB_POOL_TIMEOUT_SECONDS": "2",
        # --pool-embeddings local: the semantic channel makes recall check out twice (it lets the
        # connection go while the query is embedded); the bound holds for the request, not per checkout.
        "AGENT_MEMORY_EMBEDDINGS": args.pool_embeddings,
    }
    server = service(db, worker=False, env=env)
    server.spawn()
    await server.ready()
    try:
        await namespace(server.base_url, "pool")
        headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
        profile = "/v1/namespaces/pool/profiles/p"
        async with httpx.AsyncClient(base_url=server.base_url, headers=headers, timeout=60) as client:
            await client.post(f"{profile}/remember", json={"content": "I keep bees on the roof."})
        # One keep-alive connection per concurrent recall, opened before the fault (as a proxy in front
        # of the service would hold them), and a client that costs next to no CPU: httpx (its default
        # limit of 100 connections held the last 20 back; its per-request CPU shares the two cores)
        # made the 503s look up to twice the bound.
        clients = [LeanClient(server.port, ADMIN_KEY) for _ in range(120)]
        await asyncio.gather(*(c.connect() for c in clients))
        locker = await _connect(db)
        tx = locker.transaction()
        await tx.start()
        await locker.execute("LOCK TABLE memories IN ACCESS EXCLUSIVE MODE")
        run.fault_start = time.monotonic()
        release = asyncio.get_running_loop().call_later(8.0, lambda: asyncio.ensure_future(tx.rollback()))
        body = {"query": "Where are the bees?"}

        async def recall(c: LeanClient) -> None:
            started = time.monotonic()
            try:
                status, _ = await asyncio.wait_for(c.request("POST", f"{profile}/recall", body), 60)
            except (OSError, asyncio.IncompleteReadError, TimeoutError):
                run.record("no answer", started, time.monotonic())
            else:
                run.record(str(status), started, time.monotonic())

        await asyncio.gather(*(recall(c) for c in clients))
        run.fault_end = time.monotonic()
        release.cancel()
        with contextlib.suppress(Exception):
            await tx.rollback()
        await locker.close()
        await asyncio.gather(*(c.close() for c in clients))
        shed = run.latencies
        run.notes.append(
            f"503s answered in at most {run.max_latency.get('503', 0.0):.2f}s, median "
            f"{percentile(run.latencies, 50):.2f}s (pool wait bound 2s); the "
            f"{run.statuses.get('200', 0)} that held a connection waited for the 8s lock"
        )
        return run, {
            "acked": 0,
            "lost": 0,
            "duplicated": 0,
            "pending": 0,
            "failed": 0,
            "disturbed_s": max(shed) if shed else 0.0,
        }
    finally:
        server.stop()


async def scenario_hostile(cluster: Cluster, args: argparse.Namespace) -> tuple[Run, dict[str, Any]]:
    """The slowest hostile message per KB (in this process), then /healthz latency while serve extracts
    500 hostile messages of 32 KiB (every shape of bench/hostile_texts.py in turn)."""
    slowest = slowest_per_kb()
    for ms_per_kb, shape, path in slowest[:3]:
        print(
            f"  hostile: slowest {path} of 32 KiB: {shape}, {ms_per_kb:.2f} ms/KB ({ms_per_kb * 32:.0f} ms)"
        )
    shapes = list(SHAPES.values())
    # Numbered: ingest stores a message once, however often it is sent.
    contents = [f"{i} " + shapes[i % len(shapes)](32 * 1024 - 16) for i in range(500)]
    run, result = await scenario_healthz(cluster, args, name="hostile", batches=[contents])
    run.notes.insert(
        0, f"slowest 32 KiB message: {slowest[0][1]} ({slowest[0][2]}), {slowest[0][0]:.2f} ms/KB"
    )
    return run, result


async def scenario_healthz(
    cluster: Cluster, args: argparse.Namespace, name: str = "healthz", batches: list[list[str]] | None = None
) -> tuple[Run, dict[str, Any]]:
    """/healthz latency while serve extracts 4 × 300 messages of ~11 KB (or the `batches` given)."""
    run = Run(name)
    db = cluster.database_url("agent_memory")
    server = service(db)
    server.spawn()
    await server.ready(timeout=300)
    sentence = (
        "Yesterday I walked along the river with my sister Anna and we talked about moving to Lisbon next "
        "spring, the new job at the clinic, and the garden we want to plant with tomatoes and basil. "
    )
    content = (sentence * (11_000 // len(sentence) + 1))[:11_000]
    if batches is None:
        batches = [[f"{i}: {content}" for i in range(300)] for _ in range(4)]
    try:
        await namespace(server.base_url, name)
        headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
        async with httpx.AsyncClient(base_url=server.base_url, headers=headers, timeout=60) as client:
            started = time.monotonic()
            for s, batch in enumerate(batches):
                body = {"sessionId": f"big{s}", "messages": [{"role": "user", "content": c} for c in batch]}
                r = await client.post(f"/v1/namespaces/{name}/profiles/p/ingest", json=body)
                assert r.status_code == 202, r.text
            run.fault_start = time.monotonic()
            done_at: float | None = None
            slowest: list[tuple[float, float]] = []  # (latency, seconds into the extraction)
            conn = await _connect(db)
            try:
                deadline = time.monotonic() + args.healthz_seconds
                checked = 0.0
                while time.monotonic() < deadline:
                    sent = time.monotonic()
                    await _call(run, client, "GET", "/healthz", None)
                    slowest.append((time.monotonic() - sent, sent - run.fault_start))
                    if time.monotonic() - checked > 1.0:
                        checked = time.monotonic()
                        pending = await conn.fetchval(
                            "SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')"
                        )
                        if not pending:
                            done_at = time.monotonic()
                            break
                    await asyncio.sleep(0.05)
            finally:
                await conn.close()
        run.fault_end = time.monotonic()
        conn = await _connect(db)
        try:
            extracted = await conn.fetchval(
                "SELECT coalesce(sum(jsonb_array_length(payload -> 'messageIds')), 0) FROM jobs "
                "WHERE status = 'done' AND kind = 'extract'"
            )
        finally:
            await conn.close()
        took = (done_at or time.monotonic()) - started
        extraction = f"{extracted} extracted in {took:.0f}s ({extracted / took:.1f} msg/s)"
        run.notes.append(
            f"healthz p50 {percentile(run.latencies, 50) * 1000:.1f} ms, p99 "
            f"{percentile(run.latencies, 99) * 1000:.1f} ms, max {max(run.latencies) * 1000:.1f} ms over "
            f"{len(run.latencies)} probes; of {sum(map(len, batches))} messages, {extraction}"
        )
        worst = ", ".join(
            f"{lat * 1000:.0f} ms at {at:.0f}s" for lat, at in sorted(slowest, reverse=True)[:5]
        )
        run.notes.append(f"slowest probes: {worst}")
        return run, {
            "acked": sum(map(len, batches)),
            "lost": 0,
            "duplicated": 0,
            "pending": 0 if done_at else -1,
            "failed": 0,
            "disturbed_s": max(run.latencies),
        }
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__, database=False)
    parser.add_argument(
        "--only",
        default="worker-kill,api-kill,pg-fast,pg-immediate,forget,pool,healthz,hostile,scaled,scaled-pgbouncer,"
        "webhooks",
    )
    parser.add_argument("--seconds", type=float, default=12.0, help="load duration per scenario")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--healthz-seconds", type=float, default=300.0)
    parser.add_argument("--pool-embeddings", default="none", choices=["none", "local"])
    parser.add_argument(
        "--scaled-embeddings",
        default="none",
        choices=["none", "local"],
        help="embeddings of the scaled scenarios' four processes (local: four copies of the model)",
    )
    add_arguments(parser)
    return harness.run_benchmark(parser, run, argv)


async def run(args: argparse.Namespace) -> None:
    chosen = args.only.split(",")
    # Many tenants on one server (bench/faults/tenancy.py): each on a cluster of its own.
    await run_tenancy([c for c in chosen if c in TENANCY], args)
    chosen = [c for c in chosen if c not in TENANCY]
    if not chosen:
        return
    cluster = Cluster()
    cluster.start()
    print(f"throw-away cluster on 127.0.0.1:{cluster.port} ({cluster.root})")
    results: list[tuple[Run, dict[str, Any]]] = []
    try:
        _, db = await harness.create_database(cluster.url, "agent_memory", exact=True)
        scenarios = {
            "worker-kill": scenario_worker_kill,
            "api-kill": scenario_api_kill,
            "pg-fast": scenario_pg("fast"),
            "pg-immediate": scenario_pg("immediate"),
            "forget": scenario_forget,
        }
        if set(scenarios) & set(chosen):
            server = service(db, env={"AGENT_MEMORY_JOB_LEASE_SECONDS": "10"})
            server.spawn()
            await server.ready(timeout=300)
            try:
                for name, scenario in scenarios.items():
                    if name in chosen:
                        results.append(await scenario(server, cluster, args))
                        print(f"{name} done", flush=True)
            finally:
                server.stop()
        if "pool" in chosen:
            results.append(await scenario_pool(cluster, args))
        if "healthz" in chosen:
            results.append(await scenario_healthz(cluster, args))
        if "hostile" in chosen:
            results.append(await scenario_hostile(cluster, args))
        from bench.faults.scaled import scenario_scaled  # it builds on this module's load and checks

        if "scaled" in chosen:
            results.append(await scenario_scaled(cluster, args, pooler=False))
        if "scaled-pgbouncer" in chosen:
            results.append(await scenario_scaled(cluster, args, pooler=True))
        if "webhooks" in chosen:
            from bench.faults.webhooks import scenario_webhooks

            results.append(await scenario_webhooks(cluster, args))
    finally:
        cluster.stop()

    def codes(c: Counter[str]) -> str:
        return " ".join(f"{k}:{v}" for k, v in sorted(c.items()))

    rows = [
        [
            run.name,
            sum(run.statuses.values()),
            codes(run.statuses),
            codes(run.during),
            r["acked"],
            r["lost"],
            r["duplicated"],
            r["pending"],
            round(r["disturbed_s"], 2),
        ]
        for run, r in results
    ]
    print_table(
        "Fault suite",
        [
            "scenario",
            "requests",
            "status codes",
            "during the fault",
            "acked",
            "lost",
            "dup",
            "jobs left",
            "disturbed s",
        ],
        rows,
    )
    for run, _ in results:
        for note in run.notes:
            print(f"  {run.name}: {note}")
    print("load average:", harness.load_average())
