"""Read replicas: what routing recall to a replica costs, and what the consistency token costs a write.

Run: .venv/bin/python -m bench replicas [--rounds 3] [--seconds 5] [--connections 16] [--memories 500]

Two throw-away clusters on loopback (bench/faults/cluster.py): a primary and a hot standby made from it
with pg_basebackup. Two `agent-memory serve --no-worker --workers 1` processes on the primary's database,
lexical recall (AGENT_MEMORY_EMBEDDINGS=none): A with no replica (every read the primary's, no token), B
with AGENT_MEMORY_READ_DATABASE_URLS naming the standby (recall routed there; every write answers a
token). Each round measures, for --seconds at --connections keep-alive connections (a warm-up second
first), in alternating order: recall on A; recall on B without a token (served by the replica); recall on
B with a token the replica has replayed (served by the replica, after the check); recall on B with a token
no replica has reached (B's routing, then the primary: what routing costs apart from the replica's own
PostgreSQL); remember on A; remember on B (one more statement per write: the primary's WAL position for the token). Printed: requests/s and
p50 / p99 latency of each, the medians over rounds, B / A ratios, where B's recalls went (/metrics), and
the load average.

Both clusters share this machine's cores with the servers and the load generator: a replica here adds no
capacity, so the recall figures say what routing costs (a check of the replica's position per request,
another pool), not what a replica on its own machine would add.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import time
from dataclasses import dataclass, field

import httpx

from bench import harness
from bench.common import LeanClient, percentile
from bench.faults.cluster import Cluster
from bench.harness import ADMIN_KEY, Server, print_table, service

HEADER = "Agent-Memory-Consistency"
QUESTIONS = ["Where do the bees live?", "What did I plant in May?", "Who is my sister?", "When is the trip?"]


@dataclass
class Figure:
    per_s: list[float] = field(default_factory=list)
    p50: list[float] = field(default_factory=list)
    p99: list[float] = field(default_factory=list)
    errors: int = 0


async def measure(
    server: Server, path: str, body: object, seconds: float, connections: int, headers: dict[str, str]
) -> tuple[float, float, float, int]:
    """(requests/s, p50 ms, p99 ms, non-2xx) of `connections` clients sending this request for `seconds`."""
    clients = [LeanClient(server.port, ADMIN_KEY, headers) for _ in range(connections)]
    await asyncio.gather(*(c.connect() for c in clients))
    latencies: list[float] = []
    errors = 0

    async def run(c: LeanClient, until: float, record: bool) -> None:
        nonlocal errors
        i = 0
        while time.monotonic() < until:
            i += 1
            payload = body(i) if callable(body) else body
            started = time.perf_counter()
            status, _ = await c.request("POST", path, payload)
            if record:
                latencies.append(time.perf_counter() - started)
                errors += status >= 300

    await asyncio.gather(*(run(c, time.monotonic() + 1.0, False) for c in clients))  # warm-up
    started = time.monotonic()
    await asyncio.gather(*(run(c, started + seconds, True) for c in clients))
    elapsed = time.monotonic() - started
    await asyncio.gather(*(c.close() for c in clients))
    return (
        len(latencies) / elapsed,
        percentile(latencies, 50) * 1000,
        percentile(latencies, 99) * 1000,
        errors,
    )


async def routing(server: Server) -> dict[str, float]:
    async with httpx.AsyncClient(base_url=server.base_url) as client:
        text = (await client.get("/metrics")).text
    found: dict[str, float] = {}
    for labels, value in re.findall(r"agent_memory_read_routing_total\{([^}]*)\} (\S+)", text):
        named = dict(re.findall(r'(\w+)="(\w+)"', labels))
        found[f"{named['target']}/{named['reason']}"] = float(value)
    return found


async def seed(server: Server, memories: int) -> None:
    """The recall profile's memories, written through A."""
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    async with httpx.AsyncClient(base_url=server.base_url, headers=headers, timeout=60) as client:
        await client.post("/v1/namespaces", json={"name": "replicas"})
        topics = ["bees on the roof", "tomatoes in May", "my sister Anna", "the trip to Lisbon", "the cello"]
        sem = asyncio.Semaphore(16)

        async def one(i: int) -> None:
            async with sem:
                r = await client.post(
                    "/v1/namespaces/replicas/profiles/r/remember",
                    json={"content": f"Note {i}: something about {topics[i % len(topics)]} ({i})."},
                )
                assert r.status_code == 201, r.text

        await asyncio.gather(*(one(i) for i in range(memories)))


