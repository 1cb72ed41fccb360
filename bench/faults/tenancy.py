"""Fault scenarios of many tenants on one server: probes, made-up keys and recall bursts against a working client.

Run: .venv/bin/python -m bench faults --only probes,recall-burst[,...] [--baseline-dir /work/main]
     [--burst-seconds 15] [--recall-concurrency 20,50] [--memories 2000]

- probes: a legitimate client recalls and remembers alone, then while 400 concurrent `/readyz` probes and
  150 clients with made-up keys (each a new id: no cache can know it) run; its p95 in both, the statuses the
  probes and the made-up keys got, and every `TooManyConnections` in the server's log.
- recall-burst: a 2,000-memory profile, N concurrent recalls at `medium` (each client one keep-alive
  connection) with `/healthz` probed every 20 ms meanwhile: healthz p50/p99/max, recall statuses, and the
  slowest 503 against the pool's bound.
- fair-ingest: one namespace ingests 15 MB (500 messages of 30 KB); a moment later another ingests a short
  conversation: how long the second's extraction job waited to start, beside the longest single job's time.

`--baseline-dir DIR` runs each scenario against `serve` from another checkout too (e.g. /work/main before a
change), interleaved with this one on the same throw-away cluster: figures side by side, the same load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import secrets
import time
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from bench.common import LeanClient, memory_statement, percentile, recall_question
from bench.faults.cluster import Cluster
from bench.harness import ADMIN_KEY, ROOT, Server, create_database, service

POOL_TIMEOUT = "3"  # AGENT_MEMORY_DB_POOL_TIMEOUT_SECONDS's default, said out loud: 503s must come within it


def _ms(values: list[float], p: float) -> str:
    return f"{percentile(values, p) * 1000:.0f}" if values else "-"


async def _server(cluster: Cluster, cwd: Path, env: dict[str, str] | None = None) -> tuple[Server, str]:
    _, db = await create_database(cluster.url, "agent_memory_tenancy")
    server = service(
        db,
        env={
            "AGENT_MEMORY_EMBEDDINGS": "none",
            "AGENT_MEMORY_DB_POOL_TIMEOUT_SECONDS": POOL_TIMEOUT,
            **(env or {}),
        },
        cwd=cwd,
    )
    server.spawn()
    try:
        await server.ready(timeout=300)
    except BaseException:
        server.stop()  # never left running when it did not come up
        raise
    return server, db


async def _populate(base: str, ns: str, profile: str, count: int) -> None:
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=60) as client:
        r = await client.post("/v1/namespaces", json={"name": ns})
        assert r.status_code in (201, 409), r.text
        rng = random.Random(7)
        statements = [memory_statement(rng, i)[2] for i in range(count)]

        async def writer(part: list[str]) -> None:
            for content in part:
                r = await client.post(
                    f"/v1/namespaces/{ns}/profiles/{profile}/remember", json={"content": content}
                )
                assert r.status_code in (200, 201), r.text

        await asyncio.gather(*(writer(statements[w::8]) for w in range(8)))


async def _legit_loop(
    port: int, path: str, until: float, latencies: list[float], statuses: Counter[str]
) -> None:
    client = LeanClient(port, ADMIN_KEY)
    rng = random.Random(11)
    try:
        while time.monotonic() < until:
            started = time.monotonic()
            status, _ = await client.request("POST", f"{path}/recall", {"query": recall_question(rng)})
            latencies.append(time.monotonic() - started)
            statuses[str(status)] += 1
    finally:
        await client.close()


def _log_mentions(server: Server, needle: str) -> int:
    if server.log_path is None or not server.log_path.exists():
        return 0
    return server.log_path.read_text(errors="replace").count(needle)


async def probes(cluster: Cluster, cwd: Path, args: argparse.Namespace) -> dict[str, Any]:
    server, _ = await _server(cluster, cwd)
    try:
        await _populate(server.base_url, "probes", "p", 200)
        path = "/v1/namespaces/probes/profiles/p"
        alone: list[float] = []
        alone_status: Counter[str] = Counter()
        await _legit_loop(server.port, path, time.monotonic() + args.burst_seconds, alone, alone_status)

        loaded: list[float] = []
        loaded_status: Counter[str] = Counter()
        readyz: Counter[str] = Counter()
        fake: Counter[str] = Counter()
        until = time.monotonic() + args.burst_seconds

        async def prober() -> None:
            # A load balancer's health check: one /readyz a second, the 400 of them at once.
            client = LeanClient(server.port, None)
            try:
                while time.monotonic() < until:
                    tick = time.monotonic()
                    try:
                        status, _ = await asyncio.wait_for(client.request("GET", "/readyz"), 30)
                    except (OSError, asyncio.IncompleteReadError, TimeoutError):
                        readyz["no answer"] += 1
                        await client.close()
                        client = LeanClient(server.port, None)
                        continue
                    readyz[str(status)] += 1
                    await asyncio.sleep(max(0.0, tick + 1.0 - time.monotonic()))
            finally:
                await client.close()

        async def impostor() -> None:
            # A client trying keys as fast as it is answered, each a new made-up one.
            client = LeanClient(server.port, None)
            try:
                while time.monotonic() < until:
                    client.use_key(f"amk_{secrets.token_hex(6)}_{secrets.token_hex(24)}")
                    try:
                        status, _ = await asyncio.wait_for(client.request("GET", f"{path}/memories"), 30)
                        fake[str(status)] += 1
                    except (OSError, asyncio.IncompleteReadError, TimeoutError):
                        fake["no answer"] += 1
                        await client.close()
                        client = LeanClient(server.port, None)
            finally:
                await client.close()

        await asyncio.gather(
            _legit_loop(server.port, path, until, loaded, loaded_status),
            *(prober() for _ in range(400)),
            *(impostor() for _ in range(150)),
        )
        p95_alone, p95_loaded = percentile(alone, 95), percentile(loaded, 95)
        return {
            "legit p95 alone ms": round(p95_alone * 1000),
            "legit p95 loaded ms": round(p95_loaded * 1000),
            "ratio": round(p95_loaded / p95_alone, 2),
            "legit statuses": dict(loaded_status),
            "readyz": dict(readyz),
            "made-up keys": dict(fake),
            "TooManyConnections in log": _log_mentions(server, "TooManyConnections"),
        }
    finally:
        server.stop()


async def _burst(server: Server, path: str, concurrency: int, seconds: float) -> dict[str, Any]:
    """`concurrency` clients recalling for `seconds`, /healthz probed every 20 ms meanwhile."""
    clients = [LeanClient(server.port, ADMIN_KEY) for _ in range(concurrency)]
    await asyncio.gather(*(c.connect() for c in clients))
    until = time.monotonic() + seconds
    recalls: dict[str, list[float]] = {}
    health: list[float] = []

    async def recaller(client: LeanClient, seed: int) -> None:
        rng = random.Random(seed)
        while time.monotonic() < until:
            started = time.monotonic()
            body = {"query": recall_question(rng), "thinkingLevel": "medium"}
            try:
                status, _ = await asyncio.wait_for(client.request("POST", path, body), 60)
                key = str(status)
            except (OSError, asyncio.IncompleteReadError, TimeoutError):
                key = "no answer"
            recalls.setdefault(key, []).append(time.monotonic() - started)

    async def prober() -> None:
        client = LeanClient(server.port, None)
        try:
            while time.monotonic() < until:
                started = time.monotonic()
                await client.request("GET", "/healthz")
                health.append(time.monotonic() - started)
                await asyncio.sleep(0.02)
        finally:
            await client.close()

    await asyncio.gather(prober(), *(recaller(c, i) for i, c in enumerate(clients)))
    await asyncio.gather(*(c.close() for c in clients))
    ok = recalls.get("200", [])
    shed = recalls.get("503", [])
    return {
        "recalls": {k: len(v) for k, v in recalls.items()},
        "recall p50/p95 ms": f"{_ms(ok, 50)}/{_ms(ok, 95)}",
        "slowest 503 s": round(max(shed), 2) if shed else None,
        "healthz p50/p99/max ms": f"{_ms(health, 50)}/{_ms(health, 99)}/{_ms(health, 100)}",
        "healthz probes": len(health),
    }


async def recall_burst(cluster: Cluster, cwd: Path, args: argparse.Namespace) -> dict[str, Any]:
    slots = {"AGENT_MEMORY_RECALL_SLOTS": args.recall_slots} if args.recall_slots and cwd == ROOT else {}
    server, _ = await _server(cluster, cwd, slots)
    try:
        await _populate(server.base_url, "burst", "p", args.memories)
        path = "/v1/namespaces/burst/profiles/p/recall"
        return {
            f"{c} concurrent": await _burst(server, path, int(c), args.burst_seconds)
            for c in args.recall_concurrency.split(",")
        }
    finally:
        server.stop()


async def fair_ingest(cluster: Cluster, cwd: Path, args: argparse.Namespace) -> dict[str, Any]:
    server, db = await _server(cluster, cwd)
    try:
        headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
        sentence = (
            "Yesterday I walked along the river with my sister Anna and we talked about moving to Lisbon next "
            "spring, the new job at the clinic, and the garden we want to plant with tomatoes and basil. "
        )
        content = (sentence * (30_000 // len(sentence) + 1))[:30_000]
        async with httpx.AsyncClient(base_url=server.base_url, headers=headers, timeout=120) as client:
            for ns in ("noisy", "quiet"):
                assert (await client.post("/v1/namespaces", json={"name": ns})).status_code in (201, 409)
            big = {
                "sessionId": "big",
                "messages": [{"role": "user", "content": f"{i}: {content}"} for i in range(500)],
            }
            r = await client.post("/v1/namespaces/noisy/profiles/p/ingest", json=big)
            assert r.status_code == 202, r.text
            await asyncio.sleep(2.0)  # the noisy namespace's jobs are running
            small = {
                "sessionId": "short",
                "messages": [
                    {"role": "user", "content": "I moved to Porto last month and I work at the harbour."},
                    {"role": "assistant", "content": "Nice! How do you like Porto?"},
                    {
                        "role": "user",
                        "content": "I love it, and my daughter Inês starts school there in May.",
                    },
                ],
            }
            r = await client.post("/v1/namespaces/quiet/profiles/p/ingest", json=small)
            assert r.status_code == 202, r.text
            job_id = r.json()["jobId"]
            deadline = time.monotonic() + args.fair_seconds
            while time.monotonic() < deadline:
                job = (await client.get(f"/v1/namespaces/quiet/profiles/p/jobs/{job_id}")).json()
                if job["status"] in ("done", "failed"):
                    break
                await asyncio.sleep(0.2)
        conn = await asyncpg.connect(db)
        try:
            quiet = await conn.fetchrow(
                "SELECT extract(epoch FROM finished_at - created_at) AS waited, status FROM jobs WHERE id = $1",
                job_id,
            )
            # The noisy namespace's jobs: how many, and the mean time one took (two run at a time).
            noisy = await conn.fetchrow(
                "SELECT count(*) AS jobs, extract(epoch FROM max(finished_at) - min(created_at)) AS span "
                "FROM jobs WHERE id <> $1 AND kind = 'extract' AND status = 'done'",
                job_id,
            )
        finally:
            await conn.close()
        per_job = float(noisy["span"]) * 2 / noisy["jobs"] if noisy and noisy["jobs"] else None
        return {
            "quiet job": quiet["status"] if quiet else None,
            "quiet ingest to done s": round(float(quiet["waited"]), 2) if quiet and quiet["waited"] else None,
            "noisy jobs done": noisy["jobs"] if noisy else 0,
            "noisy mean job s": round(per_job, 2) if per_job else None,
        }
    finally:
        server.stop()


SCENARIOS = {"probes": probes, "recall-burst": recall_burst, "fair-ingest": fair_ingest}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--baseline-dir", default=None, help="also serve from this checkout, interleaved")
    parser.add_argument("--burst-seconds", type=float, default=15.0)
    parser.add_argument("--recall-concurrency", default="20,50")
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--fair-seconds", type=float, default=300.0)
    parser.add_argument("--recall-slots", default=None, help="AGENT_MEMORY_RECALL_SLOTS for this checkout")


async def run_tenancy(chosen: list[str], args: argparse.Namespace) -> None:
    """Each chosen scenario on a throw-away cluster, this checkout and (with --baseline-dir) the baseline in
    turn; one JSON line per run."""
    checkouts = [("this", ROOT)]
    if args.baseline_dir:
        checkouts.append(("baseline", Path(args.baseline_dir)))
    for name, scenario in SCENARIOS.items():
        if name not in chosen:
            continue
        for label, cwd in checkouts:
            cluster = Cluster()
            cluster.start()
            try:
                with contextlib.suppress(KeyboardInterrupt):
                    figures = await scenario(cluster, cwd, args)
                    print(json.dumps({"scenario": name, "checkout": label, **figures}), flush=True)
            finally:
                cluster.stop()
