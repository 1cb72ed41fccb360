"""The event outbox's cost: remember and ingest with the memory trigger on and off, in one run, interleaved.

Run: .venv/bin/python -m bench outbox [--kind statement|remember|ingest|all] [--rounds 4] [--seconds 5]
         [--connections 32] [--workers 2] [--batches 2] [--statements 2000]

The same code on both sides, each on a fresh database of its own; on the `off` side the trigger that writes
the memory events are disabled (`ALTER TABLE memories DISABLE TRIGGER memory_events_inserted`, `…_updated`,
`…_deleted`), so its writes make no event but an extraction's `ingest.completed` (one per job, written by
the service). Each round measures
both sides, the first side alternating from round to round; printed: each figure, the medians, and the
on / off ratio of each round, with the load average; for remember and ingest also the ratio of all the CPU
a request or message took (the Python side's and the database's), steadier than the rate on a loaded
machine.

Events are given their ids after commit, by their readers (migration 0024); so that the cost measured is
the outbox's whole cost, each side of remember and statement numbers its events as the worker does (the off
side finds none), and ingest's worker does it itself.

- statement: remember's one statement in a loop on one connection, on one database whose trigger is
  enabled and disabled by turns (the outbox's own cost in PostgreSQL, without the HTTP stack around it),
  numbered every 50 statements; the backend's CPU a statement, p50 and p99 wall milliseconds.
- remember: as `bench ab --kind remember`: two `serve --no-worker --workers N` servers, --connections
  keep-alive connections storing new statements in 8 profiles for --seconds after half a second of warm-up,
  a connection of the bench numbering each side's events every 0.1 s; requests/s, the API processes' CPU
  and the database's (every backend of the side's database, the numbering one too) per request.
- ingest: end to end through extraction, where ingest's memories are written: each round posts --batches
  500-message conversations (each a new session) to each side's app (in this process, over ASGI) and times
  its worker draining the extraction jobs (memories stored and superseded, their events written, and
  followed up by the worker's subscribers); messages a second, this process's CPU (the worker; the other
  side's app is idle meanwhile) and the database's per message.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import psutil
from ulid import ULID

from bench import harness
from bench.bench_ab import BATCH, BATCHES, NAMESPACE, Side, cpu_seconds, load, serving
from bench.harness import fresh_database, print_table, scoped_key

DISABLE = "; ".join(
    f"ALTER TABLE memories DISABLE TRIGGER {t}"
    for t in ("memory_events_inserted", "memory_events_updated", "memory_events_deleted")
)
# Events are numbered by their readers after commit (migration 0024): remember's sides number them every
# NUMBER_EVERY seconds, the statement's every NUMBER_STATEMENTS statements, so that the outbox's cost
# measured is its whole cost (ingest's worker numbers them itself).
NUMBER_EVERY = 0.1
NUMBER_STATEMENTS = 50


async def outbox_off(database_url: str) -> None:
    """The `off` side: its memory writes make no events."""
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(DISABLE)
    finally:
        await conn.close()


async def database_cpu(database_url: str) -> float:
    """CPU seconds (user + system) so far of every PostgreSQL backend connected to this database: what the
    database spends on a side, far less disturbed by a loaded machine than wall time."""
    name = database_url.rsplit("/", 1)[1].split("?")[0]
    conn = await asyncpg.connect(database_url.rsplit("/", 1)[0] + "/postgres")
    try:
        pids = [r[0] for r in await conn.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1", name)]
    finally:
        await conn.close()
    return cpu_seconds([psutil.Process(pid) for pid in pids if psutil.pid_exists(pid)])


async def events_unnumbered(database_url: str) -> int:
    conn = await asyncpg.connect(database_url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM events WHERE id IS NULL"))
    finally:
        await conn.close()


async def events_written(database_url: str) -> int:
    conn = await asyncpg.connect(database_url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM events"))
    finally:
        await conn.close()


def report(
    kind: str, unit: str, figures: dict[str, list[tuple[float, ...]]], extra: list[str], *, cpu: bool = True
) -> None:
    """The medians, and each round's on / off ratios; `cpu`: the two extra columns are CPU times of the
    same request (the Python side's and the database's), whose sum is compared too: less disturbed by a
    loaded machine than the rate."""
    rows = [
        [
            name,
            statistics.median(f[0] for f in figures[name]),
            *(statistics.median(f[i] for f in figures[name]) for i in range(1, len(extra) + 1)),
            ", ".join(f"{f[-1]:.1f}" for f in figures[name]),
        ]
        for name in ("on", "off")
    ]
    rounds = len(figures["on"])
    print_table(f"{kind}, medians of {rounds} rounds", ["outbox", unit, *extra, "load per round"], rows)
    for column, label in enumerate([unit, *extra]):
        ratios = [round(a[column] / b[column], 3) for a, b in zip(figures["on"], figures["off"], strict=True)]
        print(f"on / off {label} per round: {ratios}; median {statistics.median(ratios):.3f}", flush=True)
    if cpu:
        ratios = [
            round((a[1] + a[2]) / (b[1] + b[2]), 3)
            for a, b in zip(figures["on"], figures["off"], strict=True)
        ]
        print(f"on / off CPU of both per round: {ratios}; median {statistics.median(ratios):.3f}", flush=True)


@asynccontextmanager
async def numbering(database_url: str) -> AsyncIterator[None]:
    """A reader of the side's events for as long as the block lasts: gives ids to the committed events every
    `NUMBER_EVERY` seconds (`number_all_events`, migration 0024), as the worker's round and the feed do, on a
    connection of its own (its backend's CPU counted with the side's database)."""
    conn = await asyncpg.connect(database_url)
    stop = asyncio.Event()

    async def loop() -> None:
        while not stop.is_set():
            await conn.execute("SELECT number_all_events()")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), NUMBER_EVERY)

    task = asyncio.create_task(loop())
    try:
        yield
    finally:
        stop.set()
        await task
        await conn.close()


async def remember(args: argparse.Namespace) -> None:
    async with (
        fresh_database(args.database_url, "bench_outbox", keep=args.keep) as on_url,
        fresh_database(args.database_url, "bench_outbox", keep=args.keep) as off_url,
        serving(on_url, args.workers, None) as on_server,
        serving(off_url, args.workers, None) as off_server,
        numbering(on_url),
        numbering(off_url),
    ):
        await outbox_off(off_url)
        urls = {"on": on_url, "off": off_url}
        figures: dict[str, list[tuple[float, ...]]] = {"on": [], "off": []}
        sides = []
        for name, server in (("on", on_server), ("off", off_server)):
            side = Side(name, server, await scoped_key(server.base_url, NAMESPACE))
            await load(side, "remember", args.connections, 1.0)
            sides.append(side)
        for round_no in range(args.rounds):
            for side in sides if round_no % 2 == 0 else sides[::-1]:
                await load(side, "remember", args.connections, 0.5)
                processes, url = side.processes(), urls[side.name]
                before, db_before = cpu_seconds(processes), await database_cpu(url)
                started = time.perf_counter()
                done = await load(side, "remember", args.connections, args.seconds)
                elapsed, used = time.perf_counter() - started, cpu_seconds(processes) - before
                db_used = await database_cpu(url) - db_before
                figure = (
                    done / elapsed,
                    used * 1000 / max(done, 1),
                    db_used * 1000 / max(done, 1),
                    os.getloadavg()[0],
                )
                figures[side.name].append(figure)
                print(
                    f"  round {round_no + 1} {side.name:3}: {figure[0]:8,.0f} remembers/s, "
                    f"API CPU {figure[1]:.3f} ms, PostgreSQL CPU {figure[2]:.3f} ms a request, "
                    f"load {figure[3]:.2f}",
                    flush=True,
                )
        written = {name: await events_written(url) for name, url in (("on", on_url), ("off", off_url))}
        waiting = await events_unnumbered(on_url)
    print(
        f"events written: on {written['on']:,} ({waiting:,} not numbered yet at the end), off {written['off']:,}"
    )
    report("remember", "remembers/s", figures, ["API CPU ms a request", "PostgreSQL CPU ms a request"])


@asynccontextmanager
async def ingest_side(database_url: str) -> AsyncIterator[tuple[Any, Any]]:
    """An app (in this process) and its worker on the database: (ASGI client, worker)."""
    import httpx

    from app.core.settings import Settings, to_async_url
    from app.main import create_app
    from app.worker.runner import Worker

    settings = Settings(
        database_url=database_url, admin_key=harness.ADMIN_KEY, log_level="WARNING", embeddings="none"
    )
    app = create_app(settings, run_worker=False)
    async with app.router.lifespan_context(app):
        worker = Worker(settings, app.state.sessionmaker, to_async_url(database_url), name="bench-outbox")
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://bench",
            headers={"Authorization": f"Bearer {harness.ADMIN_KEY}"},
            timeout=600,
        ) as client:
            response = await client.post("/v1/namespaces", json={"name": NAMESPACE})
            assert response.status_code == 201, response.text
            try:
                yield client, worker
            finally:
                await worker.stop()


async def ingest(args: argparse.Namespace) -> None:
    async with (
        fresh_database(args.database_url, "bench_outbox", keep=args.keep) as on_url,
        fresh_database(args.database_url, "bench_outbox", keep=args.keep) as off_url,
        ingest_side(on_url) as on_side,
        ingest_side(off_url) as off_side,
    ):
        await outbox_off(off_url)
        sides = {"on": on_side, "off": off_side}
        figures: dict[str, list[tuple[float, ...]]] = {"on": [], "off": []}
        sent = 0
        for round_no in range(args.rounds + 1):  # the first round warms up, uncounted
            for name in ("on", "off") if round_no % 2 == 0 else ("off", "on"):
                client, worker = sides[name]
                for _ in range(args.batches):
                    sent += 1
                    # A new profile each batch: every memory extracted is new (none deduplicated away).
                    profile = f"/v1/namespaces/{NAMESPACE}/profiles/p{sent}"
                    payload = b'{"sessionId":"s%d","messages":%s}' % (sent, BATCHES[sent % len(BATCHES)])
                    response = await client.post(
                        f"{profile}/ingest", content=payload, headers={"content-type": "application/json"}
                    )
                    assert response.status_code == 202, response.text
                url = on_url if name == "on" else off_url
                db_before, cpu_before = await database_cpu(url), time.process_time()
                started = time.perf_counter()
                await worker.drain(timeout=1800)
                elapsed = time.perf_counter() - started
                worker_cpu = time.process_time() - cpu_before
                db_cpu = await database_cpu(url) - db_before
                if round_no == 0:
                    continue
                messages = args.batches * BATCH
                figure = (
                    messages / elapsed,
                    1000 * worker_cpu / messages,
                    1000 * db_cpu / messages,
                    os.getloadavg()[0],
                )
                figures[name].append(figure)
                print(
                    f"  round {round_no} {name:3}: {figure[0]:8,.0f} messages/s extracted ({elapsed:.2f} s), "
                    f"worker CPU {figure[1]:.3f} ms, PostgreSQL CPU {figure[2]:.3f} ms a message, "
                    f"load {figure[3]:.2f}",
                    flush=True,
                )
        written = {name: await events_written(url) for name, url in (("on", on_url), ("off", off_url))}
    print(f"events written: on {written['on']:,}, off {written['off']:,}")
    report(
        "ingest through extraction",
        "messages/s",
        figures,
        ["worker CPU ms a message", "PostgreSQL CPU ms a message"],
    )


async def statement(args: argparse.Namespace) -> None:
    """remember's one statement (`repository.remember_one`) in a loop on one connection, the trigger enabled
    and disabled by turns on one database: the outbox's own cost in PostgreSQL, without the HTTP stack's
    noise around it."""
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.core.migrations import upgrade_to_head
    from app.core.settings import to_async_url
    from app.extraction.types import content_hash
    from app.memories.repository import NewMemory, RememberItem, remember_one

    async with fresh_database(args.database_url, "bench_outbox", keep=args.keep) as url:
        engine = create_async_engine(to_async_url(url))
        await upgrade_to_head(engine)
        await engine.dispose()
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f"INSERT INTO namespaces (name) VALUES ('{NAMESPACE}')")
            figures: dict[str, list[tuple[float, ...]]] = {"on": [], "off": []}
            sent = 0
            for round_no in range(args.rounds + 1):  # the first round warms up, uncounted
                for name in ("on", "off") if round_no % 2 == 0 else ("off", "on"):
                    await conn.execute(DISABLE if name == "off" else DISABLE.replace("DISABLE", "ENABLE"))
                    times = []
                    backend = psutil.Process(conn.get_server_pid())
                    cpu_before = cpu_seconds([backend])
                    for _ in range(args.statements):
                        sent += 1
                        text = f"My locker number {sent} holds {sent % 97} boxes."
                        memory = NewMemory(str(ULID()), "fact", text, text, None, None, None,
                                           content_hash(text), ())  # fmt: skip
                        item = RememberItem(None, NAMESPACE, f"p{sent % 8}", memory)
                        started = time.perf_counter()
                        done = await remember_one(conn, item)
                        times.append(time.perf_counter() - started)
                        assert done.memory is not None
                        if sent % NUMBER_STATEMENTS == 0:  # a reader numbers them now and then, on both sides
                            await conn.execute("SELECT number_all_events()")
                    backend_cpu = cpu_seconds([backend]) - cpu_before
                    if round_no == 0:
                        continue
                    times.sort()
                    figure = (
                        1000 * backend_cpu / args.statements,
                        1000 * times[len(times) // 2],
                        1000 * times[int(len(times) * 0.99)],
                        os.getloadavg()[0],
                    )
                    figures[name].append(figure)
                    print(
                        f"  round {round_no} {name:3}: PostgreSQL CPU {figure[0]:.3f} ms a statement, "
                        f"p50 {figure[1]:.3f} ms, p99 {figure[2]:.3f} ms, load {figure[3]:.2f}",
                        flush=True,
                    )
            events = await conn.fetchval("SELECT count(*) FROM events")
        finally:
            await conn.close()
    print(f"events written: {events:,} (by the rounds with the trigger on)")
    report(
        "remember's statement, one connection",
        "PostgreSQL CPU ms a statement",
        figures,
        ["p50 ms (wall)", "p99 ms (wall)"],
        cpu=False,
    )


async def run(args: argparse.Namespace) -> None:
    print(f"agent-memory outbox on / off — {time.strftime('%Y-%m-%d %H:%M:%S')}, {os.cpu_count()} cores")
    per_process = max(4, args.pool // args.workers)
    os.environ["AGENT_MEMORY_DB_POOL_SIZE"] = str(per_process)
    os.environ["AGENT_MEMORY_DB_MAX_OVERFLOW"] = "0"
    if args.kind in ("statement", "all"):
        await statement(args)
    if args.kind in ("remember", "all"):
        await remember(args)
    if args.kind in ("ingest", "all"):
        await ingest(args)


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__)
    parser.add_argument("--kind", choices=("statement", "remember", "ingest", "all"), default="all")
    harness.load_flags(parser, connections=32, seconds=5, rounds=4, workers=2)
    parser.add_argument("--pool", type=int, default=20, help="database connections per server")
    parser.add_argument("--batches", type=int, default=2, help="ingest: 500-message batches a round and side")
    parser.add_argument("--statements", type=int, default=2000, help="statement: remembers a round and side")
    return harness.run_benchmark(parser, run, argv)
