"""What the semantic channel costs: the local embedder (the default multilingual-e5-small, or `--model minilm`) per memory (batched, as the embed job runs it) and per
query (one text, as recall runs it), and the exact vector search per query for a profile of N memories in
the portable store (`real[]`, the machine's PostgreSQL) and, when the embedded server is available, in
pgvector. Prints medians of several runs with the load average beside them.

    .venv/bin/python -m bench embeddings --database-url postgresql://postgres@127.0.0.1:5432/postgres
    .venv/bin/python -m bench embeddings --sizes 1000,10000 --pgvector   # also the embedded server
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path

import asyncpg

from bench import harness
from bench.locomo import load_samples

DATA = Path(__file__).resolve().parent / "data" / "dev_locomo.json"


async def embedder_costs(
    provider: str, texts: list[str], questions: list[str], batch: int, runs: int
) -> None:
    """The local model as the worker and recall call it: memories as passages in batches, one question at
    a time (one thread each, as configured by default)."""
    from app.core.settings import Settings
    from app.embeddings.service import embedder_from_settings

    embedder = embedder_from_settings(
        Settings(database_url="postgresql://unused/x", embeddings=provider, embeddings_batch_size=batch)
    )
    assert embedder is not None
    t = time.perf_counter()
    await embedder.load()
    load_ms = 1000 * (time.perf_counter() - t)
    await embedder.embed(texts[:batch])  # warm up
    per_memory = []
    cpu = time.process_time()
    for _ in range(runs):
        t = time.perf_counter()
        await embedder.embed(texts)
        per_memory.append((time.perf_counter() - t) / len(texts))
    # The process's CPU time beside the wall time: on a loaded machine the wall time is mostly waiting for a
    # core, the CPU time is what a question costs.
    cpu_memory = (time.process_time() - cpu) / (runs * len(texts))
    per_query = []
    cpu_query = []
    for question in questions[: 50 * runs]:
        t, c = time.perf_counter(), time.process_time()
        await embedder.embed_query(question)
        per_query.append(time.perf_counter() - t)
        cpu_query.append(time.process_time() - c)
    harness.print_table(
        f"Local embedder {embedder.name} ({len(texts)} memory texts in batches of {batch}, median of {runs} "
        f"runs; p50 of {len(per_query)} queries, one thread; CPU: the process's CPU time, which a loaded "
        "machine's wall time overstates)",
        ["model load ms", "ms per memory", "CPU ms per memory", "ms per query", "CPU ms per query", "load"],
        [
            [
                load_ms,
                1000 * statistics.median(per_memory),
                1000 * cpu_memory,
                1000 * statistics.median(per_query),
                1000 * statistics.median(cpu_query),
                harness.load_average(),
            ]
        ],
    )


async def search_costs(
    url: str, store: str, sizes: list[int], dims: int, runs: int, rows: list[list[object]]
) -> None:
    """Vector search in one profile of `n` memories, through the repository's own SQL; a row per size."""
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.core.migrations import upgrade_to_head
    from app.core.settings import to_async_url
    from app.embeddings import repository

    engine = create_async_engine(to_async_url(url))
    await upgrade_to_head(engine)
    async with engine.connect() as conn:
        found = await repository.vector_store(conn)
    if found != store:
        print(f"{store}: the schema has {found}; skipped")
        await engine.dispose()
        return
    rng = random.Random(7)

    def vector() -> list[float]:
        v = [rng.gauss(0, 1) for _ in range(dims)]
        n = sum(x * x for x in v) ** 0.5
        return [x / n for x in v]

    raw = await asyncpg.connect(url)
    ns = await raw.fetchval(
        "INSERT INTO namespaces (name) VALUES ($1) RETURNING id", "bench-" + secrets.token_hex(3)
    )
    for n in sizes:
        pid = await raw.fetchval(
            "INSERT INTO profiles (namespace_id, name) VALUES ($1, $2) RETURNING id", ns, f"p{n}"
        )
        ids = [f"{i:026d}" for i in range(n)]
        await raw.executemany(
            "INSERT INTO memories (profile_id, id, type, summary, content, content_hash) "
            "VALUES ($1, $2, 'fact', 's', 'c', $2)",
            [(pid, i) for i in ids],
        )
        async with engine.begin() as conn:
            for start in range(0, n, 1000):
                chunk = ids[start : start + 1000]
                await repository.store_vectors(conn, pid, "bench", {i: vector() for i in chunk}, store)
        await raw.execute("ANALYZE memory_embeddings")
        timings = []
        async with engine.connect() as conn:
            for _ in range(runs):
                q = vector()
                t = time.perf_counter()
                await repository.nearest(conn, pid, "bench", q, store, limit=50, floor=-1.0)
                timings.append(time.perf_counter() - t)
        rows.append([store, n, dims, 1000 * statistics.median(timings), runs, harness.load_average()])
    await raw.close()
    await engine.dispose()


async def run(args: argparse.Namespace) -> int:
    samples = load_samples(args.data)
    texts = [t.content for s in samples for t in s.turns][: args.memories]
    questions = [qa.question for s in samples for qa in s.scored_questions()]
    if not args.no_model:
        await embedder_costs(args.model, texts, questions, args.batch, args.runs)
    sizes = [int(x) for x in args.sizes.split(",") if x]
    rows: list[list[object]] = []
    async with harness.fresh_database(args.database_url, "bench_emb", keep=args.keep) as url:
        await search_costs(url, "portable", sizes, 384, args.runs * 10, rows)
    if args.pgvector:
        from app.core.embedded import EmbeddedPostgres

        with tempfile.TemporaryDirectory() as folder:
            server = EmbeddedPostgres(Path(folder))
            url = await asyncio.to_thread(server.start)
            try:
                await search_costs(
                    url.replace("postgresql+asyncpg://", "postgresql://"),
                    "pgvector",
                    sizes,
                    384,
                    args.runs * 10,
                    rows,
                )
            finally:
                await asyncio.to_thread(server.stop)
    harness.print_table(
        "Vector search in one profile, top 50",
        ["store", "vectors", "dims", "p50 ms", "queries", "load average"],
        rows,
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__)
    p.add_argument("--data", default=str(DATA))
    p.add_argument("--memories", type=int, default=256, help="memory texts embedded per run")
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--sizes", default="1000,10000", help="profile sizes for the search timing")
    p.add_argument("--pgvector", action="store_true", help="also time pgvector on the embedded server")
    p.add_argument("--no-model", action="store_true", help="skip the local model's timing")
    p.add_argument("--model", default="local", choices=["local", "minilm"], help="which packaged model")
    return harness.run_benchmark(p, run, argv)
