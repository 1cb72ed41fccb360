"""`agent-memory worker --metrics-port`: the worker process answers /healthz and /metrics on its own port,
runs jobs (the metrics count them), and stops cleanly on SIGTERM."""

from __future__ import annotations

import httpx

from bench.harness import Server
from tests.conftest import ADMIN_KEY


def test_worker_health_and_metrics_port(database_url: str) -> None:
    worker = Server(
        env={
            "AGENT_MEMORY_DATABASE_URL": database_url,
            "AGENT_MEMORY_ADMIN_KEY": ADMIN_KEY,
            "AGENT_MEMORY_LOG_FORMAT": "console",
            "AGENT_MEMORY_WORKER_POLL_SECONDS": "0.1",
        },
        args=("-m", "app", "worker", "--metrics-port", "{port}"),
        ready_path="/healthz",
        inherit_settings=False,
    )
    with worker:
        base = worker.base_url
        health = httpx.get(f"{base}/healthz", timeout=2)
        assert health.status_code == 200
        assert health.json()["status"] == "ok" and health.json()["worker"].startswith("worker:")
        metrics = httpx.get(f"{base}/metrics", timeout=5)
        assert metrics.status_code == 200 and metrics.headers["content-type"].startswith("text/plain")
        assert "agent_memory_job_seconds" in metrics.text
        assert httpx.get(f"{base}/nope", timeout=5).status_code == 404
        assert httpx.post(f"{base}/healthz", timeout=5).status_code == 405
    assert worker.stop() == 0  # SIGTERM: a clean stop
