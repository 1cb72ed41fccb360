"""Speed of the memory core against a real server: ingest, extraction by one worker, remember, list
at page 1 and page 1,000, and cold start of `serve` on the embedded PostgreSQL.

Run: .venv/bin/python -m bench memory-core [--rounds 3] [--keep] [--skip-cold-start]

Targets (spec/quality.md, 2 cores): ingest accepted ≥ 20,000 messages/s (500-message batches);
extraction by the default extractor, one worker ≥ 2,000 messages/s; remember ≥ 1,500 requests/s;
list p50 ≤ 5 ms at any page depth; cold start of `serve` on the embedded server ≤ 5 s to ready.

The server runs as a subprocess (`agent-memory serve --no-worker`) on a fresh database on the local
PostgreSQL (dropped at the end unless --keep); extraction is timed with a separate `agent-memory
worker` process. Load comes from this process over 127.0.0.1 only, with a scoped namespace key as an
agent deployment would use. Figures are printed, never asserted. Throughput figures are medians of
--rounds runs.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from ulid import ULID

from bench import harness
from bench.common import LeanClient, chat_message, memory_statement, percentile
from bench.harness import Server, fresh_database, print_table, scoped_key, service

NAMESPACE = "bench"
PROFILES = 8


def _ms(seconds: float) -> float:
    return seconds * 1000.0


# -- ingest ---------------------------------------------------------------------------------------


def _ingest_batches(run: int, batches: int, size: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    rng = random.Random(seed + run)
    start = datetime(2024, 3, 1, 9, 0, tzinfo=UTC) + timedelta(days=run * 30)
    out: list[tuple[str, dict[str, Any]]] = []
    for b in range(batches):
        messages = []
        for i in range(size):
            role, content = chat_message(rng, b * size + i)
            stamp = start + timedelta(days=b, seconds=i * 20)
            messages.append({"role": role, "content": content, "timestamp": stamp.isoformat()})
        body = {"sessionId": f"run{run}-session{b}", "messages": messages}
        out.append((f"user-{b % PROFILES}", body))
    return out


async def bench_ingest(server: Server, key: str, run: int, args: argparse.Namespace) -> dict[str, float]:
    batches = _ingest_batches(run, args.ingest_batches, args.batch_size, args.seed)
    queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
    for item in batches:
        queue.put_nowait(item)
    latencies: list[float] = []
    received = new = 0

    async def client_loop() -> None:
        nonlocal received, new
        async with httpx.AsyncClient(
            base_url=server.base_url, headers={"Authorization": f"Bearer {key}"}, timeout=60
        ) as client:
            while not queue.empty():
                profile, body = queue.get_nowait()
                t0 = time.perf_counter()
                response = await client.post(
                    f"/v1/namespaces/{NAMESPACE}/profiles/{profile}/ingest", json=body
                )
                latencies.append(time.perf_counter() - t0)
                if response.status_code != 202:
                    raise RuntimeError(f"ingest answered {response.status_code}: {response.text[:300]}")
                result = response.json()
                received += result["messagesReceived"]
                new += result["messagesNew"]

    started = time.perf_counter()
    await asyncio.gather(*(client_loop() for _ in range(args.ingest_clients)))
    elapsed = time.perf_counter() - started
    return {
        "received_per_s": received / elapsed,
        "new_per_s": new / elapsed,
        "messages": float(received),
        "seconds": elapsed,
        "p50_ms": _ms(percentile(latencies, 50)),
        "p99_ms": _ms(percentile(latencies, 99)),
    }


# -- extraction -----------------------------------------------------------------------------------


async def bench_extraction(database_url: str, timeout: float) -> dict[str, float]:
    """Time one `agent-memory worker` process emptying the extraction queue the ingest runs filled, then
    the embedding jobs extraction queued (the semantic channel is on by default): `per_s` is extraction
    alone, `per_s_with_embedding` until the last vector is stored, `drain_seconds` the embedding backlog
    left when extraction finished."""
    conn = await asyncpg.connect(database_url)
    try:
        pending_messages = await conn.fetchval(
            "SELECT coalesce(sum(jsonb_array_length(payload->'messageIds')), 0) FROM jobs "
            "WHERE kind = 'extract' AND status = 'queued'"
        )
        jobs = await conn.fetchval("SELECT count(*) FROM jobs WHERE kind = 'extract' AND status = 'queued'")
        memories_before = await conn.fetchval("SELECT count(*) FROM memories")
        # Not waited for: the worker is watched through the jobs table.
        worker = Server(
            env={"AGENT_MEMORY_DATABASE_URL": database_url, "AGENT_MEMORY_LOG_LEVEL": "WARNING"},
            args=("-m", "app", "worker"),
        )
        spawned = time.perf_counter()
        worker.spawn()
        assert worker.process is not None
        first_claim: float | None = None
        extracted: float | None = None
        finished: float | None = None
        deadline = time.perf_counter() + timeout
        try:
            while time.perf_counter() < deadline:
                row = await conn.fetchrow(
                    "SELECT count(*) FILTER (WHERE kind = 'extract' AND status IN ('queued', 'running')) AS pending, "
                    "count(*) FILTER (WHERE status IN ('queued', 'running')) AS all_pending, "
                    "count(*) FILTER (WHERE kind = 'extract' AND status <> 'queued') AS claimed FROM jobs"
                )
                now = time.perf_counter()
                if first_claim is None and row["claimed"] > 0:
                    first_claim = now
                if extracted is None and row["pending"] == 0:
                    extracted = now
                if row["all_pending"] == 0:
                    finished = now
                    break
                if worker.process.poll() is not None:
                    raise RuntimeError(f"worker exited with {worker.process.returncode}: {worker.log_tail()}")
                await asyncio.sleep(0.05)
        finally:
            worker.stop()
        if finished is None or extracted is None:
            raise TimeoutError("the worker did not empty the queue in time")
        failed = await conn.fetchval("SELECT count(*) FROM jobs WHERE status = 'failed'")
        created = await conn.fetchval("SELECT count(*) FROM memories") - memories_before
        vectors = await conn.fetchval("SELECT count(*) FROM memory_embeddings")
    finally:
        await conn.close()
    working = extracted - (first_claim or spawned)
    everything = finished - (first_claim or spawned)
    return {
        "messages": float(pending_messages),
        "jobs": float(jobs),
        "failed": float(failed),
        "memories": float(created),
        "vectors": float(vectors),
        "seconds_working": working,
        "seconds_with_embedding": everything,
        "drain_seconds": finished - extracted,
        "seconds_from_spawn": extracted - spawned,
        "per_s": pending_messages / working,
        "per_s_with_embedding": pending_messages / everything,
        "per_s_from_spawn": pending_messages / (extracted - spawned),
    }


# -- remember -------------------------------------------------------------------------------------


async def bench_remember(server: Server, key: str, run: int, args: argparse.Namespace) -> dict[str, float]:
    rng = random.Random(args.seed * 7 + run)
    contents = [f"{memory_statement(rng, i)[2]} [r{run}.{i}]" for i in range(200_000)]
    next_index = 0
    latencies: list[float] = []
    statuses: dict[int, int] = {}

    async def loop(c: int, until: float, record: bool) -> None:
        nonlocal next_index
        client = LeanClient(server.port, key)
        path = f"/v1/namespaces/{NAMESPACE}/profiles/remember-{c % PROFILES}/remember"
        try:
            while time.perf_counter() < until and next_index < len(contents):
                content = contents[next_index]
                next_index += 1
                t0 = time.perf_counter()
                status, _ = await client.request("POST", path, {"content": content})
                if record:
                    latencies.append(time.perf_counter() - t0)
                    statuses[status] = statuses.get(status, 0) + 1
        finally:
            await client.close()

    warm = time.perf_counter() + 1.0
    await asyncio.gather(*(loop(c, warm, False) for c in range(args.connections)))
    started = time.perf_counter()
    await asyncio.gather(*(loop(c, started + args.seconds, True) for c in range(args.connections)))
    elapsed = time.perf_counter() - started
    ok = statuses.get(201, 0) + statuses.get(200, 0)
    errors = sum(n for s, n in statuses.items() if s not in (200, 201))
    return {
        "per_s": ok / elapsed,
        "requests": float(ok),
        "errors": float(errors),
        "p50_ms": _ms(percentile(latencies, 50)),
        "p99_ms": _ms(percentile(latencies, 99)),
    }


# -- list -----------------------------------------------------------------------------------------


async def load_list_profile(server: Server, key: str, database_url: str, count: int) -> str:
    """A profile with `count` memories, bulk-loaded with COPY (ULIDs ascending, as real ones are)."""
    profile = "list-100k"
    profile_id = await harness.created_profile(server.base_url, key, database_url, NAMESPACE, profile)
    conn = await asyncpg.connect(database_url)
    try:
        rng = random.Random(99)
        base = time.time() - count / 1000 - 3600
        records = []
        for i in range(count):
            kind, summary, content, topic = memory_statement(rng, i)
            content = f"{content} [{i}]"
            records.append(
                (
                    profile_id,
                    str(ULID.from_timestamp(base + i / 1000)),
                    kind,
                    summary,
                    content,
                    f"s{i // 500}",
                    None,  # no topic keys: nothing here may supersede anything
                    None,
                    hashlib.sha256(content.encode()).hexdigest(),
                )
            )
        started = time.perf_counter()
        await conn.copy_records_to_table(
            "memories",
            records=records,
            columns=[
                "profile_id",
                "id",
                "type",
                "summary",
                "content",
                "session_id",
                "topic_key",
                "event_time",
                "content_hash",
            ],  # fmt: skip
        )
        await conn.execute("ANALYZE memories")
        print(f"loaded {count:,} memories into profile {profile} in {time.perf_counter() - started:.1f}s")
    finally:
        await conn.close()
    return profile


async def bench_list(server: Server, key: str, profile: str, args: argparse.Namespace) -> list[list[Any]]:
    import json

    client = LeanClient(server.port, key)
    base = f"/v1/namespaces/{NAMESPACE}/profiles/{profile}/memories?limit={args.page_size}"
    cursors: dict[int, str | None] = {1: None}
    cursor: str | None = None
    wanted = sorted({1, args.deep_page // 2, args.deep_page})
    try:
        walk_started = time.perf_counter()
        for page in range(1, args.deep_page + 1):
            if page in wanted:
                cursors[page] = cursor
            status, body = await client.request("GET", base + (f"&cursor={cursor}" if cursor else ""))
            assert status == 200, body[:300]
            data = json.loads(body)
            assert len(data["memories"]) == args.page_size, f"page {page} has {len(data['memories'])} items"
            cursor = data.get("cursor")
            if cursor is None and page < args.deep_page:
                raise RuntimeError(f"ran out of pages at {page}")
        walk = time.perf_counter() - walk_started
        print(
            f"walked {args.deep_page:,} pages by cursor in {walk:.1f}s ({_ms(walk) / args.deep_page:.2f} ms/page)"
        )
        rows: list[list[Any]] = []
        for page in wanted:
            url = base + (f"&cursor={cursors[page]}" if cursors[page] else "")
            for _ in range(20):
                await client.request("GET", url)
            latencies = []
            for _ in range(args.list_requests):
                t0 = time.perf_counter()
                status, _ = await client.request("GET", url)
                latencies.append(time.perf_counter() - t0)
                assert status == 200
            rows.append(
                [
                    f"page {page:,}",
                    _ms(percentile(latencies, 50)),
                    _ms(percentile(latencies, 99)),
                    len(latencies),
                ]
            )
        return rows
    finally:
        await client.close()


# -- cold start -----------------------------------------------------------------------------------


async def bench_cold_start(runs: int) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for run in range(runs):
        data_dir = Path(tempfile.mkdtemp(prefix="agent-memory-cold-"))
        try:
            for label in ("cold (new data dir)", "warm restart"):
                # DATABASE_URL empty means unset: the embedded server under AGENT_MEMORY_DATA_DIR.
                server = Server(env={"AGENT_MEMORY_DATABASE_URL": "", "AGENT_MEMORY_DATA_DIR": str(data_dir)})
                spawned = server.spawn()
                try:
                    ready = await server.ready(timeout=120)
                finally:
                    server.stop(timeout=60)
                rows.append([f"{label} #{run + 1}", ready - spawned])
        finally:
            shutil.rmtree(data_dir, ignore_errors=True)
    return rows


# -- main -----------------------------------------------------------------------------------------


def _median(results: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in results)


async def run(args: argparse.Namespace) -> None:
    print(
        f"agent-memory core benchmark — {time.strftime('%Y-%m-%d %H:%M:%S')}, python {sys.version.split()[0]}"
    )
    async with (
        fresh_database(args.database_url, "bench", keep=args.keep) as database_url,
        service(database_url, worker=False) as server,
    ):
        key = await scoped_key(server.base_url, NAMESPACE)

        ingest = [await bench_ingest(server, key, run, args) for run in range(args.rounds)]
        print_table(
            f"ingest: {args.ingest_batches} batches × {args.batch_size} messages, "
            f"{args.ingest_clients} clients (target ≥ 20,000 messages/s accepted)",
            ["run", "accepted msg/s", "stored msg/s", "seconds", "batch p50 ms", "batch p99 ms"],
            [
                [i + 1, r["received_per_s"], r["new_per_s"], r["seconds"], r["p50_ms"], r["p99_ms"]]
                for i, r in enumerate(ingest)
            ]
            + [["median", _median(ingest, "received_per_s"), _median(ingest, "new_per_s"), "", "", ""]],
        )

        extraction = await bench_extraction(database_url, args.extraction_timeout)
        print_table(
            "extraction: one `agent-memory worker` process, default extractor (target ≥ 2,000 messages/s)",
            [
                "messages",
                "jobs",
                "failed",
                "memories",
                "s working",
                "msg/s",
                "s from spawn",
                "msg/s incl. start",
            ],
            [
                [
                    int(extraction["messages"]),
                    int(extraction["jobs"]),
                    int(extraction["failed"]),
                    int(extraction["memories"]),
                    extraction["seconds_working"],
                    extraction["per_s"],
                    extraction["seconds_from_spawn"],
                    extraction["per_s_from_spawn"],
                ]
            ],
        )

        remember = [await bench_remember(server, key, run, args) for run in range(args.rounds)]
        print_table(
            f"remember: {args.connections} connections, {args.seconds:g}s per run "
            "(target ≥ 1,500 requests/s)",
            ["run", "requests/s", "requests", "errors", "p50 ms", "p99 ms"],
            [
                [i + 1, r["per_s"], int(r["requests"]), int(r["errors"]), r["p50_ms"], r["p99_ms"]]
                for i, r in enumerate(remember)
            ]
            + [["median", _median(remember, "per_s"), "", "", "", ""]],
        )

        profile = await load_list_profile(server, key, database_url, args.page_size * args.deep_page)
        listing = await bench_list(server, key, profile, args)
        print_table(
            f"list: limit {args.page_size}, one client, profile of {args.page_size * args.deep_page:,} "
            "memories (target p50 ≤ 5 ms at any depth)",
            ["page", "p50 ms", "p99 ms", "requests"],
            listing,
        )

    if not args.skip_cold_start:
        cold = await bench_cold_start(args.start_runs)
        print_table(
            "serve on the embedded PostgreSQL: spawn → /readyz 200 (target ≤ 5 s)",
            ["start", "seconds"],
            cold,
        )


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__)
    parser.add_argument("--ingest-batches", type=int, default=20, help="batches per ingest run")
    parser.add_argument("--batch-size", type=int, default=500, help="messages per ingest batch (max 500)")
    parser.add_argument("--ingest-clients", type=int, default=6, help="concurrent ingest clients")
    parser.add_argument(
        "--extraction-timeout", type=float, default=600, help="give up on the worker after this"
    )
    # Rounds of ingest and remember; remember's connections and counted seconds.
    harness.load_flags(parser, connections=32, seconds=8, rounds=3)
    parser.add_argument("--page-size", type=int, default=100, help="list page size")
    parser.add_argument(
        "--deep-page", type=int, default=1000, help="deep page to time (profile = size × this)"
    )
    parser.add_argument("--list-requests", type=int, default=300, help="timed requests per page")
    parser.add_argument("--start-runs", type=int, default=2, help="cold start + warm restart pairs")
    parser.add_argument("--skip-cold-start", action="store_true", help="skip the embedded-server start test")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the generated conversations")
    return harness.run_benchmark(parser, run, argv)
