"""Two checkouts side by side: a git revision against the working tree, interleaved, for a change whose effect
is smaller than the shared machine's drift from one minute to the next.

Run: .venv/bin/python -m bench ab --base REV [--kind remember|recall|ingest] [--workers 2]
         [--rounds 4] [--seconds 5] [--connections 32]

The revision is checked out into a temporary git worktree (removed at the end). Both servers run from this
venv (`agent-memory serve --no-worker --workers N`), the base one with PYTHONPATH pointing at its worktree
and run from it (so only the project's own code differs, not its dependencies; before 2026-12-05 the base
ran from this checkout, whose code its API processes then imported: with --workers above 1 both sides ran
the working tree's API), each on a fresh database of its own. Each
round measures both sides, the first side alternating from round to round, for --seconds at
--connections keep-alive connections after half a second of warm-up: requests/s and the API processes' CPU
per request (user + system, every process of the server), with the load average. Printed: each figure, the
medians, and the new / base ratio of each round.

`--kind remember` stores new statements in 8 profiles; `--kind recall` first stores --memories statements in
each of 8 profiles (through remember), then asks generated questions of them; `--kind ingest` posts
500-message batches, each into a new session (every message new), and counts requests (× 500 messages).
The load generator is this process (a lean HTTP client) on the same cores, for both sides alike.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from bench import harness
from bench.common import LeanClient, ingest_batch, memory_statement, recall_question
from bench.harness import ROOT, Server, fresh_database, print_table, scoped_key, service

NAMESPACE = "ab"
PROFILES = 8
BATCH = 500  # messages per ingest request
BATCHES = [ingest_batch(seed, BATCH) for seed in range(4)]


@dataclass
class Side:
    name: str
    server: Server
    key: str
    sent: int = 0  # requests sent so far: each remember's statement is new
    figures: list[tuple[float, float, float]] = field(default_factory=list)  # (req/s, CPU ms, load)

    def processes(self) -> list[psutil.Process]:
        assert self.server.process is not None
        root = psutil.Process(self.server.process.pid)
        return [root, *root.children(recursive=True)]


def cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


@contextmanager
def worktree(revision: str) -> Iterator[Path]:
    """`revision` checked out in a temporary worktree, removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="agent-memory-ab-")) / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(path), revision], cwd=ROOT, check=True)
    try:
        yield path
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(path)], cwd=ROOT, check=False)


def serving(database_url: str, workers: int, pythonpath: Path | None) -> Server:
    """The server of one side: with `pythonpath`, the project's code from there (the base's worktree), run
    from there too (`python -m app` and its API processes put the working directory first on their path)."""
    if pythonpath is None:
        return service(database_url, worker=False, extra_args=["--workers", str(workers)])
    return service(
        database_url,
        worker=False,
        extra_args=["--workers", str(workers)],
        env={"PYTHONPATH": str(pythonpath)},
        cwd=pythonpath,
    )


async def load(side: Side, kind: str, connections: int, seconds: float) -> int:
    """`connections` loops of requests for `seconds`; returns how many were answered 2xx."""
    done = 0

    async def loop(until: float) -> None:
        nonlocal done
        client = LeanClient(side.server.port, side.key)
        try:
            while time.perf_counter() < until:
                side.sent += 1
                n = side.sent
                rng = random.Random(n)
                profile = f"/v1/namespaces/{NAMESPACE}/profiles/p{n % PROFILES}"
                if kind == "remember":
                    content = f"{memory_statement(rng, n)[2]} Ref {side.name}-{n}."
                    status, _ = await client.request("POST", f"{profile}/remember", {"content": content})
                elif kind == "ingest":
                    payload = b'{"sessionId":"s%d","messages":%s}' % (n, BATCHES[n % len(BATCHES)])
                    status, _ = await client.request_bytes("POST", f"{profile}/ingest", payload)
                else:
                    status, _ = await client.request(
                        "POST", f"{profile}/recall", {"query": recall_question(rng)}
                    )
                done += 200 <= status < 300
        finally:
            await client.close()

    until = time.perf_counter() + seconds
    await asyncio.gather(*(loop(until) for _ in range(connections)))
    return done


