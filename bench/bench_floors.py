"""The request paths against their floors, measured in one run, A/B interleaved.

Run: .venv/bin/python -m bench floors [--workers N] [--rounds 3] [--seconds 5] [--connections 32]

One fresh database on the local PostgreSQL (127.0.0.1:5432, dropped at the end unless --keep) serves both:
- the service, `agent-memory serve --no-worker --workers N`, with a scoped namespace key;
- the floors, `uvicorn bench.floor_app:app --workers N` (bench/floor_app.py): an empty endpoint, and one
  INSERT … RETURNING into the same `memories` table per request on a pooled asyncpg connection.

Each round measures, at --connections keep-alive connections for --seconds each (after a warm-up
second): the service's /healthz and the floor's /noop (requests/s), the floor's raw insert and the
service's remember (requests/s), and the service's ingest (accepted messages/s in 500-message batches,
every message new). Rounds alternate their order (forward, then backward) so a drift of the shared
machine's load falls on both sides of each pair. Printed: each figure with `os.getloadavg()` (1 min)
beside it, the medians, and the service / floor ratios. The load generator is this process (uvloop,
a lean HTTP client): it shares the two cores with the server and PostgreSQL, as for both sides alike.

Targets (issue 14): remember ≥ 1,500 requests/s and ≥ 0.5 of its raw-insert floor; ingest ≥ 20,000
messages/s accepted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import asyncpg

from bench import harness
from bench.common import LeanClient, ingest_batch, memory_statement
from bench.harness import Server, fresh_database, print_table, scoped_key, service

NAMESPACE = "floors"
PROFILES = 8
BATCH = 500

# One request on a connection: returns whether its status was the expected one.
Send = Callable[[LeanClient, int], Awaitable[bool]]


@dataclass
class Figure:
    name: str
    per_s: float
    errors: int
    load: float


def floor_app(database_url: str, workers: int) -> Server:
    """bench/floor_app.py under uvicorn, on the bench's database."""
    return Server(
        env={"FLOOR_DATABASE_URL": database_url},
        args=("-m", "uvicorn", "bench.floor_app:app", "--host", "127.0.0.1", "--port", "{port}")
        + ("--workers", str(workers), "--no-access-log", "--log-level", "warning"),
        ready_path="/noop",
    )


async def saturate(
    name: str, port: int, key: str | None, send: Send, connections: int, seconds: float
) -> Figure:
    """`connections` loops of `send` for a warm-up second, then `seconds` counted: completions per second
    (a request still in flight at the end is not counted)."""
    count = errors = 0
    sequence = 0

    async def loop(until: float, counted: bool) -> None:
        nonlocal count, errors, sequence
        client = LeanClient(port, key)
        try:
            while time.perf_counter() < until:
                sequence += 1
                ok = await send(client, sequence)
                if counted and time.perf_counter() <= until:
                    count += 1
                    errors += not ok
        finally:
            await client.close()

    await asyncio.gather(*(loop(time.perf_counter() + 1.0, False) for _ in range(connections)))
    load = os.getloadavg()[0]
    started = time.perf_counter()
    await asyncio.gather(*(loop(started + seconds, True) for _ in range(connections)))
    return Figure(name, count / seconds, errors, load)


def _statement(round_no: int, n: int) -> str:
    """A realistic statement, made unique (content is unique per profile) by its request number."""
    _, _, content, _ = memory_statement(random.Random(n), n)
    return f"{content} Ref {round_no}-{n}."


async def profile_ids(database_url: str) -> list[int]:
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch(
            "SELECT p.id FROM profiles p JOIN namespaces n ON n.id = p.namespace_id "
            "WHERE n.name = $1 AND p.deleted_at IS NULL ORDER BY p.name",
            NAMESPACE,
        )
    finally:
        await conn.close()
    return [r["id"] for r in rows]


