"""Property-based fuzzing of the HTTP API from its committed OpenAPI document, with schemathesis.

Not a test (it needs a running server and takes minutes): it backs the quality figure "no input a client
can send gives a 500". It seeds a namespace with data (a profile, sessions with messages, context blocks of
every kind with entries, memories, an ingest job) so the fuzzer gets past 404s into the handlers, then runs
schemathesis in three passes against the server:

1. every operation, every parameter generated freely (random names mostly answer 404 or 422);
2. every non-destructive operation, path parameters drawn from the seeded ids most of the time;
3. the destructive operations (delete session, message, block, entry, memory; clear) on the seeded ids.

Namespace and profile deletion are left to pass 1, so they never wipe the seeded data mid-run; the data is
seeded again before passes 2 and 3.

Run (schemathesis is not a dependency, install it by hand), on a server of its own (`--serve`: a throw-away
database on the local PostgreSQL) or on a running one (`--url`, `--key`):

    .venv/bin/pip install schemathesis==4.32.5
    .venv/bin/python -m bench fuzz-api --serve --examples 300 --max-time 600
    .venv/bin/python -m bench fuzz-api --url http://127.0.0.1:8080 --key amk_... --examples 300

It prints schemathesis' report for each pass and exits non-zero if any pass found a failure. The server log
holds the tracebacks of any 500 (with `--serve`, its path is printed). The temporary schemathesis config it writes only names seeded values.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx

from bench import harness

SCHEMA = harness.ROOT / "openapi" / "openapi.json"
NAMESPACE = "fuzz"
PROFILE = "alice"
SESSIONS = ["s1", "s2", "s3"]
MESSAGES = ["m1", "m2", "m3", "m4"]
LABELS = ["notes", "skills", "docs", "mem", "fixed"]
KEYS = ["k1", "k2"]
TOOLS = ["set_context", "load_context", "unload_context", "search_context", "session_search", "recall_memory"]

# Operations that delete seeded data: run on their own, after everything else.
DESTRUCTIVE = [
    "delete_session",
    "clear_session_messages",
    "delete_session_message",
    "delete_context_block",
    "delete_context_entry",
    "delete_memory",
]
# Operations that would wipe the whole seeded namespace: only in the free pass.
WIPING = ["delete_namespace", "delete_profile", "revoke_key"]


def seed(base: str, key: str) -> dict[str, list[str]]:
    """Create the seeded data (idempotent); returns ids the fuzzer should draw from."""
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30) as c:
        r = c.post("/v1/namespaces", json={"name": NAMESPACE})
        assert r.status_code in (201, 409), r.text
        p = f"/v1/namespaces/{NAMESPACE}/profiles/{PROFILE}"
        c.put(p).raise_for_status()
        for sid in SESSIONS:
            r = c.post(f"{p}/sessions", json={"id": sid, "name": f"session {sid}"})
            assert r.status_code in (201, 409), r.text
        tool_part = {
            "type": "tool-load_context",
            "toolCallId": "c1",
            "state": "output-available",
            "input": {"label": "skills", "key": "k1"},
            "output": "the skill",
        }
        batch = [
            {"id": "m1", "role": "user", "parts": [{"type": "text", "text": "I moved to Lisbon last May."}]},
            {"id": "m2", "role": "assistant", "parts": [{"type": "reasoning", "text": "note it"}, tool_part]},
            {"id": "m3", "role": "user", "parts": [{"type": "text", "text": "Always answer in French."}]},
            {"id": "m4", "role": "assistant", "parts": [{"type": "text", "text": "D'accord."}]},
        ]
        c.post(f"{p}/sessions/s1/messages/batch", json={"messages": batch}).raise_for_status()
        blocks = {
            "notes": {"kind": "writable", "maxTokens": 500, "content": "likes tea"},
            "fixed": {"kind": "readonly", "content": "You are helpful."},
            "skills": {"kind": "skill", "description": "how-tos"},
            "docs": {"kind": "search"},
            "mem": {"kind": "summary"},
        }
        for label, body in blocks.items():
            c.put(f"{p}/context/{label}", json=body).raise_for_status()
        for label in ("skills", "docs"):
            for k in KEYS:
                c.put(
                    f"{p}/context/{label}/entries/{k}", json={"content": f"entry {k} of {label}"}
                ).raise_for_status()
        memories = []
        for text in ("I live in Porto.", "Remind me to call Ana on Friday.", "Never use emojis."):
            r = c.post(f"{p}/remember", json={"content": text, "sessionId": "s2"})
            r.raise_for_status()
            memories.append(r.json()["id"])
        r = c.post(
            f"{p}/ingest",
            json={
                "sessionId": "s3",
                "messages": [
                    {
                        "role": "user",
                        "content": "Yesterday I adopted a dog called Rex.",
                        "timestamp": "2025-05-08T10:00:00Z",
                    },
                    {"role": "assistant", "content": "Congratulations!"},
                ],
            },
        )
        r.raise_for_status()
        jobs = [r.json()["jobId"]] if r.json()["jobId"] else []
        return {"memories": memories, "jobs": jobs or ["01J00000000000000000000000"]}


def config(ids: dict[str, list[str]], probability: float) -> str:
    dictionaries = {
        "namespace": [NAMESPACE],
        "profile": [PROFILE],
        "session": SESSIONS,
        "message": MESSAGES,
        "label": LABELS,
        "key": KEYS,
        "tool": TOOLS,
        "memory": ids["memories"],
        "job": ids["jobs"],
    }
    bindings = {
        "path.namespace": "namespace",
        "path.profile": "profile",
        "path.session_id": "session",
        "path.message_id": "message",
        "path.label": "label",
        "path.key": "key",
        "path.name": "tool",
        "path.memory_id": "memory",
        "path.job_id": "job",
        "query.sessionId": "session",
        "query.leafId": "message",
    }
    lines = []
    for name, values in dictionaries.items():
        lines.append(f"[dictionaries.{name}]\nvalues = {json.dumps(values)}\n")
    lines.append("[parameters]")
    for param, name in bindings.items():
        lines.append(f'"{param}" = {{ dictionary = "{name}", probability = {probability} }}')
    return "\n".join(lines) + "\n"


CHECKS = "not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance"


def run_pass(
    label: str,
    base: str,
    key: str,
    cfg: str | None,
    examples: int,
    max_time: int,
    ops: list[str],
    exclude: bool,
    workdir: str,
    checks: str = CHECKS,
    workers: int = 2,
) -> int:
    cmd = [str(Path(sys.executable).parent / "st")]
    if cfg is not None:
        cmd += ["--config-file", cfg]
    cmd += [
        "run", str(SCHEMA), "--url", base, "-H", f"Authorization: Bearer {key}",
        "--checks", checks,
        "--max-examples", str(examples), "--max-time", str(max_time), "--workers", str(workers),
        "--request-timeout", "30", "--suppress-health-check", "all", "--warnings", "off",
    ]  # fmt: skip
    for op in ops:
        cmd += ["--exclude-operation-id" if exclude else "--include-operation-id", op]
    print(
        f"\n===== pass {label}: {' '.join(c if 'Bearer' not in c else 'Authorization: Bearer …' for c in cmd)}"
    )
    sys.stdout.flush()
    # schemathesis keeps a cache in the working directory: keep it out of the repository.
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "bench.schemathesis_hooks", "PYTHONPATH": str(harness.ROOT)}
    return subprocess.call(cmd, cwd=workdir, env=env)


def main(argv: list[str] | None = None) -> int:
    parser = harness.parser(__doc__, json_output=False)
    parser.add_argument("--url", help="base URL of a running server (loopback)")
    parser.add_argument("--key", help="the running server's admin key")
    parser.add_argument(
        "--serve", action="store_true", help="fuzz a server of its own on a throw-away database"
    )
    parser.add_argument("--examples", type=int, default=300, help="examples per operation and pass")
    parser.add_argument("--max-time", type=int, default=600, help="seconds per pass")
    parser.add_argument("--passes", default="free,seeded,destructive")
    parser.add_argument("--checks", default=CHECKS, help="schemathesis checks (CI: not_a_server_error)")
    parser.add_argument("--workers", type=int, default=2, help="schemathesis workers (threads)")
    args = parser.parse_args(argv)
    if args.serve:
        return asyncio.run(fuzz_served(args))
    if not (args.url and args.key):
        parser.error("--url and --key, or --serve")
    return fuzz(args.url, args.key, args)


async def fuzz_served(args: argparse.Namespace) -> int:
    async with (
        harness.fresh_database(args.database_url, "fuzz", keep=args.keep) as url,
        harness.service(url) as server,
    ):
        print(f"serving {server.base_url} (log: {server.log_path})")
        return await asyncio.to_thread(fuzz, server.base_url, harness.ADMIN_KEY, args)


def fuzz(url: str, key: str, args: argparse.Namespace) -> int:
    """The three passes against the server at `url`; 1 if any found a failure."""
    ids = seed(url, key)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "schemathesis.toml"
        cfg.write_text(config(ids, 0.85))
        passes = args.passes.split(",")
        if "free" in passes:
            failed |= run_pass(
                "free", url, key, None, args.examples, args.max_time, [], True, tmp, args.checks, args.workers
            )
        if "seeded" in passes:
            seed(url, key)  # the free pass may have deleted the seeded namespace
            failed |= run_pass(
                "seeded",
                url,
                key,
                str(cfg),
                args.examples,
                args.max_time,
                DESTRUCTIVE + WIPING,
                True,
                tmp,
                args.checks,
                args.workers,
            )
        if "destructive" in passes:
            seed(url, key)
            failed |= run_pass(
                "destructive",
                url,
                key,
                str(cfg),
                args.examples,
                args.max_time,
                DESTRUCTIVE,
                False,
                tmp,
                args.checks,
                args.workers,
            )
    return 1 if failed else 0