async def fill(side: Side, memories: int) -> None:
    """Each profile's memories for recall to search, through remember."""
    client = LeanClient(side.server.port, side.key)
    try:
        for n in range(memories * PROFILES):
            content = f"{memory_statement(random.Random(-n - 1), n)[2]} Fill {n}."
            path = f"/v1/namespaces/{NAMESPACE}/profiles/p{n % PROFILES}/remember"
            status, body = await client.request("POST", path, {"content": content})
            assert status in (200, 201), body
    finally:
        await client.close()


async def run(args: argparse.Namespace) -> None:
    print(f"agent-memory A/B — {time.strftime('%Y-%m-%d %H:%M:%S')}, {os.cpu_count()} cores")
    print(f"base {args.base} against the working tree; {args.kind}, {args.workers} API processes each")
    per_process = max(4, args.pool // args.workers)
    os.environ["AGENT_MEMORY_DB_POOL_SIZE"] = str(per_process)
    os.environ["AGENT_MEMORY_DB_MAX_OVERFLOW"] = "0"
    with worktree(args.base) as tree:
        await measure(args, tree)


async def measure(args: argparse.Namespace, tree: Path) -> None:
    async with (
        fresh_database(args.database_url, "bench_ab", keep=args.keep) as base_url,
        fresh_database(args.database_url, "bench_ab", keep=args.keep) as new_url,
        serving(base_url, args.workers, tree) as base_server,
        serving(new_url, args.workers, None) as new_server,
    ):
        sides = []
        for name, server in (("base", base_server), ("new", new_server)):
            side = Side(name, server, await scoped_key(server.base_url, NAMESPACE))
            if args.kind == "recall":
                await fill(side, args.memories)
            await load(side, args.kind, args.connections, 1.0)
            sides.append(side)
        for round_no in range(args.rounds):
            for side in sides if round_no % 2 == 0 else sides[::-1]:
                await load(side, args.kind, args.connections, 0.5)
                processes = side.processes()
                before, started = cpu_seconds(processes), time.perf_counter()
                done = await load(side, args.kind, args.connections, args.seconds)
                elapsed, used = time.perf_counter() - started, cpu_seconds(processes) - before
                figure = (done / elapsed, used * 1000 / max(done, 1), os.getloadavg()[0])
                side.figures.append(figure)
                print(
                    f"  round {round_no + 1} {side.name:4}: {figure[0]:8,.0f} requests/s, "
                    f"API CPU {figure[1]:.3f} ms a request, load {figure[2]:.2f}"
                )
    base, new = sides
    rows = [
        [
            side.name,
            statistics.median(f[0] for f in side.figures),
            statistics.median(f[1] for f in side.figures),
            ", ".join(f"{f[2]:.1f}" for f in side.figures),
        ]
        for side in sides
    ]
    print_table(
        f"{args.kind}, medians of {args.rounds} rounds",
        ["side", "requests/s", "API CPU ms a request", "load per round"],
        rows,
    )
    ratios = [round(n[0] / b[0], 2) for b, n in zip(base.figures, new.figures, strict=True)]
    print(f"\nnew / base requests/s per round: {ratios}; median {statistics.median(ratios):.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__)
    parser.add_argument("--base", required=True, help="the git revision to compare the working tree with")
    parser.add_argument("--kind", choices=("remember", "recall", "ingest"), default="remember")
    harness.load_flags(parser, connections=32, seconds=5, rounds=4, workers=2)
    parser.add_argument("--pool", type=int, default=20, help="database connections per server")
    parser.add_argument("--memories", type=int, default=300, help="recall: memories per profile first")
    return harness.run_benchmark(parser, run, argv)
