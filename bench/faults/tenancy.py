"""Fault scenarios of many tenants on one server: probes, made-up keys and recall bursts against a working client.

Run: .venv/bin/python -m bench faults --only probes,recall-burst[,...] [--baseline-dir /work/main]
     [--burst-seconds 15] [--recall-concurrency 20,50] [--memories 2000]

- probes: a legitimate client recalls alone, then while 400 concurrent `/readyz` probes and 150 clients
  with made-up keys (each a new id: no cache can know it) run; its p95 in both, the statuses the probes and
  the made-up keys got, and every `TooManyConnections` in the server's log. The legitimate client runs in
  a process of its own (not on the event loop of the 550 others).
- recall-burst: a 2,000-memory profile, N concurrent recalls at `medium` (each client one keep-alive
  connection) with `/healthz` probed every 20 ms meanwhile: healthz p50/p99/max, recall statuses, and the
  slowest 503 against the pool's bound.
- fair-ingest: one namespace ingests 15 MB (500 messages of 30 KB, as 10 sessions: more extraction jobs than
  the worker's slots); a moment later another ingests a short conversation: how long the second's
  extraction job waited to start, beside what one of the noisy jobs takes (jobs seen by polling the table).

`--baseline-dir DIR` runs each scenario against `serve` from another checkout too (e.g. /work/main before a
change), interleaved with this one on the same throw-away cluster: figures side by side, the same load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import secrets
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
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
            # serve's worker child starts with `python -P` (its directory not on sys.path): another
            # checkout's worker is that checkout's only through PYTHONPATH.
            **({"PYTHONPATH": str(cwd)} if cwd != ROOT else {}),
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
    port: int, path: str, until: float, latencies: list[float], statuses: Counter[str], key: str = ADMIN_KEY
) -> None:
    client = LeanClient(port, key)
    rng = random.Random(11)
    try:
        while time.monotonic() < until:
            started = time.monotonic()
            status, _ = await client.request("POST", f"{path}/recall", {"query": recall_question(rng)})
            latencies.append(time.monotonic() - started)
            statuses[str(status)] += 1
    finally:
        await client.close()


def _legit_in_process(port: int, path: str, until: float, key: str) -> tuple[list[float], dict[str, int]]:
    latencies: list[float] = []
    statuses: Counter[str] = Counter()
    asyncio.run(_legit_loop(port, path, until, latencies, statuses, key))
    return latencies, dict(statuses)


async def _legit_elsewhere(port: int, path: str, until: float) -> tuple[list[float], Counter[str]]:
    """`_legit_loop` in a process of its own: a legitimate client does not share an event loop with the
    550 coroutines of the probers and guessers, whose turns would be counted as server time. (The
    monotonic clock is the system's: `until` means the same instant there.)"""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        latencies, statuses = await asyncio.get_running_loop().run_in_executor(
            pool,
            _legit_in_process,
            port,
            path,
            until,
            ADMIN_KEY,  # the key is made anew at each import
        )
    return latencies, Counter(statuses)


def _log_mentions(server: Server, needle: str) -> int:
    if server.log_path is None or not server.log_path.exists():
        return 0
    return server.log_path.read_text(errors="replace").count(needle)