async def token_from(server: Server) -> str:
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    async with httpx.AsyncClient(base_url=server.base_url, headers=headers, timeout=60) as client:
        r = await client.post(
            "/v1/namespaces/replicas/profiles/w/remember", json={"content": "A token, please."}
        )
        assert r.status_code == 201 and HEADER.lower() in r.headers, r.headers
        token = r.headers[HEADER]
        # Until the replica has replayed it: a recall with it is then the replica's.
        for _ in range(200):
            before = await routing(server)
            await client.post(
                "/v1/namespaces/replicas/profiles/r/recall", json={"query": "x"}, headers={HEADER: token}
            )
            if (await routing(server)).get("replica/ok", 0) > before.get("replica/ok", 0):
                return token
            await asyncio.sleep(0.05)
    raise RuntimeError("the replica never replayed the token's write")


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__, database=False)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--memories", type=int, default=500)
    return harness.run_benchmark(parser, run, argv)


async def run(args: argparse.Namespace) -> None:
    primary, replica = Cluster(), Cluster()
    servers: list[Server] = []
    try:
        primary.start()
        _, db = await harness.create_database(primary.url, "agent_memory", exact=True)
        replica.start_replica_of(primary)
        env = {"AGENT_MEMORY_EMBEDDINGS": "none"}
        a = service(db, worker=False, extra_args=("--workers", "1"), env=env)
        b = service(
            db,
            worker=False,
            extra_args=("--workers", "1"),
            env={**env, "AGENT_MEMORY_READ_DATABASE_URLS": replica.database_url("agent_memory")},
        )
        servers = [a, b]
        for s in servers:
            s.spawn()
        await asyncio.gather(*(s.ready(timeout=300) for s in servers))
        await seed(a, args.memories)
        token = await token_from(b)
        print(f"seeded {args.memories} memories; load average {harness.load_average()}", flush=True)

        recall = "/v1/namespaces/replicas/profiles/r/recall"
        remember = "/v1/namespaces/replicas/profiles/w/remember"

        def question(i: int) -> dict[str, object]:
            return {"query": QUESTIONS[i % len(QUESTIONS)]}

        def statement(i: int) -> dict[str, object]:
            return {"content": f"Written {time.monotonic_ns()}-{i}: the kettle is in cupboard {i}."}

        cases: dict[str, tuple[Server, str, object, dict[str, str]]] = {
            "recall, A (primary, no replica)": (a, recall, question, {}),
            "recall, B (replica, no token)": (b, recall, question, {}),
            "recall, B (replica, with a token)": (b, recall, question, {HEADER: token}),
            # A token no replica has reached: B's routing, then the primary, as A reads it.
            "recall, B (primary, token ahead)": (b, recall, question, {HEADER: "v1.ffffffffffffff"}),
            "remember, A (no token)": (a, remember, statement, {}),
            "remember, B (answers a token)": (b, remember, statement, {}),
        }
        figures = {name: Figure() for name in cases}
        loads: list[float] = []
        before = await routing(b)
        for r in range(args.rounds):
            order = list(cases) if r % 2 == 0 else list(reversed(cases))
            for name in order:
                server, path, body, headers = cases[name]
                per_s, p50, p99, errors = await measure(
                    server, path, body, args.seconds, args.connections, headers
                )
                f = figures[name]
                f.per_s.append(per_s)
                f.p50.append(p50)
                f.p99.append(p99)
                f.errors += errors
                loads.append(os.getloadavg()[0])
                print(f"round {r + 1}: {name}: {per_s:,.0f}/s p50 {p50:.2f} ms p99 {p99:.2f} ms", flush=True)
        after = await routing(b)
    finally:
        for s in servers:
            s.stop()
        replica.stop()
        primary.stop()

    def median(values: list[float]) -> float:
        return statistics.median(values)

    rows = [
        [name, f"{median(f.per_s):,.0f}", f"{median(f.p50):.2f}", f"{median(f.p99):.2f}", f.errors]
        for name, f in figures.items()
    ]
    print_table(
        f"Medians of {args.rounds} rounds × {args.seconds:g}s at {args.connections} connections",
        ["case", "requests/s", "p50 ms", "p99 ms", "non-2xx"],
        rows,
    )
    base_recall = median(figures["recall, A (primary, no replica)"].per_s)
    base_write = median(figures["remember, A (no token)"].per_s)
    print(
        f"recall B/A, no token:   {median(figures['recall, B (replica, no token)'].per_s) / base_recall:.2f}"
    )
    print(
        f"recall B/A, with token: {median(figures['recall, B (replica, with a token)'].per_s) / base_recall:.2f}"
    )
    ahead = median(figures["recall, B (primary, token ahead)"].per_s) / base_recall
    print(f"recall B/A, to primary: {ahead:.2f}")
    print(
        f"remember B/A (token):   {median(figures['remember, B (answers a token)'].per_s) / base_write:.2f}"
    )
    routed = {k: after.get(k, 0) - before.get(k, 0) for k in after if after.get(k, 0) != before.get(k, 0)}
    print(f"B's recalls went to: {routed}")
    print(
        f"load average during rounds: min {min(loads):.1f}, max {max(loads):.1f}; now {harness.load_average()}"
    )