async def run(args: argparse.Namespace) -> None:
    print(f"agent-memory floors benchmark — {time.strftime('%Y-%m-%d %H:%M:%S')}, {os.cpu_count()} cores")
    # The same connection budget for both sides, split over the processes, so that service and floor
    # together stay well under the shared server's max_connections (100 here).
    per_process = max(4, args.pool // args.workers)
    os.environ["AGENT_MEMORY_DB_POOL_SIZE"] = str(per_process)
    os.environ["AGENT_MEMORY_DB_MAX_OVERFLOW"] = "0"
    os.environ["FLOOR_POOL_SIZE"] = str(per_process)
    print(f"{per_process} database connections per process, service and floor alike")
    print(f"workers {args.workers}, {args.connections} connections, {args.seconds:g}s per figure")
    async with (
        fresh_database(args.database_url, "bench_floors", keep=args.keep) as url,
        service(url, worker=False, extra_args=["--workers", str(args.workers)]) as server,
    ):
        key = await scoped_key(server.base_url, NAMESPACE)
        assert server.process is not None
        print(
            f"service pid {server.process.pid} (for py-spy; with --workers > 1, the API processes are its children)"
        )
        warm = LeanClient(server.port, key)
        for p in range(PROFILES):  # the profiles exist before anything is timed
            status, body = await warm.request(
                "POST", f"/v1/namespaces/{NAMESPACE}/profiles/p{p}/remember", {"content": f"I am user {p}."}
            )
            assert status in (200, 201), body
        await warm.close()
        ids = await profile_ids(url)
        conversations = [ingest_batch(s, BATCH) for s in range(4)]
        async with floor_app(url, args.workers) as floor:
            rounds: list[list[Figure]] = []
            for round_no in range(args.rounds):

                async def healthz(client: LeanClient, n: int) -> bool:
                    status, _ = await client.request("GET", "/healthz")
                    return status == 200

                async def noop(client: LeanClient, n: int) -> bool:
                    status, _ = await client.request("GET", "/noop")
                    return status == 200

                async def insert(client: LeanClient, n: int, r: int = round_no) -> bool:
                    body = {"profileId": ids[n % len(ids)], "content": _statement(r, n)}
                    status, _ = await client.request("POST", "/insert", body)
                    return status == 201

                async def remember(client: LeanClient, n: int, r: int = round_no) -> bool:
                    path = f"/v1/namespaces/{NAMESPACE}/profiles/p{n % PROFILES}/remember"
                    status, _ = await client.request("POST", path, {"content": _statement(r, n)})
                    return status == 201

                async def ingest(client: LeanClient, n: int, r: int = round_no) -> bool:
                    path = f"/v1/namespaces/{NAMESPACE}/profiles/p{n % PROFILES}/ingest"
                    payload = (
                        b'{"sessionId":"r%d-s%d","messages":' % (r, n)
                        + conversations[n % len(conversations)]
                        + b"}"
                    )
                    status, _ = await client.request_bytes("POST", path, payload)
                    return status == 202

                plan: list[tuple[str, int, str | None, Send]] = [
                    ("service /healthz", server.port, None, healthz),
                    ("floor /noop", floor.port, None, noop),
                    ("floor raw insert", floor.port, None, insert),
                    ("service remember", server.port, key, remember),
                    ("service ingest (batches)", server.port, key, ingest),
                ]
                if args.only:
                    plan = [step for step in plan if any(word in step[0] for word in args.only.split(","))]
                if round_no % 2:
                    plan.reverse()
                figures = []
                for name, port, auth, send in plan:
                    figure = await saturate(name, port, auth, send, args.connections, args.seconds)
                    print(
                        f"  round {round_no + 1}: {name:26} {figure.per_s:10,.0f}/s  load {figure.load:.2f}"
                    )
                    figures.append(figure)
                rounds.append(sorted(figures, key=lambda f: f.name))
    report(rounds)


def report(rounds: list[list[Figure]]) -> None:
    names = [f.name for f in rounds[0]]
    if len(names) < 5:  # a partial run (--only): the figures above are the report
        return
    rows = []
    medians: dict[str, float] = {}
    for i, name in enumerate(names):
        values = [r[i].per_s for r in rounds]
        medians[name] = statistics.median(values)
        scale = BATCH if "ingest" in name else 1
        unit = "messages/s" if scale > 1 else "requests/s"
        rows.append(
            [
                name,
                unit,
                *[f"{r[i].per_s * scale:,.0f} (load {r[i].load:.2f}, {r[i].errors} err)" for r in rounds],
                medians[name] * scale,
            ]
        )
    print_table(
        "figures per round (load average, 1 min, at the start of each)",
        ["measure", "unit", *[f"round {n + 1}" for n in range(len(rounds))], "median"],
        rows,
    )
    ratio_rows = [
        [
            "remember / raw insert",
            medians["service remember"] / medians["floor raw insert"],
            [
                round(r[names.index("service remember")].per_s / r[names.index("floor raw insert")].per_s, 2)
                for r in rounds
            ],
            "≥ 0.5",
        ],
        [
            "/healthz / floor /noop",
            medians["service /healthz"] / medians["floor /noop"],
            [
                round(r[names.index("service /healthz")].per_s / r[names.index("floor /noop")].per_s, 2)
                for r in rounds
            ],
            "",
        ],
    ]
    print_table(
        "service / floor (medians; per round)", ["ratio", "median", "per round", "target"], ratio_rows
    )
    print(
        f"\nremember {medians['service remember']:,.0f} requests/s (target ≥ 1,500); "
        f"ingest {medians['service ingest (batches)'] * BATCH:,.0f} messages/s (target ≥ 20,000)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__)
    harness.load_flags(parser, connections=32, seconds=5, rounds=3, workers=1)
    parser.add_argument(
        "--pool", type=int, default=20, help="database connections per side, over its processes"
    )
    parser.add_argument(
        "--only", help="measure only these (comma-separated words of their names, e.g. remember,insert)"
    )
    return harness.run_benchmark(parser, run, argv)
