"""The event outbox's cost: remember and ingest with the memory trigger on and off, in one run, interleaved.

Run: .venv/bin/python -m bench outbox [--kind remember|ingest|both] [--rounds 4] [--seconds 5]
         [--connections 32] [--workers 2] [--batches 2]

The same code on both sides, each on a fresh database of its own; on the `off` side the trigger that writes
the memory events is disabled (`ALTER TABLE memories DISABLE TRIGGER memory_events`), so its writes make no
event but an extraction's `ingest.completed` (one per job, written by the service). Each round measures
both sides, the first side alternating from round to round; printed: each figure, the medians, and the
on / off ratio of each round, with the load average.

- remember: as `bench ab --kind remember`: two `serve --no-worker --workers N` servers, --connections
  keep-alive connections storing new statements in 8 profiles for --seconds after half a second of warm-up;
  requests/s and the API processes' CPU per request.
- ingest: end to end through extraction, where ingest's memories are written: each round posts --batches
  500-message conversations (each a new session) to each side's app (in this process, over ASGI) and times
  its worker draining the extraction jobs (memories stored and superseded, their events written, and
  followed up by the worker's subscribers); messages a second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bench import harness
from bench.bench_ab import BATCH, BATCHES, NAMESPACE, Side, cpu_seconds, load, serving
from bench.harness import fresh_database, print_table, scoped_key

DISABLE = "ALTER TABLE memories DISABLE TRIGGER memory_events"


async def outbox_off(database_url: str) -> None:
    """The `off` side: its memory writes make no events."""
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(DISABLE)
    finally:
        await conn.close()


async def events_written(database_url: str) -> int:
    conn = await asyncpg.connect(database_url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM events"))
    finally:
        await conn.close()


def report(kind: str, unit: str, figures: dict[str, list[tuple[float, ...]]], extra: list[str]) -> None:
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
    ratios = [round(a[0] / b[0], 3) for a, b in zip(figures["on"], figures["off"], strict=True)]
    print(f"\non / off {unit} per round: {ratios}; median {statistics.median(ratios):.3f}", flush=True)


async def remember(args: argparse.Namespace) -> None:
    async with (
        fresh_database(args.database_url, "bench_outbox") as on_url,
        fresh_database(args.database_url, "bench_outbox") as off_url,
        serving(on_url, args.workers, None) as on_server,
        serving(off_url, args.workers, None) as off_server,
    ):
        await outbox_off(off_url)
        sides = []
        for name, server in (("on", on_server), ("off", off_server)):
            side = Side(name, server, await scoped_key(server.base_url, NAMESPACE))
            await load(side, "remember", args.connections, 1.0)
            sides.append(side)
        for round_no in range(args.rounds):
            for side in sides if round_no % 2 == 0 else sides[::-1]:
                await load(side, "remember", args.connections, 0.5)
                processes = side.processes()
                before, started = cpu_seconds(processes), time.perf_counter()
                done = await load(side, "remember", args.connections, args.seconds)
                elapsed, used = time.perf_counter() - started, cpu_seconds(processes) - before
                figure = (done / elapsed, used * 1000 / max(done, 1), os.getloadavg()[0])
                side.figures.append(figure)
                print(
                    f"  round {round_no + 1} {side.name:3}: {figure[0]:8,.0f} remembers/s, "
                    f"API CPU {figure[1]:.3f} ms a request, load {figure[2]:.2f}",
                    flush=True,
                )
        written = {name: await events_written(url) for name, url in (("on", on_url), ("off", off_url))}
    print(f"events written: on {written['on']:,}, off {written['off']:,}")
    figures: dict[str, list[tuple[float, ...]]] = {s.name: list(s.figures) for s in sides}
    report("remember", "remembers/s", figures, ["API CPU ms a request"])


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
        fresh_database(args.database_url, "bench_outbox") as on_url,
        fresh_database(args.database_url, "bench_outbox") as off_url,
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
                for batch in range(args.batches):
                    sent += 1
                    profile = f"/v1/namespaces/{NAMESPACE}/profiles/p{batch % 8}"
                    payload = b'{"sessionId":"s%d","messages":%s}' % (sent, BATCHES[sent % len(BATCHES)])
                    response = await client.post(
                        f"{profile}/ingest", content=payload, headers={"content-type": "application/json"}
                    )
                    assert response.status_code == 202, response.text
                started = time.perf_counter()
                await worker.drain(timeout=1800)
                elapsed = time.perf_counter() - started
                if round_no == 0:
                    continue
                figure = (args.batches * BATCH / elapsed, elapsed, os.getloadavg()[0])
                figures[name].append(figure)
                print(
                    f"  round {round_no} {name:3}: {figure[0]:8,.0f} messages/s extracted "
                    f"({elapsed:.2f} s), load {figure[2]:.2f}",
                    flush=True,
                )
        written = {name: await events_written(url) for name, url in (("on", on_url), ("off", off_url))}
    print(f"events written: on {written['on']:,}, off {written['off']:,}")
    report("ingest through extraction", "messages/s", figures, ["seconds a round"])


async def run(args: argparse.Namespace) -> None:
    print(f"agent-memory outbox on / off — {time.strftime('%Y-%m-%d %H:%M:%S')}, {os.cpu_count()} cores")
    per_process = max(4, args.pool // args.workers)
    os.environ["AGENT_MEMORY_DB_POOL_SIZE"] = str(per_process)
    os.environ["AGENT_MEMORY_DB_MAX_OVERFLOW"] = "0"
    if args.kind in ("remember", "both"):
        await remember(args)
    if args.kind in ("ingest", "both"):
        await ingest(args)


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__)
    parser.add_argument("--kind", choices=("remember", "ingest", "both"), default="both")
    harness.load_flags(parser, connections=32, seconds=5, rounds=4, workers=2)
    parser.add_argument("--pool", type=int, default=20, help="database connections per server")
    parser.add_argument("--batches", type=int, default=2, help="ingest: 500-message batches a round and side")
    return harness.run_benchmark(parser, run, argv)
