"""Speed of recall at scale: 1M memories over 1,000 profiles, one client and 32 connections.

Run: .venv/bin/python -m bench recall [--profiles 1000] [--per-profile 1000] [--keep | --reuse-db NAME]
         [--floor] [--workers N] [--load-only]

`--floor` measures the service against its SQL floor in the same run: the statements the real recall code
sends for each question are captured in-process, then replayed through asyncpg (one client, and saturated),
interleaved with the service's own runs, each figure with the load average. `--profiles 1 --per-profile
100000` (or 300000) measures recall in one large profile.

Targets (spec/quality.md, 2 cores): with one client, p50 ≤ 15 ms and p99 ≤ 40 ms lexically, p50 ≤ 25 ms and
p99 ≤ 60 ms with the semantic channel on (the default; the question's embedding included); ≥ 400
requests/s saturated with 32 connections.

Loads a fresh database on the local PostgreSQL in bulk: profiles and sessions with SQL, then memories
(generated sentences from word lists — names, places, activities, dates — so a term matches a realistic
sliver of a profile), their source messages plus assistant replies, and the source links, all by COPY;
the generated tsvector columns fill themselves. Secondary indexes are dropped for the load and rebuilt
after (the same definitions, read from the catalogue), then VACUUM ANALYZE. Loading takes a few minutes;
`--keep` keeps the database (its name is printed) and `--reuse-db NAME` measures a kept one again without reloading.

The semantic channel is on by default, so every active memory also gets a vector of the default model
(`--vectors synthetic`): embedding 1M memories with the model would take hours on two cores, so they are
random unit vectors near a common direction (like e5's, whose similarities sit between 0.7 and 0.9), stored
under the model's own name by COPY; the question is embedded for real by the served app, and the same
questions are embedded here too, one thread, to print what the embedding alone costs. `--lexical` also
measures the same questions with `AGENT_MEMORY_EMBEDDINGS=none`, interleaved, on the same data.

Then it serves that database (`agent-memory serve --no-worker`), asks generated questions of random
profiles through `POST …/recall` over 127.0.0.1, prints latency and throughput, and prints
`EXPLAIN (ANALYZE, BUFFERS)` of the full-text statements one recall runs — captured from the real
service code (app/recall), so the plan shown is the plan served. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import statistics
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
from ulid import ULID

from bench import harness
from bench.common import CHITCHAT, NAMES, PLACES, LeanClient, memory_statement, percentile, recall_question
from bench.harness import ADMIN_KEY, ROOT, fresh_database, print_table, scoped_key, with_database

NAMESPACE = "recall-bench"
RECALL_REPOSITORY = ROOT / "app" / "recall" / "repository.py"
TABLES = ("memories", "messages", "memory_sources")


def _ms(seconds: float) -> float:
    return seconds * 1000.0


# -- load -----------------------------------------------------------------------------------------


def _profile_rows(
    profile_id: int, seed: int, per_profile: int, sessions: int, replies: float, messages: bool
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """One profile's memories, messages and source links, as COPY records. Runs in a thread."""
    rng = random.Random(seed * 1_000_003 + profile_id)
    now = datetime.now(UTC)
    start = now - timedelta(days=365)
    step = timedelta(days=365) / per_profile
    per_session = max(1, per_profile // sessions)
    memories: list[list[Any]] = []
    msgs: list[tuple[Any, ...]] = []
    sources: list[tuple[Any, ...]] = []
    last_in_session: dict[str, str] = {}
    for i in range(per_profile):
        at = start + step * i
        kind, summary, content, topic = memory_statement(rng, i)
        session = f"s{i // per_session}"
        memory_id = str(ULID.from_timestamp(at.timestamp()))
        event_time = at - timedelta(days=rng.randint(0, 20)) if kind == "event" else None
        memories.append(
            [profile_id, memory_id, kind, summary, content, session, topic, event_time,
             hashlib.sha256(f"{content}|{i}".encode()).hexdigest(), at, at]
        )  # fmt: skip
        if not messages:
            continue
        message_id = hashlib.sha256(f"{profile_id}|{session}|user|{content}|{i}".encode()).hexdigest()[:32]
        parts = json.dumps([{"type": "text", "text": content}])
        msgs.append(
            (profile_id, message_id, session, last_in_session.get(session), "user", parts, content, at)
        )
        last_in_session[session] = message_id
        sources.append((profile_id, memory_id, message_id, session))
        if rng.random() < replies:
            name, place = rng.choice(NAMES), rng.choice(PLACES)
            reply = rng.choice(
                (
                    f"That sounds lovely! How did {name} like {place}?",
                    f"Noted, I'll remember that about {place}.",
                    rng.choice(CHITCHAT),
                )
            )
            reply_id = hashlib.sha256(f"{profile_id}|{session}|assistant|{reply}|{i}".encode()).hexdigest()[
                :32
            ]
            reply_parts = json.dumps([{"type": "text", "text": reply}])
            reply_at = at + timedelta(seconds=5)
            msgs.append(
                (profile_id, reply_id, session, message_id, "assistant", reply_parts, reply, reply_at)
            )
            last_in_session[session] = reply_id
    # Supersession as extraction leaves it: of the home-city facts, only the newest is active.
    active_home: str | None = None
    for row in reversed(memories):
        if row[6] is not None:
            if active_home is None:
                active_home = row[1]
            else:
                row.append(active_home)
                continue
        row.append(None)
    return [tuple(r) for r in memories], msgs, sources


MEMORY_COLUMNS = [
    "profile_id", "id", "type", "summary", "content", "session_id", "topic_key", "event_time",
    "content_hash", "created_at", "updated_at", "superseded_by",
]  # fmt: skip
MESSAGE_COLUMNS = [
    "profile_id",
    "id",
    "session_id",
    "parent_id",
    "role",
    "parts",
    "text_content",
    "created_at",
]


async def load(database_url: str, args: argparse.Namespace, key_holder: dict[str, str]) -> None:
    """Schema (through the server's own migrations), a scoped key, then the bulk load."""
    async with harness.service(database_url, worker=False) as server:
        key_holder["key"] = await scoped_key(server.base_url, NAMESPACE)
    conn = await asyncpg.connect(database_url)
    try:
        started = time.perf_counter()
        namespace_id = await conn.fetchval(
            "SELECT id FROM namespaces WHERE name = $1 AND deleted_at IS NULL", NAMESPACE
        )
        profile_ids = [
            r["id"]
            for r in await conn.fetch(
                "INSERT INTO profiles (namespace_id, name) SELECT $1, 'user-' || g "
                "FROM generate_series(0, $2 - 1) g RETURNING id",
                namespace_id,
                args.profiles,
            )
        ]
        sessions_per_profile = max(1, args.per_profile // args.session_size)
        await conn.execute(
            "INSERT INTO sessions (profile_id, id, name) "
            "SELECT p, 's' || g, 's' || g FROM unnest($1::bigint[]) p, generate_series(0, $2 - 1) g",
            profile_ids,
            sessions_per_profile,
        )
        indexes = await conn.fetch(
            """
            SELECT c.relname AS table, i.relname AS index, pg_get_indexdef(i.oid) AS definition
            FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class c ON c.oid = x.indrelid
            WHERE c.relname = ANY($1::text[]) AND NOT x.indisprimary
            """,
            list(TABLES),
        )
        for row in indexes:
            await conn.execute(f'DROP INDEX "{row["index"]}"')
        print(f"dropped {len(indexes)} secondary indexes for the load; loading…", flush=True)
    finally:
        await conn.close()

    # Two COPY connections keep both cores busy: PostgreSQL parses rows and computes tsvectors on one
    # while Python generates the next chunk on the other (generation runs in a thread).
    chunk = max(1, 20_000 // args.per_profile)
    chunks = [profile_ids[i : i + chunk] for i in range(0, len(profile_ids), chunk)]
    counts = {"memories": 0, "messages": 0}
    queue: asyncio.Queue[list[int]] = asyncio.Queue()
    for c in chunks:
        queue.put_nowait(c)

    def generate(ids: list[int]) -> tuple[list[Any], list[Any], list[Any]]:
        mem: list[Any] = []
        msg: list[Any] = []
        src: list[Any] = []
        for pid in ids:
            a, b, s = _profile_rows(
                pid, args.seed, args.per_profile, sessions_per_profile, args.replies, not args.no_messages
            )
            mem += a
            msg += b
            src += s
        return mem, msg, src

    async def copier() -> None:
        conn = await asyncpg.connect(database_url)
        # Generated rows are consistent by construction; skipping per-row FK triggers is the usual bulk
        # load (the local server's postgres role is a superuser).
        await conn.execute("SET session_replication_role = replica")
        try:
            pending = (
                asyncio.create_task(asyncio.to_thread(generate, queue.get_nowait()))
                if not queue.empty()
                else None
            )
            while pending is not None:
                mem, msg, src = await pending
                pending = (
                    asyncio.create_task(asyncio.to_thread(generate, queue.get_nowait()))
                    if not queue.empty()
                    else None
                )
                await conn.copy_records_to_table("memories", records=mem, columns=MEMORY_COLUMNS)
                if msg:
                    await conn.copy_records_to_table("messages", records=msg, columns=MESSAGE_COLUMNS)
                    await conn.copy_records_to_table(
                        "memory_sources",
                        records=src,
                        columns=["profile_id", "memory_id", "message_id", "session_id"],
                    )
                counts["memories"] += len(mem)
                counts["messages"] += len(msg)
                done = counts["memories"]
                if done // 100_000 != (done - len(mem)) // 100_000:
                    rate = done / (time.perf_counter() - started)
                    print(
                        f"  {done:,} memories, {counts['messages']:,} messages ({rate:,.0f} memories/s)",
                        flush=True,
                    )
        finally:
            await conn.close()

    await asyncio.gather(*(copier() for _ in range(args.load_connections)))
    copied = time.perf_counter()
    print(
        f"copied {counts['memories']:,} memories and {counts['messages']:,} messages in {copied - started:.0f}s"
    )

    if args.vectors == "synthetic":
        await load_vectors(database_url, args.seed)
        copied = time.perf_counter()

    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute("SET maintenance_work_mem = '1GB'")
        await conn.execute("SET max_parallel_maintenance_workers = 2")

        async def rebuild(definition: str) -> None:
            c = await asyncpg.connect(database_url)
            try:
                await c.execute("SET maintenance_work_mem = '512MB'")
                await c.execute(definition)
            finally:
                await c.close()

        # Two index builds at a time: one per core.
        definitions = [r["definition"] for r in indexes]
        for i in range(0, len(definitions), 2):
            await asyncio.gather(*(rebuild(d) for d in definitions[i : i + 2]))
        indexed = time.perf_counter()
        print(f"rebuilt {len(definitions)} indexes in {indexed - copied:.0f}s")
        for table in (*TABLES, "memory_embeddings", "sessions", "profiles"):
            await conn.execute(f"VACUUM (ANALYZE) {table}")
        print(
            f"vacuum analyze in {time.perf_counter() - indexed:.0f}s; load total {time.perf_counter() - started:.0f}s"
        )
        size = await conn.fetchval("SELECT pg_size_pretty(pg_database_size(current_database()))")
        print(f"database size {size}")
    finally:
        await conn.close()


def default_model() -> str:
    """The name the default semantic channel stores and searches its vectors under."""
    from app.core.settings import Settings
    from app.embeddings.service import Semantic

    semantic = Semantic.from_settings(Settings(database_url="postgresql://unused/x"))
    if semantic is None:
        raise SystemExit("--vectors synthetic: the default settings have no semantic channel")
    return semantic.model


async def load_vectors(database_url: str, seed: int, batch: int = 20_000) -> None:
    """A synthetic vector of the default model for every active memory of an embedded type (see the module
    docstring), by COPY in the portable store's form (the machine's PostgreSQL has no pgvector); none if the
    database holds some already."""
    import numpy as np

    from app.core.memory_types import EMBEDDED_TYPES
    from app.embeddings.e5 import shared_model
    from app.embeddings.repository import HALF

    model = default_model()
    rng = np.random.default_rng(seed)
    # The common direction is the mean of real passages' vectors, so a real question lands near it as it
    # lands near real memories (and above the channel's similarity floor).
    statements = [memory_statement(random.Random(seed), i)[2] for i in range(64)]
    common = np.asarray(shared_model().passage(statements), dtype=np.float32).mean(axis=0)
    common /= np.linalg.norm(common)
    started = time.perf_counter()
    conn = await asyncpg.connect(database_url)
    count = 0
    try:
        await conn.execute("SET session_replication_role = replica")
        if await conn.fetchval("SELECT count(*) FROM memory_embeddings WHERE model = $1", model):
            print(f"vectors of {model} already stored", flush=True)
            return
        rows = await conn.fetch(
            "SELECT profile_id, id FROM memories WHERE superseded_by IS NULL AND type = ANY($1::text[])",
            [t.value for t in EMBEDDED_TYPES],
        )
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            noise = rng.standard_normal((len(chunk), 384)).astype(np.float32)
            noise /= np.linalg.norm(noise, axis=1, keepdims=True)
            vectors = 3.0 * common + noise  # cosine ≈ 0.95 with the common direction, ≈ 0.9 between two
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            halves = vectors.astype(HALF)  # the portable store's form
            records = [
                (r["profile_id"], r["id"], model, v.tobytes()) for r, v in zip(chunk, halves, strict=True)
            ]
            await conn.copy_records_to_table(
                "memory_embeddings",
                records=records,
                columns=["profile_id", "memory_id", "model", "embedding"],
            )
            count += len(chunk)
    finally:
        await conn.close()
    print(
        f"stored {count:,} synthetic vectors of {model} in {time.perf_counter() - started:.0f}s", flush=True
    )


# -- measure --------------------------------------------------------------------------------------


def _path(profile: int) -> str:
    return f"/v1/namespaces/{NAMESPACE}/profiles/user-{profile}/recall"


async def one_client(
    port: int, key: str, questions: list[tuple[int, str]], warmup: int, level: str | None = None
) -> dict[str, float]:
    client = LeanClient(port, key)
    latencies: list[float] = []
    empty = 0
    try:
        for n, (profile, question) in enumerate(questions):
            body_in: dict[str, Any] = {"query": question}
            if level is not None:
                body_in["thinkingLevel"] = level
            t0 = time.perf_counter()
            status, body = await client.request("POST", _path(profile), body_in)
            elapsed = time.perf_counter() - t0
            if status != 200:
                raise RuntimeError(f"recall answered {status}: {body[:300]!r}")
            if n >= warmup:
                latencies.append(elapsed)
                empty += json.loads(body)["count"] == 0
    finally:
        await client.close()
    return {
        "p50": _ms(percentile(latencies, 50)),
        "p90": _ms(percentile(latencies, 90)),
        "p99": _ms(percentile(latencies, 99)),
        "mean": _ms(statistics.fmean(latencies)),
        "n": float(len(latencies)),
        "empty": empty / len(latencies),
    }


async def saturated(
    port: int, key: str, questions: list[tuple[int, str]], connections: int, seconds: float
) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    counter = 0

    async def loop(until: float) -> None:
        nonlocal errors, counter
        client = LeanClient(port, key)
        try:
            while time.perf_counter() < until:
                profile, question = questions[counter % len(questions)]
                counter += 1
                t0 = time.perf_counter()
                status, _ = await client.request("POST", _path(profile), {"query": question})
                latencies.append(time.perf_counter() - t0)
                errors += status != 200
        finally:
            await client.close()

    await asyncio.gather(*(loop(time.perf_counter() + 2.0) for _ in range(connections)))  # warm-up
    latencies.clear()
    errors = 0
    started = time.perf_counter()
    await asyncio.gather(*(loop(started + seconds) for _ in range(connections)))
    elapsed = time.perf_counter() - started
    return {
        "rps": len(latencies) / elapsed,
        "n": float(len(latencies)),
        "errors": float(errors),
        "p50": _ms(percentile(latencies, 50)),
        "p99": _ms(percentile(latencies, 99)),
    }


async def explain(database_url: str, profile: int, question: str) -> None:
    """EXPLAIN (ANALYZE, BUFFERS) of the full-text statements the real recall code runs for one request,
    as `capture` records them."""
    [statements] = await capture(database_url, [(profile, question)])
    conn = await asyncpg.connect(database_url)
    try:
        print(f"\nEXPLAIN for profile user-{profile}, query {question!r}")
        for n, (statement, parameters) in enumerate(s for s in statements if "@@" in s[0]):
            plan = await conn.fetch("EXPLAIN (ANALYZE, BUFFERS) " + statement, *parameters)
            print(f"\n-- full-text statement {n + 1}; parameters: {parameters}")
            print(" ".join(statement.split()))
            print("\n".join(r[0] for r in plan))
    finally:
        await conn.close()


Statements = list[tuple[str, tuple[Any, ...]]]


async def capture(database_url: str, questions: list[tuple[int, str]]) -> list[Statements]:
    """The statements the real recall code sends for each question (asyncpg form: SQL and parameters),
    captured in-process through the ASGI app, to be replayed as the SQL floor."""
    import httpx
    from sqlalchemy import event

    from app.core.settings import Settings
    from app.main import create_app

    settings = Settings(database_url=database_url, admin_key=ADMIN_KEY, log_level="WARNING")
    app = create_app(settings, run_worker=False)
    captured: list[Statements] = []
    current: Statements = []
    async with app.router.lifespan_context(app):

        def record(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool) -> None:
            current.append((statement, tuple(parameters or ())))

        event.listen(app.state.engine.sync_engine, "before_cursor_execute", record)
        # Recall's own statements go straight to the driver's connection (app.recall.repository._fetch).
        original_fetch = asyncpg.Connection.fetch

        async def fetch(conn: asyncpg.Connection, query: str, *args: Any, **kwargs: Any) -> Any:
            current.append((query, tuple(args)))
            return await original_fetch(conn, query, *args, **kwargs)

        asyncpg.Connection.fetch = fetch
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://bench", headers={"Authorization": f"Bearer {ADMIN_KEY}"}
        ) as client:
            for profile, question in questions:
                current = []
                response = await client.post(_path(profile), json={"query": question})
                assert response.status_code == 200, response.text
                captured.append(current)
        asyncpg.Connection.fetch = original_fetch
    return captured


async def floor_one_client(database_url: str, recalls: list[Statements], warmup: int) -> dict[str, float]:
    """The captured statements replayed through one asyncpg connection, one recall after another: the
    database's share of a recall, with no HTTP, no framework and no ORM."""
    conn = await asyncpg.connect(database_url)
    latencies: list[float] = []
    try:
        for n, statements in enumerate(recalls):
            t0 = time.perf_counter()
            for sql, parameters in statements:
                await conn.fetch(sql, *parameters)
            if n >= warmup:
                latencies.append(time.perf_counter() - t0)
    finally:
        await conn.close()
    return {"p50": _ms(percentile(latencies, 50)), "p99": _ms(percentile(latencies, 99))}


async def floor_saturated(
    database_url: str, recalls: list[Statements], connections: int, seconds: float
) -> dict[str, float]:
    counter = 0
    done = 0

    async def loop(conn: asyncpg.Connection, until: float, count: bool) -> None:
        nonlocal counter, done
        while time.perf_counter() < until:
            statements = recalls[counter % len(recalls)]
            counter += 1
            for sql, parameters in statements:
                await conn.fetch(sql, *parameters)
            done += count

    conns = [await asyncpg.connect(database_url) for _ in range(connections)]
    try:
        await asyncio.gather(*(loop(c, time.perf_counter() + 2.0, False) for c in conns))  # warm-up
        started = time.perf_counter()
        await asyncio.gather(*(loop(c, started + seconds, True) for c in conns))
        return {"rps": done / (time.perf_counter() - started)}
    finally:
        for c in conns:
            await c.close()


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


async def measure_against_floor(database_url: str, key: str, args: argparse.Namespace) -> None:
    """Service and SQL floor in the same run, interleaved (service, floor, service, floor…), with the
    load average beside each figure: the machine is shared, so only ratios measured together count."""
    rng = random.Random(args.seed)
    questions = [
        (rng.randrange(args.profiles), recall_question(rng)) for _ in range(args.warmup + args.queries)
    ]
    recalls = await capture(database_url, questions)
    per_recall = statistics.fmean(len(r) for r in recalls)
    single: list[list[Any]] = []
    saturated_rows: list[list[Any]] = []
    workers = ["--workers", str(args.workers)] if args.workers else []
    async with harness.service(database_url, worker=False, extra_args=workers) as server:
        for run in range(args.rounds):
            service = await one_client(server.port, key, questions, args.warmup)
            load_service = _load()
            floor = await floor_one_client(database_url, recalls, args.warmup)
            load_floor = _load()
            single.append([run + 1, service["p50"], floor["p50"], service["p50"] / floor["p50"],
                           service["p99"], floor["p99"], f"{load_service} | {load_floor}"])  # fmt: skip
        for run in range(args.rounds):
            service_s = await saturated(server.port, key, questions, args.connections, args.seconds)
            load_service = _load()
            floor_s = await floor_saturated(database_url, recalls, args.connections, args.seconds)
            load_floor = _load()
            saturated_rows.append([run + 1, service_s["rps"], floor_s["rps"], service_s["rps"] / floor_s["rps"],
                                   int(service_s["errors"]), f"{load_service} | {load_floor}"])  # fmt: skip
    print_table(
        f"recall, one client, service vs its SQL floor ({per_recall:.1f} statements a recall through asyncpg), "
        f"{args.queries} questions after {args.warmup} warm-up (target: service p50 ≤ 1.3 × floor)",
        [
            "run",
            "service p50 ms",
            "floor p50 ms",
            "ratio",
            "service p99 ms",
            "floor p99 ms",
            "load 1/5/15 min",
        ],
        single,
    )
    print_table(
        f"recall, saturated, {args.connections} connections, {args.seconds:g}s each (target ≥ 400 requests/s)",
        ["run", "service req/s", "floor req/s", "service / floor", "errors", "load 1/5/15 min"],
        saturated_rows,
    )


async def lexical_against_default(
    database_url: str, key: str, asked: list[tuple[int, str]], args: argparse.Namespace
) -> None:
    """One client, the default settings (semantic channel on) and `AGENT_MEMORY_EMBEDDINGS=none`, each served
    by its own `serve` on the same data, interleaved run by run with the load average beside each."""
    rows: list[list[Any]] = []
    async with (
        harness.service(database_url, worker=False) as default,
        harness.service(database_url, worker=False, env={"AGENT_MEMORY_EMBEDDINGS": "none"}) as lexical,
    ):
        for run in range(args.rounds):
            for name, server in (("default (semantic on)", default), ("embeddings none", lexical)):
                one = await one_client(server.port, key, asked, args.warmup)
                rows.append(
                    [run + 1, name, one["p50"], one["p90"], one["p99"], one["mean"], harness.load_average()]
                )
    print_table(
        f"recall, one client, {args.queries} questions after {args.warmup} warm-up: default settings against "
        "embeddings none, interleaved",
        ["run", "settings", "p50 ms", "p90 ms", "p99 ms", "mean ms", "load 1/5/15 min"],
        rows,
    )


def query_embedding(questions: list[str]) -> None:
    """The default model's cost for each question, embedded as recall embeds it (an e5 query, one thread),
    in this process: wall and CPU (this thread's) time."""
    from app.embeddings.e5 import shared_model

    model = shared_model()
    for question in questions[:20]:  # warm-up
        model.query(question)
    wall: list[float] = []
    cpu: list[float] = []
    for question in questions:
        t0, c0 = time.perf_counter(), time.thread_time()
        model.query(question)
        cpu.append(time.thread_time() - c0)
        wall.append(time.perf_counter() - t0)
    tokens = statistics.median(model.token_count(q, True) for q in questions)
    print_table(
        f"the question's embedding alone (default model, one thread), {len(questions)} questions "
        f"({len(set(questions))} distinct, median {tokens:g} tokens); load {_load()}",
        ["wall p50 ms", "wall p99 ms", "CPU p50 ms", "CPU p99 ms"],
        [
            [
                _ms(percentile(wall, 50)),
                _ms(percentile(wall, 99)),
                _ms(percentile(cpu, 50)),
                _ms(percentile(cpu, 99)),
            ]
        ],
    )


async def measure(database_url: str, key: str, args: argparse.Namespace) -> None:
    if not RECALL_REPOSITORY.exists():
        print(
            f"\nrecall is not implemented yet ({RECALL_REPOSITORY.relative_to(ROOT)} does not exist): "
            "the data is loaded, but there is nothing to measure. Rerun with --keep, then --reuse-db."
        )
        return
    rng = random.Random(args.seed)
    questions = [(rng.randrange(args.profiles), recall_question(rng)) for _ in range(20_000)]
    asked = questions[: args.warmup + args.queries]
    query_embedding([question for _, question in asked])
    if args.lexical:
        await lexical_against_default(database_url, key, asked, args)
    async with harness.service(database_url, worker=False) as server:
        single = await one_client(server.port, key, asked, args.warmup)
        print_table(
            f"recall, one client: {int(single['n'])} questions over random profiles after {args.warmup} "
            "warm-up, default thinkingLevel and settings (target p50 ≤ 25 ms, p99 ≤ 60 ms with the semantic "
            f"channel on, the question's embedding included); load {_load()}",
            ["p50 ms", "p90 ms", "p99 ms", "mean ms", "answers with 0 candidates"],
            [[single["p50"], single["p90"], single["p99"], single["mean"], f"{single['empty']:.0%}"]],
        )
        per_level: list[list[Any]] = []
        for level in [x for x in args.levels.split(",") if x]:
            one = await one_client(
                server.port, key, questions[: args.warmup + args.queries], args.warmup, level
            )
            per_level.append([level, one["p50"], one["p90"], one["p99"], one["mean"]])
        if per_level:
            print_table(
                "recall, one client, per thinkingLevel (same questions)",
                ["level", "p50 ms", "p90 ms", "p99 ms", "mean ms"],
                per_level,
            )
        rows: list[list[Any]] = []
        for run in range(args.rounds):
            offset = (run + 1) * 5000 % len(questions)
            result = await saturated(
                server.port, key, questions[offset:] + questions[:offset], args.connections, args.seconds
            )
            rows.append(
                [
                    run + 1,
                    result["rps"],
                    int(result["n"]),
                    int(result["errors"]),
                    result["p50"],
                    result["p99"],
                ]
            )
        rows.append(["median", statistics.median(r[1] for r in rows), "", "", "", ""])
        print_table(
            f"recall, saturated: {args.connections} connections, {args.seconds:g}s per run (target ≥ 400 requests/s)",
            ["run", "requests/s", "requests", "errors", "p50 ms", "p99 ms"],
            rows,
        )
    await explain(database_url, questions[0][0], questions[0][1])


async def run(args: argparse.Namespace) -> None:
    print(f"agent-memory recall benchmark — {time.strftime('%Y-%m-%d %H:%M:%S')}")
    if args.reuse_db:
        url = with_database(args.database_url, args.reuse_db)
        async with harness.service(url, worker=False) as server:
            key = await scoped_key(server.base_url, NAMESPACE)
        conn = await asyncpg.connect(url)
        try:
            args.profiles = await conn.fetchval("SELECT count(*) FROM profiles WHERE deleted_at IS NULL")
            total = await conn.fetchval("SELECT count(*) FROM memories")
        finally:
            await conn.close()
        print(f"reusing database {args.reuse_db}: {args.profiles:,} profiles, {total:,} memories")
        if args.vectors == "synthetic":
            await load_vectors(url, args.seed)
            conn = await asyncpg.connect(url)
            await conn.execute("VACUUM (ANALYZE) memory_embeddings")
            await conn.close()
        if args.load_only:
            return
        await (measure_against_floor if args.floor else measure)(url, key, args)
        return
    async with fresh_database(args.database_url, "bench_recall", keep=args.keep) as url:
        holder: dict[str, str] = {}
        await load(url, args, holder)
        if not args.load_only:
            await (measure_against_floor if args.floor else measure)(url, holder["key"], args)


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__)
    parser.add_argument("--profiles", type=int, default=1000, help="profiles to load")
    parser.add_argument("--per-profile", type=int, default=1000, help="memories per profile")
    parser.add_argument("--session-size", type=int, default=100, help="memories per session")
    parser.add_argument("--replies", type=float, default=0.5, help="assistant replies per user message")
    parser.add_argument("--no-messages", action="store_true", help="load memories only (no source messages)")
    parser.add_argument("--load-connections", type=int, default=2, help="parallel COPY connections")
    parser.add_argument("--warmup", type=int, default=200, help="untimed questions before the one-client run")
    parser.add_argument("--queries", type=int, default=500, help="timed questions with one client")
    # The saturated runs: their connections, counted seconds and rounds; `serve --workers` (0: default).
    harness.load_flags(parser, connections=32, seconds=15, rounds=3, workers=0)
    parser.add_argument(
        "--levels",
        default="low,medium,high",
        help="thinkingLevels for the per-level one-client run ('' skips it)",
    )
    parser.add_argument("--seed", type=int, default=7, help="random seed of the generated data")
    parser.add_argument(
        "--vectors",
        choices=["synthetic", "none"],
        default="synthetic",
        help="synthetic: a random vector of the default model per memory (see above); none: no vectors",
    )
    parser.add_argument(
        "--lexical", action="store_true", help="also measure AGENT_MEMORY_EMBEDDINGS=none, interleaved"
    )
    parser.add_argument("--reuse-db", metavar="NAME", help="measure an already loaded (kept) database")
    parser.add_argument("--load-only", action="store_true", help="load (with --keep) and measure nothing")
    parser.add_argument(
        "--floor",
        action="store_true",
        help="measure the service against its SQL floor (the same statements through asyncpg), interleaved",
    )
    return harness.run_benchmark(parser, run, argv)
