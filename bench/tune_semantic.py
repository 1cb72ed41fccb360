"""Sweep of the semantic channel on a LoCoMo-layout dev set: ingest once, then ask every question with the
channel off and at several weights (and, optionally, several embedding inputs), in one run.

The app runs in-process with the local embedder (`AGENT_MEMORY_EMBEDDINGS=local`) and its own worker; each
configuration swaps the app's `Semantic` (off = None, exactly the default path) and asks again, so all rows
share the same memories. It prints one table per input mode (weights as rows) plus the cost of the local
embedder per memory (the embed jobs) and per query (the recall latency with and without the channel).
Use it for development sets only: public benchmark data is held out.

    .venv/bin/python -m bench tune-semantic --database-url postgresql://postgres@127.0.0.1:5432/postgres \\
        --weights 0.3,0.5,0.8 --inputs memory,source,context
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from typing import Any

from sqlalchemy import text

from bench import eval_retrieval as ev
from bench import harness
from bench.locomo import aggregate, format_table, load_samples, ranked_turns


async def run(args: argparse.Namespace) -> int:
    import httpx

    from app.embeddings.job import enqueue_embedding
    from app.embeddings.service import Semantic
    from app.main import create_app
    from app.worker.runner import Worker
    from tests.conftest import make_settings

    name, url = await harness.create_database(args.database_url, "tune")
    settings = make_settings(url, embeddings="local", log_level="WARNING", admin_key=None)
    app = create_app(settings, run_worker=False)
    samples = load_samples(args.data, args.limit_samples)
    print(f"data {args.data}; load {os.getloadavg()}", flush=True)
    async with app.router.lifespan_context(app):
        # An in-process worker sharing the app's Semantic, so switching the input mode reaches both.
        worker = Worker(settings, app.state.sessionmaker, url, name="tune")
        worker.context.cache["semantic"] = app.state.semantic
        await worker.start()
        client = ev.AgentMemoryClient("http://eval", None, 8, 120)
        await client.http.aclose()
        client.http = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://eval", timeout=600
        )
        ns = "tune"
        await ev.ensure_namespace(client, ns)
        jobs = {ev.profile_name(s): await ev.ingest_sample(client, ns, s) for s in samples}
        await ev.wait_jobs(client, ns, jobs, 1800)
        await ev.wait_profiles_idle(client, ns, list(jobs), 1800)
        semantic: Semantic = app.state.semantic
        profile_ids: dict[str, int] = {}
        async with app.state.sessionmaker() as db:
            for name in jobs:
                profile_ids[name] = (
                    await db.execute(
                        text(
                            "SELECT p.id FROM profiles p JOIN namespaces n ON n.id = p.namespace_id "
                            "WHERE n.name = :ns AND p.name = :p"
                        ),
                        {"ns": ns, "p": name},
                    )
                ).scalar_one()
            memories = (await db.execute(text("SELECT count(*) FROM memories"))).scalar_one()

        async def embed_all(mode: str) -> float:
            semantic.input_mode = mode
            semantic.model = f"{semantic.embedder.name}|{mode}"
            async with app.state.sessionmaker() as db:  # embed from scratch, to time it
                await db.execute(
                    text("DELETE FROM memory_embeddings WHERE model = :m"), {"m": semantic.model}
                )
                await db.commit()
            t = time.perf_counter()
            async with app.state.sessionmaker() as db:
                for pid in profile_ids.values():
                    await enqueue_embedding(db, pid)
                await db.commit()
            await ev.wait_profiles_idle(client, ns, list(jobs), 1800)
            return time.perf_counter() - t

        async def ask_all() -> tuple[dict[str, Any], list[float]]:
            rows: list[tuple[int, dict[str, float]]] = []
            latencies: list[float] = []
            for sample in samples:
                base = f"/v1/namespaces/{ns}/profiles/{ev.profile_name(sample)}"
                turn_map = ev.TurnMap(sample.turns)
                cache: dict[str, list[str]] = {}
                for qa in sample.scored_questions():
                    body = {
                        "query": qa.question,
                        "thinkingLevel": args.thinking_level,
                        "limit": 10,
                        "referenceDate": ev._iso(sample.last_date),
                    }
                    t = time.perf_counter()
                    r = await client.request("POST", f"{base}/recall", json=body)
                    latencies.append(time.perf_counter() - t)
                    lists = []
                    for c in r.get("candidates") or []:
                        if c["id"] not in cache:
                            mem = await client.request("GET", f"{base}/memories/{c['id']}")
                            cache[c["id"]] = turn_map.turns_of(mem)[0]
                        lists.append(cache[c["id"]])
                    rows.append((qa.category, ev._score(sample, qa, ranked_turns(lists, 10)).metrics))
            return aggregate(rows), latencies

        def ms(values: list[float]) -> str:
            return f"p50 {1000 * statistics.median(values):.1f} ms"

        app.state.semantic = None
        off, off_lat = await ask_all()
        print(f"memories: {memories}; recall without the channel: {ms(off_lat)}", flush=True)
        for mode in args.inputs.split(","):
            seconds = await embed_all(mode)
            print(
                f"\n== input {mode}: embedded {memories} memories in {seconds:.1f}s "
                f"({1000 * seconds / max(memories, 1):.1f} ms/memory, jobs included); "
                f"load {os.getloadavg()}",
                flush=True,
            )
            table: dict[str, Any] = {"off": off}
            for weight in [float(w) for w in args.weights.split(",")]:
                semantic.weight = weight
                app.state.semantic = semantic
                table[f"w={weight:g}"], lat = await ask_all()
                app.state.semantic = None
                print(f"  w={weight:g}: recall {ms(lat)}", flush=True)
            print(format_table(table), end="", flush=True)
        await client.close()
        await worker.stop()
    if not args.keep:
        await harness.drop_database(args.database_url, name)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__, json_output=False)
    p.add_argument("--data", default=str(ev.DEFAULT_DATA))
    p.add_argument("--limit-samples", type=int, default=None)
    p.add_argument("--weights", default="0.3,0.5,0.8")
    p.add_argument("--inputs", default="memory")
    p.add_argument("--thinking-level", default="medium", choices=["low", "medium", "high"])
    return asyncio.run(run(p.parse_args(argv)))
