"""Tracing: with OTEL_EXPORTER_OTLP_ENDPOINT set, a real `agent-memory serve` sends OTLP/HTTP spans to a
loopback receiver (recorded here): the request's server span continues the incoming `traceparent`, SQL
statements and jobs (in the worker process `serve` supervises) have their own spans. Unset, OpenTelemetry is not even imported."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from bench.harness import Server
from tests.conftest import ADMIN_KEY

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"


class Receiver(ThreadingHTTPServer):
    spans: list[Any]


class _Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:  # noqa: N802 (the stdlib's name)
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        for resource_spans in request.resource_spans:
            for scope_spans in resource_spans.scope_spans:
                self.server.spans.extend(scope_spans.spans)
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.end_headers()
        self.wfile.write(b"")

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver(("127.0.0.1", 0), _Handler)
    server.spans = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()


def test_spans_for_requests_and_sql_continue_the_incoming_trace(
    receiver: Receiver, database_url: str
) -> None:
    namespace = "trace-" + secrets.token_hex(4)
    job_id = ""
    server = Server(
        env={
            "AGENT_MEMORY_DATABASE_URL": database_url,
            "AGENT_MEMORY_ADMIN_KEY": ADMIN_KEY,
            "AGENT_MEMORY_LOG_FORMAT": "console",
            "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{receiver.server_address[1]}",
            "OTEL_BSP_SCHEDULE_DELAY": "100",
            "OTEL_SERVICE_NAME": "agent-memory-test",
        },
        inherit_settings=False,
    )
    # Leaving the block stops it with SIGTERM: the exporter flushes at shutdown.
    with server:
        base = server.base_url
        answer = httpx.get(
            f"{base}/v1/namespaces",
            headers={"authorization": f"Bearer {ADMIN_KEY}", "traceparent": f"00-{TRACE_ID}-{PARENT_ID}-01"},
            timeout=10,
        )
        assert answer.status_code == 200
        # A job, run by the worker process `serve` supervises: it has its own span.
        profile = f"{base}/v1/namespaces/{namespace}/profiles/p"
        admin = {"authorization": f"Bearer {ADMIN_KEY}"}
        assert httpx.post(f"{base}/v1/namespaces", json={"name": namespace}, headers=admin).status_code == 201
        message = {"role": "user", "content": "I work as a nurse in Lisbon."}
        job_id = httpx.post(f"{profile}/ingest", json={"messages": [message]}, headers=admin).json()["jobId"]
        deadline = time.monotonic() + 60
        while httpx.get(f"{profile}/jobs/{job_id}", headers=admin).json()["status"] != "done":
            assert time.monotonic() < deadline, "the job did not finish"
            time.sleep(0.2)

    ours = [s for s in receiver.spans if s.trace_id.hex() == TRACE_ID]
    server_spans = [s for s in ours if s.parent_span_id.hex() == PARENT_ID]
    assert server_spans, [s.name for s in receiver.spans]
    assert "/v1/namespaces" in server_spans[0].name
    sql = [s for s in ours if any(a.key == "db.system" or a.key == "db.system.name" for a in s.attributes)]
    assert sql, [(s.name, s.trace_id.hex()[:6]) for s in receiver.spans]
    jobs = [s for s in receiver.spans if s.name.startswith("job ")]
    assert jobs, [s.name for s in receiver.spans]
    # The worker may run other tests' queued jobs too: ours is among them.
    job_ids = {a.value.string_value for s in jobs for a in s.attributes if a.key == "agent_memory.job.id"}
    assert job_id in job_ids


def test_tracing_is_not_imported_when_off() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    code = (
        "import sys; from app.main import create_app; from app.core.settings import Settings; "
        "create_app(Settings()); print(any(m.startswith('opentelemetry.sdk') for m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
