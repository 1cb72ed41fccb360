"""`agent-memory serve` with nothing configured: embedded PostgreSQL starts, serves, stops, and keeps data."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _postgres_running(pgdata: Path) -> bool:
    for proc in psutil.process_iter(["cmdline"]):
        cmdline = proc.info.get("cmdline") or []
        if any(str(pgdata) in part for part in cmdline) and any(
            part.endswith("postgres") for part in cmdline
        ):
            return True
    return False


def _start(data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    env["AGENT_MEMORY_DATA_DIR"] = str(data_dir)
    env["AGENT_MEMORY_LOG_FORMAT"] = "console"
    return subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _wait_ready(proc: subprocess.Popen[bytes], base: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited early: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("serve did not become ready")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    # uvicorn shuts down gracefully, then re-raises the signal it caught: -SIGTERM is a clean stop.
    assert proc.wait(timeout=30) in (0, -signal.SIGTERM)


def test_serve_embedded_start_stop_restart(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"

    proc = _start(data_dir, port)
    try:
        _wait_ready(proc, base)
        # loopback with no key: open mode
        created = httpx.post(f"{base}/v1/namespaces", json={"name": "kept"}, timeout=10)
        assert created.status_code == 201
    finally:
        _stop(proc)
    assert not _postgres_running(data_dir / "pgdata"), "embedded PostgreSQL left running after serve stopped"

    proc = _start(data_dir, port)
    try:
        _wait_ready(proc, base)
        assert httpx.get(f"{base}/v1/namespaces/kept", timeout=10).status_code == 200
    finally:
        _stop(proc)


def test_serve_refuses_open_mode_off_loopback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_MEMORY_")}
    env["AGENT_MEMORY_DATA_DIR"] = str(tmp_path / "data")
    result = subprocess.run(
        [sys.executable, "-m", "app", "serve", "--host", "0.0.0.0", "--port", str(_free_port())],
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
