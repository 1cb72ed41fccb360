"""The worker through the service: extraction of short chat turns (or ~11 KB messages), then the vectors of
the memories it made, and extraction again while those vectors are being made.

Run: .venv/bin/python -m bench extraction-service [--short 1200] [--large 0] [--rounds 1] [--base REV]
         [--lexical] [--one-core] [--timeout 1800]

For each size and round: a fresh database on the local PostgreSQL; `agent-memory serve --no-worker` takes the
messages through `POST /ingest` (100 per request, as agents batch them, sessions of 300); then one
`agent-memory worker` process (the one `serve` would start) is timed through the jobs table:

- wave 1: from its first claim until the extraction queue is empty (the job SQL, storing memories and their
  sources included): messages/s of extraction;
- wave 2: as soon as the first vectors of wave 1 are stored (the embedding backlog is being worked off), as
  many messages again into new sessions, timed from the first request until the extraction queue is empty:
  messages/s of extraction while a backlog of vectors waits;
- until every job is done: messages/s with embedding (both waves, from the first claim to the last vector),
  and the embedding backlog's drain time after the last extraction.

The model floor: the embedder alone, in this process on one thread, on the texts the `embed` job embeds for
the first memories of the run (the configured `AGENT_MEMORY_EMBEDDINGS_INPUT`): tokens per text, CPU ms per
memory and the memories/s one core can embed at most. `--lexical` adds a row with
`AGENT_MEMORY_EMBEDDINGS=none` (extraction alone); `--one-core` pins the worker process (its extraction and
embedding threads) to one core; `--base REV` runs the worker of that git revision too (a
temporary worktree on PYTHONPATH, as `bench ab` does), interleaved with this checkout's, the first side
alternating from round to round. `python -m bench extraction-sizes` is the extractor alone.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import httpx
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

from app.core.settings import Settings, to_async_url
from app.embeddings import repository
from app.embeddings.e5 import E5Embedder, shared_model
from app.embeddings.service import text_of
from bench import harness
from bench.bench_ab import worktree
from bench.bench_extraction_sizes import messages
from bench.harness import ADMIN_KEY, ROOT, Server, fresh_database, print_table, service

PER_REQUEST = 100
SESSION = 300
FLOOR_TEXTS = 96


async def ingest(base_url: str, count: int, size: int | None, wave: int) -> float:
    """Ingest `count` messages into new sessions of 300; returns their mean size in KB."""
    batch = messages(count, size)
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=120) as client:
        if wave == 1:
            created = await client.post("/v1/namespaces", json={"name": "sizes"})
            assert created.status_code == 201, created.text
        for start in range(0, count, PER_REQUEST):
            body = {
                "sessionId": f"w{wave}-s{start // SESSION}",
                "messages": [
                    # Numbered: the turns repeat, and a session stores a repeated message once.
                    {
                        "role": m.role,
                        "content": f"({wave}.{i}) {m.content}",
                        "timestamp": m.timestamp.isoformat(),
                    }
                    for i, m in enumerate(batch[start : start + PER_REQUEST], start)
                ],
            }
            response = await client.post("/v1/namespaces/sizes/profiles/p/ingest", json=body)
            assert response.status_code == 202, response.text
    return sum(len(m.content.encode()) for m in batch) / count / 1024


_STATE = """
    SELECT count(*) FILTER (WHERE kind = 'extract' AND status IN ('queued', 'running')) AS extracting,
           count(*) FILTER (WHERE status IN ('queued', 'running')) AS pending,
           count(*) FILTER (WHERE kind = 'extract' AND status <> 'queued') AS claimed,
           (SELECT count(*) FROM memory_embeddings) AS vectors
    FROM jobs
    """


class Watch:
    """The jobs table seen every 50 ms while one worker process runs."""

    def __init__(self, conn: asyncpg.Connection, worker: Server, deadline: float) -> None:
        self.conn, self.worker, self.deadline = conn, worker, deadline

    async def until(self, column: str, done: bool) -> float:
        """The time `column` of `_STATE` first is zero (done=True) or above zero (done=False)."""
        assert self.worker.process is not None
        while time.perf_counter() < self.deadline:
            value = (await self.conn.fetchrow(_STATE))[column]
            if (value == 0) == done:
                return time.perf_counter()
            if self.worker.process.poll() is not None:
                raise RuntimeError(f"worker exited: {self.worker.log_tail()}")
            await asyncio.sleep(0.05)
        raise TimeoutError(f"the worker did not get {column} to {'zero' if done else 'above zero'} in time")


def worker_process(database_url: str, tree: Path | None, lexical: bool) -> Server:
    env = {"AGENT_MEMORY_DATABASE_URL": database_url, "AGENT_MEMORY_LOG_LEVEL": "WARNING"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)  # the base revision's code (`python -m app` runs it from there)
    if lexical:
        env["AGENT_MEMORY_EMBEDDINGS"] = "none"
    return Server(env=env, args=("-m", "app", "worker"), cwd=tree or ROOT)


async def model_floor(database_url: str) -> tuple[float, float]:
    """(tokens per text, CPU ms per memory) of the local model on one thread, on what the `embed` job embeds
    for the run's first memories (read as if for a model that has no vectors yet)."""
    settings = Settings()
    engine = create_async_engine(to_async_url(database_url))
    try:
        async with AsyncSession(engine) as db:
            profile_id = (await db.execute(text("SELECT id FROM profiles LIMIT 1"))).scalar_one()
            pending = await repository.missing(db, profile_id, "floor", FLOOR_TEXTS)
    finally:
        await engine.dispose()
    texts = list(dict.fromkeys(text_of(m, settings.embeddings_input) for m in pending))
    embedder = E5Embedder(batch_size=settings.embeddings_batch_size, threads=1)
    await embedder.embed(texts[:4])  # loaded and warm
    tokens = sum(shared_model(1).token_count(t) for t in texts) / len(texts)
    started = time.process_time()
    await embedder.embed(texts)
    return tokens, (time.process_time() - started) * 1000 / len(texts)