async def probes(cluster: Cluster, cwd: Path, args: argparse.Namespace) -> dict[str, Any]:
    server, _ = await _server(cluster, cwd)
    try:
        await _populate(server.base_url, "probes", "p", 200)
        path = "/v1/namespaces/probes/profiles/p"
        alone, alone_status = await _legit_elsewhere(server.port, path, time.monotonic() + args.burst_seconds)
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

        legit = asyncio.ensure_future(_legit_elsewhere(server.port, path, until))
        await asyncio.gather(legit, *(prober() for _ in range(400)), *(impostor() for _ in range(150)))
        loaded, loaded_status = legit.result()
        p95_alone, p95_loaded = percentile(alone, 95), percentile(loaded, 95)
        return {
            "legit p95 alone ms": round(p95_alone * 1000),
            "legit p95 loaded ms": round(p95_loaded * 1000),
            "ratio": round(p95_loaded / p95_alone, 2),
            "legit statuses alone": dict(alone_status),
            "legit statuses": dict(loaded_status),
            "readyz": dict(readyz),
            "made-up keys": dict(fake),
            "TooManyConnections in log": _log_mentions(server, "TooManyConnections"),
            "load average": " ".join(f"{x:.1f}" for x in os.getloadavg()),
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


async def _watch_jobs(db: str, seen: dict[str, dict[str, float]], stop: asyncio.Event) -> None:
    """Every extraction job's first sight running and done, on this process's clock (polled every 50 ms):
    the jobs table keeps no claim time of its own."""
    conn = await asyncpg.connect(db)
    try:
        while not stop.is_set():
            now = time.monotonic()
            for row in await conn.fetch("SELECT id, status FROM jobs WHERE kind = 'extract'"):
                times = seen.setdefault(row["id"], {})
                if row["status"] in ("running", "done", "failed"):
                    times.setdefault("running", now)
                if row["status"] in ("done", "failed"):
                    times.setdefault("done", now)
            await asyncio.sleep(0.05)
    finally:
        await conn.close()


async def fair_ingest(cluster: Cluster, cwd: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The noisy namespace's 15 MB arrives as `--fair-sessions` ingests (one extraction job each: more jobs
    than the worker has slots, so who is served next matters); the quiet namespace's short conversation
    a moment later. Oldest first, it waits for about (sessions / slots) noisy jobs; in turns, for one."""
    server, db = await _server(cluster, cwd)
    seen: dict[str, dict[str, float]] = {}
    stop = asyncio.Event()
    watcher = asyncio.create_task(_watch_jobs(db, seen, stop))
    try:
        headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
        sentence = (
            "Yesterday I walked along the river with my sister Anna and we talked about moving to Lisbon next "
            "spring, the new job at the clinic, and the garden we want to plant with tomatoes and basil. "
        )
        content = (sentence * (30_000 // len(sentence) + 1))[:30_000]
        sessions = args.fair_sessions
        per_session = 500 // sessions
        async with httpx.AsyncClient(base_url=server.base_url, headers=headers, timeout=120) as client:
            for ns in ("noisy", "quiet"):
                assert (await client.post("/v1/namespaces", json={"name": ns})).status_code in (201, 409)
            noisy_ids = []
            for s in range(sessions):
                big = {
                    "sessionId": f"big-{s}",
                    "messages": [
                        {"role": "user", "content": f"{s}.{i}: {content}"} for i in range(per_session)
                    ],
                }
                r = await client.post("/v1/namespaces/noisy/profiles/p/ingest", json=big)
                assert r.status_code == 202, r.text
                noisy_ids.append(r.json()["jobId"])
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
            queued_at = time.monotonic()
            job_id = r.json()["jobId"]
            deadline = time.monotonic() + args.fair_seconds
            # Until the quiet job is done and enough noisy jobs ran whole to say what one job takes.
            while time.monotonic() < deadline:
                whole = [j for j in noisy_ids if "done" in seen.get(j, {})]
                if "done" in seen.get(job_id, {}) and len(whole) >= 4:
                    break
                await asyncio.sleep(0.2)
    finally:
        stop.set()
        await watcher
        server.stop()
    quiet = seen.get(job_id, {})
    if args.fair_timeline:
        for j in [*noisy_ids, job_id]:
            times = {k: round(v - queued_at, 2) for k, v in seen.get(j, {}).items()}
            print(json.dumps({"job": j, "quiet": j == job_id, **times}), flush=True)
    # Every noisy job seen start and finish (the watch began with the server: none started unseen).
    durations = [seen[j]["done"] - seen[j]["running"] for j in noisy_ids if "done" in seen.get(j, {})]
    waited = quiet["running"] - queued_at if "running" in quiet else None
    median_job = percentile(durations, 50) if durations else None
    return {
        "noisy ingests (jobs)": sessions,
        "messages per job": per_session,
        "quiet wait to start s": round(waited, 2) if waited is not None else None,
        "quiet ingest to done s": round(quiet["done"] - queued_at, 2) if "done" in quiet else None,
        "noisy jobs timed": len(durations),
        "noisy job s median/max": (
            f"{median_job:.1f}/{max(durations):.1f}" if durations and median_job is not None else None
        ),
        "wait / median job": round(waited / median_job, 2) if waited is not None and median_job else None,
        # Fairness itself: noisy jobs claimed after the quiet one was queued and before it (oldest first:
        # all the noisy jobs still queued; in turns: none, it takes the first slot that frees).
        "noisy jobs claimed ahead of it": sum(
            1
            for j in noisy_ids
            if "running" in seen.get(j, {})
            and "running" in quiet
            and queued_at < seen[j]["running"] < quiet["running"]
        ),
    }


SCENARIOS = {"probes": probes, "recall-burst": recall_burst, "fair-ingest": fair_ingest}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--baseline-dir", default=None, help="also serve from this checkout, interleaved")
    parser.add_argument("--burst-seconds", type=float, default=15.0)
    parser.add_argument("--recall-concurrency", default="20,50")
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--fair-seconds", type=float, default=600.0)
    parser.add_argument("--fair-timeline", action="store_true", help="print every job's start and end")
    parser.add_argument("--fair-sessions", type=int, default=10, help="the noisy 15 MB as this many ingests")
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
