"""Extraction through the service by message size: short chat turns against ~11 KB messages.

Run: .venv/bin/python -m bench extraction-service [--short 2400] [--large 300] [--timeout 600]

For each size: a fresh database on the local PostgreSQL, `agent-memory serve --no-worker` taking the
messages through `POST /ingest` (100 per request, as agents batch them), then one `agent-memory worker`
process (the one `serve` would start) timed from its first claim until the extraction queue is empty, so
the figure includes the job SQL, storing memories and their sources; then until the embedding jobs extraction
queued are done too (the semantic channel is on by default): messages/s with embedding, and the embedding
backlog's drain time after extraction finished. Prints messages/s and KB/s: the cost
is linear in the text when KB/s is about the same for both sizes (short turns carry a fixed per-message
cost on top, so their KB/s is lower). `python -m bench extraction-sizes` is the extractor alone.
"""

from __future__ import annotations

import argparse

import httpx

from bench import harness
from bench.bench_extraction_sizes import messages
from bench.bench_memory_core import bench_extraction
from bench.harness import ADMIN_KEY, fresh_database, print_table, service

PER_REQUEST = 100


async def ingest(base_url: str, count: int, size: int | None) -> float:
    """Ingest `count` messages into sessions of 300; returns their mean size in KB."""
    batch = messages(count, size)
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    async with httpx.AsyncClient(base_url=base_url, headers=headers, timeout=120) as client:
        created = await client.post("/v1/namespaces", json={"name": "sizes"})
        assert created.status_code == 201, created.text
        for start in range(0, count, PER_REQUEST):
            body = {
                "sessionId": f"s{start // 300}",
                "messages": [
                    # Numbered: the turns repeat, and a session stores a repeated message once.
                    {"role": m.role, "content": f"({i}) {m.content}", "timestamp": m.timestamp.isoformat()}
                    for i, m in enumerate(batch[start : start + PER_REQUEST], start)
                ],
            }
            response = await client.post("/v1/namespaces/sizes/profiles/p/ingest", json=body)
            assert response.status_code == 202, response.text
    return sum(len(m.content.encode()) for m in batch) / count / 1024


async def run(args: argparse.Namespace) -> None:
    rows = []
    for label, count, size in (("short", args.short, None), ("11 KB", args.large, 11_000)):
        if not count:
            continue
        async with fresh_database(args.database_url, "bench_sizes", keep=args.keep) as url:
            async with service(url, worker=False) as server:
                kb = await ingest(server.base_url, count, size)
            result = await bench_extraction(url, args.timeout)
        per_s = result["per_s"]
        rows.append(
            [
                label,
                int(result["messages"]),
                round(kb, 2),
                round(result["seconds_working"], 1),
                round(per_s, 1),
            ]
            + [round(per_s * kb, 1), int(result["memories"]), int(result["failed"])]
            + [
                int(result["vectors"]),
                round(result["per_s_with_embedding"], 1),
                round(result["drain_seconds"], 1),
            ]
        )
    print_table(
        "Extraction through the service (one worker process, default extractor)",
        [
            "messages",
            "count",
            "avg KB",
            "seconds",
            "msg/s",
            "KB/s",
            "memories",
            "failed",
            "vectors",
            "msg/s with embedding",
            "embedding drain s",
        ],  # fmt: skip
        rows,
    )
    print("load average:", harness.load_average())


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__)
    parser.add_argument("--short", type=int, default=2400)
    parser.add_argument("--large", type=int, default=300)
    parser.add_argument("--timeout", type=float, default=600.0)
    return harness.run_benchmark(parser, run, argv)