async def one_run(
    args: argparse.Namespace, count: int, size: int | None, tree: Path | None, lexical: bool
) -> list[float]:
    async with fresh_database(args.database_url, "bench_sizes", keep=args.keep) as url:
        async with service(url, worker=False) as server:
            kb = await ingest(server.base_url, count, size, wave=1)
            conn = await asyncpg.connect(url)
            worker = worker_process(url, tree, lexical)
            worker.spawn()
            if args.one_core:
                assert worker.process is not None
                # Before it starts a thread: its threads (extraction, the embedder) inherit the one core.
                os.sched_setaffinity(worker.process.pid, {min(os.sched_getaffinity(0))})
            watch = Watch(conn, worker, time.perf_counter() + args.timeout)
            try:
                first_claim = await watch.until("claimed", done=False)
                wave1 = await watch.until("extracting", done=True) - first_claim
                if not lexical:
                    await watch.until("vectors", done=False)  # the backlog is being worked off
                second_wave = time.perf_counter()
                await ingest(server.base_url, count, size, wave=2)
                extracted = await watch.until("extracting", done=True)
                finished = await watch.until("pending", done=True)
                failed = await conn.fetchval("SELECT count(*) FROM jobs WHERE status = 'failed'")
                memories = await conn.fetchval("SELECT count(*) FROM memories")
                vectors = await conn.fetchval("SELECT count(*) FROM memory_embeddings")
            finally:
                worker.stop()
                await conn.close()
        tokens, ms = (0.0, 0.0) if lexical else await model_floor(url)
    return [
        round(kb, 2),
        round(count / wave1),
        round(count / (extracted - second_wave)),
        memories,
        failed,
        vectors,
        round(2 * count / (finished - first_claim), 1),
        round(finished - extracted, 1),
        round(tokens, 1),
        round(ms, 1),
        round(1000 / ms, 1) if ms else 0,
    ]


def sides(args: argparse.Namespace, tree: Path | None, round_no: int) -> Iterator[tuple[str, Path | None]]:
    both = [("base", tree), ("new", None)] if tree is not None else [("this", None)]
    yield from both if round_no % 2 == 0 else reversed(both)


async def measure(args: argparse.Namespace, tree: Path | None) -> None:
    rows = []
    for label, count, size in (("short", args.short, None), ("11 KB", args.large, 11_000)):
        if not count:
            continue
        for round_no in range(args.rounds):
            for side, code in sides(args, tree, round_no):
                for lexical in (False, True) if args.lexical else (False,):
                    before = harness.load_average()
                    figures = await one_run(args, count, size, code, lexical)
                    embeddings = "none" if lexical else "default"
                    load = f"{before} → {harness.load_average()}"
                    rows.append([label, side, embeddings, count, *figures, load])
                    print(*rows[-1], sep=" | ", flush=True)  # kept should a later run fail
    print_table(
        "The worker: extraction, and the vectors after it (one worker process, default extractor)",
        [
            "messages",
            "code",
            "embeddings",
            "count per wave",
            "avg KB",
            "wave 1 msg/s",
            "wave 2 msg/s",
            "memories",
            "failed",
            "vectors",
            "msg/s with embedding",
            "drain s",
            "tokens/text",
            "model CPU ms/memory",
            "model memories/s",
            "load average",
        ],  # fmt: skip
        rows,
    )


async def run(args: argparse.Namespace) -> None:
    if args.base is None:
        await measure(args, None)
        return
    with worktree(args.base) as tree:
        await measure(args, tree)


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__)
    parser.add_argument("--short", type=int, default=1200, help="short messages per wave")
    parser.add_argument("--large", type=int, default=0, help="~11 KB messages per wave")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--base", default=None, help="a git revision whose worker runs too, interleaved")
    parser.add_argument("--lexical", action="store_true", help="also a row with AGENT_MEMORY_EMBEDDINGS=none")
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument(
        "--one-core",
        action="store_true",
        help="pin the worker process to one core (the API and PostgreSQL not)",
    )
    return harness.run_benchmark(parser, run, argv)
