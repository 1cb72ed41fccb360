"""Export and import rates (records/s) on a profile of N memories (default 100,000), through the HTTP API
with the same client code as `agent-memory export` / `import`.

Two throw-away databases, a server on each (no worker). The source profile is bulk-loaded with COPY:
N memories, one source message per memory (so N messages in N/500 sessions) and, for every tenth memory,
an archived version; then it is exported to a file, the file imported into the second server, and
imported again (the idempotent pass: every row already there). Load average printed beside the figures.

    .venv/bin/python -m bench transfer [--count 100000] [--runs 1]

Target (quality.md): export / import ≥ 5,000 records/s.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import io
import json
import random
import sys
import tempfile
import time
from datetime import UTC, datetime

import asyncpg
from rich.console import Console
from ulid import ULID

from app.transfer.client import export_to, import_from
from bench import harness
from bench.harness import ADMIN_KEY, fresh_database, print_table, scoped_key, service

NAMESPACE = "bench-transfer"
PROFILE = "transfer"
WORDS = [
    "lisbon",
    "fado",
    "train",
    "coffee",
    "budget",
    "review",
    "garden",
    "piano",
    "chess",
    "sailing",
    "river",
    "museum",
    "tea",
    "nurse",
]


async def load(base_url: str, key: str, database_url: str, count: int) -> int:
    """Bulk-load the source profile; returns the number of records an export of it holds."""
    profile_id = await harness.created_profile(base_url, key, database_url, NAMESPACE, PROFILE)
    conn = await asyncpg.connect(database_url)
    try:
        rng = random.Random(7)
        base = time.time() - count / 1000 - 3600
        sessions = [(profile_id, f"s{i}", f"s{i}") for i in range((count + 499) // 500)]
        messages, memories, sources, versions = [], [], [], []
        for i in range(count):
            text = " ".join(rng.choice(WORDS) for _ in range(12)) + f" [{i}]"
            message_id = hashlib.sha256(f"m{i}".encode()).hexdigest()[:32]
            session = f"s{i // 500}"
            parts = json.dumps([{"type": "text", "text": text}])
            messages.append((profile_id, message_id, session, "user", parts, text))
            memory_id = str(ULID.from_timestamp(base + i / 1000))
            content = f"User said: {text}"
            memories.append(
                (
                    profile_id,
                    memory_id,
                    "fact",
                    text[:120],
                    content,
                    session,
                    hashlib.sha256(content.encode()).hexdigest(),
                )
            )
            sources.append((profile_id, memory_id, message_id, session))
            if i % 10 == 0:
                versions.append((profile_id, memory_id, 0, "created", "fact", "earlier", "earlier", session))
        started = time.perf_counter()
        await conn.copy_records_to_table("sessions", records=sessions, columns=["profile_id", "id", "name"])
        await conn.copy_records_to_table(
            "messages",
            records=[(p, m, s, r, pt, t) for p, m, s, r, pt, t in messages],
            columns=["profile_id", "id", "session_id", "role", "parts", "text_content"],
        )
        await conn.copy_records_to_table(
            "memories",
            records=memories,
            columns=["profile_id", "id", "type", "summary", "content", "session_id", "content_hash"],
        )
        source_columns = ["profile_id", "memory_id", "message_id"]
        has_session = await conn.fetchval(
            "SELECT count(*) FROM information_schema.columns WHERE table_name = 'memory_sources' "
            "AND column_name = 'session_id'"
        )
        if has_session:
            source_columns.append("session_id")
        await conn.copy_records_to_table(
            "memory_sources", records=[r[: len(source_columns)] for r in sources], columns=source_columns
        )
        at = datetime.fromtimestamp(time.time() - 7200, UTC)
        await conn.copy_records_to_table(
            "memory_versions",
            records=[(*v[:7], v[7], at, at, at) for v in versions],
            columns=[
                "profile_id",
                "memory_id",
                "version",
                "change",
                "type",
                "summary",
                "content",
                "session_id",
                "created_at",
                "valid_from",
                "valid_to",
            ],  # fmt: skip
        )
        await conn.execute("ANALYZE")
        print(
            f"loaded {count:,} memories, {count:,} messages, {len(versions):,} versions in "
            f"{time.perf_counter() - started:.1f}s"
        )
    finally:
        await conn.close()
    return 1 + len(sessions) + 3 * count + len(versions)


async def run(args: argparse.Namespace) -> None:
    print(
        f"agent-memory export/import benchmark — {time.strftime('%Y-%m-%d %H:%M:%S')}, {args.count:,} memories"
    )
    quiet = Console(file=io.StringIO())
    rows = []
    async with (
        fresh_database(args.database_url, "bench_src", keep=args.keep) as source_url,
        service(source_url, worker=False) as source,
    ):
        key = await scoped_key(source.base_url, NAMESPACE)
        records = await load(source.base_url, key, source_url, args.count)
        for run in range(args.rounds):
            async with (
                fresh_database(args.database_url, "bench_dst", keep=args.keep) as target_url,
                service(target_url, worker=False) as target,
            ):
                target_key = await scoped_key(target.base_url, NAMESPACE)
                with tempfile.TemporaryFile() as file:
                    before = harness.load_average()
                    started = time.perf_counter()
                    exported = await asyncio.to_thread(
                        export_to, source.base_url, key, NAMESPACE, None, file, quiet
                    )
                    export_s = time.perf_counter() - started
                    assert exported.records == records, (exported.records, records)
                    size = file.tell()
                    file.seek(0)
                    started = time.perf_counter()
                    imported = await asyncio.to_thread(
                        import_from, target.base_url, target_key, NAMESPACE, file, size, quiet
                    )
                    import_s = time.perf_counter() - started
                    file.seek(0)
                    started = time.perf_counter()
                    again = await asyncio.to_thread(
                        import_from, target.base_url, target_key, NAMESPACE, file, size, quiet
                    )
                    again_s = time.perf_counter() - started
                    assert "0 new" in again.detail, again.detail
                    rows.append([
                        run + 1, records, f"{size / 1e6:.1f}", round(records / export_s), round(records / import_s),
                        round(records / again_s), f"{export_s:.1f}/{import_s:.1f}/{again_s:.1f}", before, harness.load_average(),
                    ])  # fmt: skip
                    print(imported.detail)
    print_table(
        "export → import → re-import over HTTP (target ≥ 5,000 records/s)",
        ["run", "records", "MB", "export rec/s", "import rec/s", "re-import rec/s", "seconds", "load before",
         "load after"],
        rows,
    )  # fmt: skip
    print(f"admin key of the run: {ADMIN_KEY[:18]}…  (python {sys.version.split()[0]})")


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__)
    parser.add_argument("--count", type=int, default=100_000, help="memories in the source profile")
    parser.add_argument(
        "--rounds", "--runs", type=int, default=1, help="export/import rounds (each into a new database)"
    )
    return harness.run_benchmark(parser, run, argv)
