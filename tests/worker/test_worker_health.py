"""`agent-memory worker --metrics-port`: the worker process answers /healthz and /metrics on its own port,
runs jobs (the metrics count them), and stops cleanly on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx

from tests.conftest import ADMIN_KEY
from tests.test_serve_embedded import _free_port


def test_worker_health_and_metrics_port(database_url: str) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    env.update(
        AGENT_MEMORY_DATABASE_URL=database_url,
        AGENT_MEMORY_ADMIN_KEY=ADMIN_KEY,
        AGENT_MEMORY_LOG_FORMAT="console",
        AGENT_MEMORY_WORKER_POLL_SECONDS="0.1",
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "worker", "--metrics-port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        health = None
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            try:
                health = httpx.get(f"{base}/healthz", timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert health is not None and health.status_code == 200
        assert health.json()["status"] == "ok" and health.json()["worker"].startswith("worker:")
        metrics = httpx.get(f"{base}/metrics", timeout=5)
        assert metrics.status_code == 200 and metrics.headers["content-type"].startswith("text/plain")
        assert "agent_memory_job_seconds" in metrics.text
        assert httpx.get(f"{base}/nope", timeout=5).status_code == 404
        assert httpx.post(f"{base}/healthz", timeout=5).status_code == 405
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
