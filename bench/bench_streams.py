"""Peak memory of the server while it answers an export and a history read of a profile of large messages.

One throw-away database holds a session of N messages (default 60) each carrying a tool output of about
1.5 MB (under the 2 MiB row bound, so stored whole): about 90 MB of messages. `serve` (one API process, no
worker) is started on it from this checkout and, with `--baseline-dir`, from another checkout in turn (the
same data, the same load); for each response the server's peak resident memory is read from
/proc/<pid>/status (VmHWM, reset through /proc/<pid>/clear_refs before each request), beside its resident
memory before the request, the response's size and its time. The client reads each response as a stream
and keeps nothing of it.

    .venv/bin/python -m bench streams [--messages 60] [--message-kb 1500] [--rounds 2] [--baseline-dir DIR]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

from bench import harness
from bench.harness import ADMIN_KEY, ROOT, fresh_database, print_table, service

NAMESPACE = "bench-streams"
PROFILE = "big"
SESSION = "long"


def _status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise KeyError(field)


def _tree(pid: int) -> list[int]:
    """The process and its descendants (an API process may be a child of `serve`)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        for child in children:
            found.extend(_tree(int(child)))
    return found


def _reset_peaks(pids: Sequence[int]) -> None:
    for pid in pids:
        Path(f"/proc/{pid}/clear_refs").write_text("5")  # resets VmHWM to the current RSS


async def _populate(base: str, messages: int, size_kb: int) -> None:
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    url = f"/v1/namespaces/{NAMESPACE}/profiles/{PROFILE}/sessions"
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=120) as client:
        assert (await client.post("/v1/namespaces", json={"name": NAMESPACE})).status_code in (201, 409)
        created = await client.post(url, json={"id": SESSION, "extractMemories": False})
        assert created.status_code == 201, created.text
        rows = [f"ligne {i}: données ✓ 漢字 {i * 7919 % 10007}" for i in range(size_kb * 1000 // 36)]
        for i in range(messages):
            message = {
                "id": f"m{i}",
                "role": "assistant",
                "parts": [
                    {"type": "text", "text": f"I ran report {i}."},
                    {
                        "type": "tool-report",
                        "toolCallId": f"c{i}",
                        "state": "output-available",
                        "input": {"report": i},
                        "output": {"rows": rows},
                    },
                ],
            }
            r = await client.post(f"{url}/{SESSION}/messages", json={"message": message})
            assert r.status_code == 201, r.text[:300]


async def _measure(server: harness.Server, path: str) -> list[object]:
    assert server.process is not None
    pids = _tree(server.process.pid)
    before = max(_status_kb(p, "VmRSS") for p in pids)
    _reset_peaks(pids)
    started = time.monotonic()
    size = 0
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    async with (
        httpx.AsyncClient(base_url=server.base_url, headers=headers, timeout=600) as client,
        client.stream("GET", path) as response,
    ):
        assert response.status_code == 200, await response.aread()
        async for chunk in response.aiter_raw():
            size += len(chunk)
    seconds = time.monotonic() - started
    peak = max(_status_kb(p, "VmHWM") for p in pids)
    return [
        round(size / 1e6, 1),
        round(seconds, 2),
        round(before / 1024),
        round(peak / 1024),
        round((peak - before) / 1024),
    ]


async def run(args: argparse.Namespace) -> None:
    checkouts = [("this", ROOT)]
    if args.baseline_dir:
        checkouts.append(("baseline", Path(args.baseline_dir)))
    responses = {
        "export": f"/v1/namespaces/{NAMESPACE}/export?profile={PROFILE}",
        "history": f"/v1/namespaces/{NAMESPACE}/profiles/{PROFILE}/sessions/{SESSION}/history",
    }
    rows: list[list[object]] = []
    async with fresh_database(args.database_url, "agent_memory_streams", keep=args.keep) as db:
        for round_ in range(args.rounds):
            for label, cwd in checkouts:
                server = service(db, worker=False, extra_args=("--workers", "1"), cwd=cwd)
                async with server:
                    if not rows:
                        await _populate(server.base_url, args.messages, args.message_kb)
                    for name, path in responses.items():
                        rows.append([round_ + 1, label, name, *await _measure(server, path)])
    print_table(
        f"Server memory answering {args.messages} messages of ~{args.message_kb} KB (load {harness.load_average()})",
        ["round", "checkout", "response", "MB sent", "s", "RSS before MB", "peak RSS MB", "peak − before MB"],
        rows,
    )


def main(argv: list[str] | None = None) -> int:
    p = harness.parser(__doc__)
    p.add_argument("--messages", type=int, default=60)
    p.add_argument("--message-kb", type=int, default=1500)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--baseline-dir", default=None, help="also serve from this checkout, in turn")
    return harness.run_benchmark(p, run, argv)
