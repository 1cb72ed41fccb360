"""`agent-memory serve` with nothing configured: embedded PostgreSQL starts, serves, stops, and keeps data."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import psutil

from bench.harness import Server, free_port


def _postgres_running(pgdata: Path) -> bool:
    for proc in psutil.process_iter(["cmdline"]):
        cmdline = proc.info.get("cmdline") or []
        if any(str(pgdata) in part for part in cmdline) and any(
            part.endswith("postgres") for part in cmdline
        ):
            return True
    return False


def _embedded(data_dir: Path, port: int) -> Server:
    """`serve` with nothing configured but its data directory (none of the developer's settings)."""
    return Server(
        env={"AGENT_MEMORY_DATA_DIR": str(data_dir), "AGENT_MEMORY_LOG_FORMAT": "console"},
        inherit_settings=False,
        port=port,
    )


def test_serve_embedded_start_stop_restart(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    port = free_port()

    with _embedded(data_dir, port) as server:
        # loopback with no key: open mode
        created = httpx.post(f"{server.base_url}/v1/namespaces", json={"name": "kept"}, timeout=10)
        assert created.status_code == 201
    # uvicorn shuts down gracefully, then re-raises the signal it caught: -SIGTERM is a clean stop.
    assert server.stop() in (0, -signal.SIGTERM)
    assert not _postgres_running(data_dir / "pgdata"), "embedded PostgreSQL left running after serve stopped"

    with _embedded(data_dir, port) as server:
        assert httpx.get(f"{server.base_url}/v1/namespaces/kept", timeout=10).status_code == 200
    assert server.stop() in (0, -signal.SIGTERM)


def test_serve_refuses_open_mode_off_loopback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    env["AGENT_MEMORY_DATA_DIR"] = str(tmp_path / "data")
    result = subprocess.run(
        [sys.executable, "-m", "app", "serve", "--host", "0.0.0.0", "--port", str(free_port())],
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert b"without an API key" in result.stderr
    # One clear line, no traceback.
    assert b"Traceback" not in result.stderr and b"StartupRefused" not in result.stderr
    assert result.stderr.count(b"without an API key") == 1


def test_bad_settings_exit_with_a_clear_message() -> None:
    env = {**os.environ, "AGENT_MEMORY_PORT": "not-a-port"}
    result = subprocess.run(
        [sys.executable, "-m", "app", "migrate"], env=env, capture_output=True, timeout=30
    )
    assert result.returncode == 2
    assert b"AGENT_MEMORY_PORT" in result.stderr
