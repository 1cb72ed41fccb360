"""What keeping quota usage costs the database: the usage triggers (migration 0022) on and off, by turns.

Run: .venv/bin/python -m bench quotas [--rounds 4] [--statements 2000] [--batches 20]

One fresh database, one connection; each round runs both sides, the first alternating, the triggers
enabled and disabled between sides (`ALTER TABLE … DISABLE TRIGGER`), so both see the same machine.

- remember: remember's one statement (`repository.remember_one`) in a loop, each its own transaction: the
  statement-level trigger writes one change row, the deferred one folds it into the namespace's row at
  commit. PostgreSQL CPU a statement, p50 wall.
- ingest: ingest's statement (`ingest.repository.store_batch`) with 500 new messages of ~120 bytes, each
  batch its own transaction: one change row for the 500. PostgreSQL CPU a batch, p50 wall.
- checked: the same remember when the namespace has a memories limit: the unit of work's quota lock and
  two usage reads around the insert (`app.quotas.service.held_to_quotas`), against the same unit of work
  without a limit (no query added). PostgreSQL CPU and p50 wall a remember.
- rate: `QuotaBook.count_request` for a namespace with a requests-per-minute limit (one upsert in its own
  transaction) and without one (its limits cached: nothing sent). PostgreSQL CPU and p50 wall a request.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from datetime import UTC, datetime
from typing import Any

import asyncpg
import psutil
from ulid import ULID

from bench import harness
from bench.bench_ab import NAMESPACE, cpu_seconds
from bench.harness import fresh_database, print_table

TRIGGERS = [
    f"{table} {table}_usage_{change}"
    for table in ("memories", "messages")
    for change in ("inserted", "deleted", "updated")
]


async def set_triggers(conn: asyncpg.Connection, on: bool) -> None:
    for trigger in TRIGGERS:
        table, name = trigger.split()
        await conn.execute(f"ALTER TABLE {table} {'ENABLE' if on else 'DISABLE'} TRIGGER {name}")


def report(kind: str, figures: dict[str, list[tuple[float, float, float]]], sides: tuple[str, str]) -> None:
    rows = [
        [
            name,
            statistics.median(f[0] for f in figures[name]),
            statistics.median(f[1] for f in figures[name]),
            ", ".join(f"{f[2]:.1f}" for f in figures[name]),
        ]
        for name in sides
    ]
    print_table(
        f"{kind}, medians of {len(figures[sides[0]])} rounds",
        ["side", "PostgreSQL CPU ms", "p50 ms", "load"],
        rows,
    )
    for column, label in ((0, "CPU"), (1, "p50")):
        ratios = [
            round(a[column] / (b[column] or float("nan")), 3)
            for a, b in zip(figures[sides[0]], figures[sides[1]], strict=True)
        ]
        print(f"{sides[0]} / {sides[1]} {label} per round: {ratios}; median {statistics.median(ratios):.3f}")


async def measure(conn: asyncpg.Connection, count: int, one: Any) -> tuple[float, float, float]:
    backend = psutil.Process(conn.get_server_pid())
    before = cpu_seconds([backend])
    times = []
    for i in range(count):
        started = time.perf_counter()
        await one(i)
        times.append(time.perf_counter() - started)
    used = cpu_seconds([backend]) - before
    times.sort()
    return 1000 * used / count, 1000 * times[len(times) // 2], os.getloadavg()[0]


async def run(args: argparse.Namespace) -> None:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.core.db import create_sessionmaker
    from app.core.migrations import upgrade_to_head
    from app.core.quotas import Limits, QuotaBook
    from app.core.settings import to_async_url
    from app.extraction.types import content_hash
    from app.ingest import repository as ingest_repository
    from app.memories.repository import NewMemory, RememberItem, insert_one, remember_one
    from app.quotas.service import held_to_quotas

    print(f"agent-memory quota usage on / off — {time.strftime('%Y-%m-%d %H:%M:%S')}, {os.cpu_count()} cores")
    async with fresh_database(args.database_url, "bench_quotas") as url:
        engine = create_async_engine(to_async_url(url), pool_size=1, max_overflow=0)  # one backend, kept
        await upgrade_to_head(engine)
        conn = await asyncpg.connect(url)
        sent = 0

        def memory() -> NewMemory:
            nonlocal sent
            sent += 1
            words = f"My locker number {sent} holds {sent % 97} boxes."
            return NewMemory(str(ULID()), "fact", words, words, None, None, None, content_hash(words), ())

        try:
            await conn.execute(f"INSERT INTO namespaces (name) VALUES ('{NAMESPACE}')")
            namespace_id = await conn.fetchval("SELECT id FROM namespaces WHERE name = $1", NAMESPACE)

            async def remember(_: int) -> None:
                done = await remember_one(conn, RememberItem(None, NAMESPACE, f"p{sent % 8}", memory()))
                assert done.memory is not None

            figures: dict[str, list[tuple[float, float, float]]] = {"on": [], "off": []}
            for round_no in range(args.rounds + 1):  # the first round warms up, uncounted
                for name in ("on", "off") if round_no % 2 == 0 else ("off", "on"):
                    await set_triggers(conn, name == "on")
                    figure = await measure(conn, args.statements, remember)
                    if round_no:
                        figures[name].append(figure)
            report("remember's one statement", figures, ("on", "off"))

            maker = create_sessionmaker(engine)
            profile_id = await conn.fetchval(
                "INSERT INTO profiles (namespace_id, name) VALUES ($1, 'ingest') RETURNING id", namespace_id
            )
            async with maker() as db:
                pid = (await db.execute(text("SELECT pg_backend_pid()"))).scalar_one()
                await db.commit()

                async def ingest(i: int) -> None:
                    ids = [str(ULID()) for _ in range(500)]
                    contents = [
                        f"Message {n} of batch {i}: the weather in Lisbon was mild today." * 2
                        for n in range(500)
                    ]
                    await ingest_repository.store_batch(
                        db, profile_id, f"s{ULID()}", ids, ["user"] * 500, [None] * 500, contents,
                        [datetime.now(UTC)] * 500, [None] * 500,
                    )  # fmt: skip
                    await db.commit()

                figures = {"on": [], "off": []}
                backend = psutil.Process(pid)
                for round_no in range(args.rounds + 1):
                    for name in ("on", "off") if round_no % 2 == 0 else ("off", "on"):
                        await set_triggers(conn, name == "on")
                        before = cpu_seconds([backend])
                        times = []
                        for i in range(args.batches):
                            started = time.perf_counter()
                            await ingest(i)
                            times.append(time.perf_counter() - started)
                        used = cpu_seconds([backend]) - before
                        times.sort()
                        if round_no:
                            figures[name].append(
                                (
                                    1000 * used / args.batches,
                                    1000 * times[len(times) // 2],
                                    os.getloadavg()[0],
                                )
                            )
            report("ingest's statement, 500 messages a batch", figures, ("on", "off"))

            await set_triggers(conn, True)
            limited = create_sessionmaker(engine, QuotaBook(Limits(memories=10**9)))
            unlimited = create_sessionmaker(engine, QuotaBook(Limits()))
            profile = await conn.fetchval(
                "INSERT INTO profiles (namespace_id, name) VALUES ($1, 'checked') RETURNING id", namespace_id
            )
            figures = {"checked": [], "unchecked": []}
            for round_no in range(args.rounds + 1):
                for name in ("checked", "unchecked") if round_no % 2 == 0 else ("unchecked", "checked"):
                    chosen = limited if name == "checked" else unlimited
                    async with chosen() as db:
                        pid = (await db.execute(text("SELECT pg_backend_pid()"))).scalar_one()
                        await db.commit()
                        backend = psutil.Process(pid)
                        before = cpu_seconds([backend])
                        times = []
                        for _ in range(args.statements // 4):
                            started = time.perf_counter()
                            await checked_remember(
                                db, namespace_id, profile, memory(), held_to_quotas, insert_one
                            )
                            times.append(time.perf_counter() - started)
                        used = cpu_seconds([backend]) - before
                    times.sort()
                    if round_no:
                        count = args.statements // 4
                        figures[name].append(
                            (1000 * used / count, 1000 * times[count // 2], os.getloadavg()[0])
                        )
            report(
                "remember's unit of work, a namespace with a limit or none", figures, ("checked", "unchecked")
            )

            # The request rate: a namespace with requestsPerMinute counts each request in its window (one
            # upsert in a transaction of its own); one without costs no query (its limits cached).
            rated = QuotaBook(Limits(requests_per_minute=10**9))
            unrated = QuotaBook(Limits())
            figures = {"counted": [], "uncounted": []}
            for round_no in range(args.rounds + 1):
                for name in ("counted", "uncounted") if round_no % 2 == 0 else ("uncounted", "counted"):
                    book = rated if name == "counted" else unrated
                    async with unlimited() as db:
                        pid = (await db.execute(text("SELECT pg_backend_pid()"))).scalar_one()
                        await db.commit()
                    backend = psutil.Process(pid)  # the pool's one connection, count_request's too
                    before = cpu_seconds([backend])
                    times = []
                    for _ in range(args.statements):
                        started = time.perf_counter()
                        await book.count_request(unlimited, namespace_id)
                        times.append(time.perf_counter() - started)
                    used = cpu_seconds([backend]) - before
                    times.sort()
                    if round_no:
                        count = args.statements
                        figures[name].append(
                            (1000 * used / count, 1000 * times[count // 2], os.getloadavg()[0])
                        )
            report("a request's count in its namespace's window", figures, ("counted", "uncounted"))
        finally:
            await conn.close()
            await engine.dispose()


async def checked_remember(
    db: Any, namespace_id: int, profile_id: int, memory: Any, held_to_quotas: Any, insert_one: Any
) -> None:
    async with held_to_quotas(db, namespace_id, "memories", "bytes"):
        assert await insert_one(db, profile_id, memory) is not None
    await db.commit()


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--statements", type=int, default=2000, help="remembers a round and side")
    parser.add_argument("--batches", type=int, default=20, help="500-message ingests a round and side")
    return harness.run_benchmark(parser, run, argv)
