"""The webhooks fault scenario: `serve` (its supervised worker delivering) to three receivers on loopback
under the writers' load, the worker SIGKILLed three times in the middle of the burst of deliveries (the
supervisor restarts it), then PostgreSQL restarted (`pg_ctl restart -m fast`) while the load goes on.

Afterwards, for each endpoint: the events written that its filters select (read from the `events` table)
against those delivered (accepted with a 2xx by its receiver, signature verified with the Standard Webhooks
reference library): lost (written, never delivered), delivered out of order (an event id below one already
delivered, other than a repeat of the last), duplicates (an id delivered again: allowed) and duplicates
under another `webhook-id` (not allowed). One receiver answers 500 to every seventh request, one takes
only `memory.created` events. The writers are paced (`WRITER_PACE_SECONDS`): what is measured is the faults,
not how far a backlog can grow.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
from standardwebhooks.webhooks import Webhook

from bench.faults.cluster import Cluster
from bench.faults.run import Run, _connect, drain, fault_amid_load, load, namespace, verify, worker_pid
from bench.harness import ADMIN_KEY, print_table, service

# Each writer's pause after each request (with 16 writers, about 30 writes a second at most).
WRITER_PACE_SECONDS = 0.5
# How long the deliveries may take to catch up once the load is over (each endpoint one at a time).
CATCH_UP_SECONDS = 600.0


@dataclass
class Inbox:
    """What one receiver was sent: (event id, webhook-id) of each request it accepted, in arrival order."""

    fail_every: int = 0  # answer 500 to every n-th request (0: never)
    secret: str = ""
    accepted: list[tuple[int, str]] = field(default_factory=list)
    refused: int = 0
    bad_signatures: int = 0
    requests: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, headers: dict[str, str], body: bytes) -> int:
        with self.lock:
            self.requests += 1
            if self.fail_every and self.requests % self.fail_every == 0:
                self.refused += 1
                return 500
            try:
                message = Webhook(self.secret).verify(body, headers)
            except Exception:
                self.bad_signatures += 1
                return 400
            self.accepted.append((int(message["data"]["eventId"]), headers["webhook-id"]))
            return 200


class _Handler(BaseHTTPRequestHandler):
    server: _Receiver

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        status = self.server.inbox.take({k.lower(): v for k, v in self.headers.items()}, body)
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        return


class _Receiver(ThreadingHTTPServer):
    daemon_threads = True
    inbox: Inbox


def start_receiver(inbox: Inbox) -> _Receiver:
    server = _Receiver(("127.0.0.1", 0), _Handler)
    server.inbox = inbox
    threading.Thread(target=server.serve_forever, name="webhook-receiver", daemon=True).start()
    return server


def judge(accepted: list[tuple[int, str]], written: list[int]) -> dict[str, int]:
    """Lost, out of order and duplicate counts of one endpoint's deliveries against the events written."""
    ids_of: dict[int, str] = {}
    out_of_order = duplicates = other_id = 0
    last = 0
    for event_id, webhook_id in accepted:
        if event_id in ids_of:
            duplicates += 1
            other_id += ids_of[event_id] != webhook_id
            if event_id != last:
                out_of_order += 1  # a repeat of an older event than the last delivered
            continue
        ids_of[event_id] = webhook_id
        if event_id < last:
            out_of_order += 1
        last = max(last, event_id)
    delivered = set(ids_of)
    return {
        "written": len(written),
        "delivered": len(delivered & set(written)),
        "lost": len(set(written) - delivered),
        "out_of_order": out_of_order,
        "duplicates": duplicates,
        "dup_other_id": other_id,
    }


async def written_events(url: str, ns: str, types: list[str] | None) -> list[int]:
    conn = await _connect(url)
    try:
        await conn.execute("SELECT number_all_events()")  # as every reader: ids first, committed, then read
        rows = await conn.fetch(
            "SELECT e.id FROM events e JOIN namespaces n ON n.id = e.namespace_id "
            "WHERE n.name = $1 AND ($2::text[] IS NULL OR e.type = ANY($2::text[])) ORDER BY e.id",
            ns,
            types,
        )
    finally:
        await conn.close()
    return [int(r["id"]) for r in rows]


async def scenario_webhooks(cluster: Cluster, args: argparse.Namespace) -> tuple[Run, dict[str, Any]]:
    run = Run("webhooks")
    ns = run.name
    db = cluster.database_url("agent_memory")
    endpoints: dict[str, tuple[Inbox, list[str] | None]] = {
        "every event": (Inbox(), None),
        "every event, 1 in 7 answered 500": (Inbox(fail_every=7), None),
        "memory.created only": (Inbox(), ["memory.created"]),
    }
    receivers = [start_receiver(inbox) for inbox, _ in endpoints.values()]
    server = service(
        db,
        env={
            "AGENT_MEMORY_JOB_LEASE_SECONDS": "10",
            "AGENT_MEMORY_WORKER_POLL_SECONDS": "0.2",
            "AGENT_MEMORY_EMBEDDINGS": "none",
            "AGENT_MEMORY_WEBHOOK_ALLOW_PRIVATE": "true",
            "AGENT_MEMORY_WEBHOOK_RETRY_BASE_SECONDS": "0.2",
        },
    )
    server.spawn()
    try:
        await server.ready(timeout=300)
        await namespace(server.base_url, ns)
        async with httpx.AsyncClient(
            base_url=server.base_url, headers={"Authorization": f"Bearer {ADMIN_KEY}"}
        ) as client:
            for (inbox, types), receiver in zip(endpoints.values(), receivers, strict=True):
                body: dict[str, Any] = {"url": f"http://127.0.0.1:{receiver.server_address[1]}/hook"}
                if types:
                    body["types"] = types
                created = await client.post(f"/v1/namespaces/{ns}/webhooks", json=body)
                assert created.status_code == 201, created.text
                inbox.secret = created.json()["secret"]

        def sent() -> int:
            return sum(inbox.requests for inbox, _ in endpoints.values())

        async def deliveries_flowing(within: float) -> int:
            """Wait until the receivers are being sent requests (the worker is up and delivering)."""
            before, deadline = sent(), time.monotonic() + within
            # The receivers count on their own threads: polled (an asyncio.Event would need their loop).
            while sent() < before + 5 and time.monotonic() < deadline:  # noqa: ASYNC110
                await asyncio.sleep(0.05)
            return sent()

        async def fault() -> None:
            at = []
            for _ in range(3):  # kill it mid-burst, let the supervisor restart it, kill the new one too
                at.append(await deliveries_flowing(within=120))
                pid = worker_pid(server)
                if pid is not None:
                    os.kill(pid, signal.SIGKILL)
                await asyncio.sleep(args.seconds / 8)
            run.notes.append(f"worker SIGKILLed 3 times while delivering, after {at} delivery requests")
            await deliveries_flowing(within=120)
            started = time.monotonic()
            await asyncio.to_thread(cluster.restart, "fast")
            run.notes.append(
                f"PostgreSQL restarted after {sent()} delivery requests, down and back in "
                f"{time.monotonic() - started:.1f}s"
            )

        stop = asyncio.Event()
        # Paced: an endpoint takes its events one at a time, so writers as fast as the API answers would
        # outrun it and the scenario would measure the backlog instead of the faults.
        task = asyncio.create_task(
            load(run, server.base_url, ns, 3600, args.concurrency, stop, pace=WRITER_PACE_SECONDS)
        )
        await fault_amid_load(run, fault, args.seconds, stop, task)
        pending, failed = await drain(db)
        result = await verify(run, db, ns)
        # The deliveries catch up: wait until every receiver has every event it should, or the bound.
        load_over = time.monotonic()
        deadline = load_over + CATCH_UP_SECONDS
        while True:
            verdicts = {
                name: judge(inbox.accepted, await written_events(db, ns, types))
                for name, (inbox, types) in endpoints.items()
            }
            if all(v["lost"] == 0 for v in verdicts.values()) or time.monotonic() > deadline:
                break
            await asyncio.sleep(1.0)
        run.notes.append(f"deliveries caught up {time.monotonic() - load_over:.1f}s after the load ended")
        conn = await _connect(db)
        try:
            backlog = await conn.fetch(
                "SELECT w.url, w.cursor, count(d.*) FILTER (WHERE d.status = 'pending') AS pending, "
                "count(d.*) FILTER (WHERE d.status = 'failed') AS failed FROM webhook_endpoints w "
                "LEFT JOIN webhook_deliveries d ON d.namespace_id = w.namespace_id AND d.endpoint_id = w.id "
                "GROUP BY w.url, w.cursor ORDER BY w.url"
            )
        finally:
            await conn.close()
        run.notes.append(
            "the log at the end (an event not delivered yet is pending, or past the cursor, not lost): "
            + "; ".join(
                f"cursor {r['cursor']}, {r['pending']} pending, {r['failed']} given up" for r in backlog
            )
        )
    finally:
        server.stop()
        for receiver in receivers:
            receiver.shutdown()
            receiver.server_close()
    rows = [
        [
            name,
            v["written"],
            v["delivered"],
            v["lost"],
            v["out_of_order"],
            v["duplicates"],
            v["dup_other_id"],
            endpoints[name][0].refused,
            endpoints[name][0].bad_signatures,
        ]
        for name, v in verdicts.items()
    ]
    print_table(
        "Webhook deliveries (events written vs delivered, per endpoint)",
        [
            "endpoint",
            "written",
            "delivered",
            "not delivered",
            "out of order",
            "dup",
            "dup other id",
            "500s",
            "bad sig",
        ],
        rows,
    )
    run.notes.append("deliveries: " + json.dumps(verdicts))
    lost = sum(v["lost"] for v in verdicts.values())
    wrong = sum(v["out_of_order"] + v["dup_other_id"] for v in verdicts.values())
    disturbed = (run.last_bad - run.fault_start) if run.last_bad and run.fault_start else 0.0
    return run, {
        **result,
        # An event never delivered counts as lost; one out of order (or repeated under another webhook-id)
        # as duplicated, the column of what should not be there.
        "lost": result["lost"] + lost,
        "duplicated": result["duplicated"] + wrong,
        "pending": pending,
        "failed": failed,
        "disturbed_s": disturbed,
    }
