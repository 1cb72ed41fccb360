"""Fixtures of the client tests: a live `agent-memory serve` (open mode on loopback, a database of its own,
the worker running) shared by the package's tests, and a scripted HTTP server on loopback for what a real
server does not do on demand (503s, dropped connections, slow answers, a consistency header)."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from bench.harness import Server, create_database, drop_database
from tests.conftest import SERVER_URL


@pytest.fixture(scope="package")
def live_server() -> Iterator[str]:
    """`agent-memory serve` with its default settings (semantic recall included), open on loopback, on a
    database of its own: its base URL."""
    name, url = asyncio.run(create_database(SERVER_URL, "am_client"))
    served = Server(
        env={
            "AGENT_MEMORY_DATABASE_URL": url,
            "AGENT_MEMORY_LOG_LEVEL": "WARNING",
            "AGENT_MEMORY_WORKER_POLL_SECONDS": "0.1",
        },
        inherit_settings=False,
    )
    try:
        with served:
            yield served.base_url
    finally:
        asyncio.run(drop_database(SERVER_URL, name))


ROOT = Path(__file__).resolve().parents[2]


def client_venv(tmp_path: Path, extra: str | None = None, *, timeout: float = 600) -> Path:
    """A fresh venv under `tmp_path` with `./clients/python` (`[extra]` with it) installed from a copy of
    the package, its dependencies from PyPI, nothing of the service's venv: its Python.

    A copy, because setuptools builds in the source tree (build/, *.egg-info) and the checkout under test
    stays as it is."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    checkout = tmp_path / "checkout"
    shutil.copytree(
        ROOT / "clients" / "python",
        checkout / "clients" / "python",
        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"),
    )
    package = "./clients/python" + (f"[{extra}]" if extra else "")
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", package],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert installed.returncode == 0, installed.stderr
    return python


@dataclass
class Scripted:
    """One scripted answer: a status and JSON body (with headers), a dropped connection, or a delay."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False
    delay: float = 0.0


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class ScriptedServer:
    """A real HTTP server on 127.0.0.1 (in a thread) answering every method and path from a queue of
    `Scripted` answers (then `default`), recording each request."""

    def __init__(self) -> None:
        self.queue: list[Scripted] = []
        self.default = Scripted(200, {})
        self.seen: list[Seen] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:
                pass

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                seen = Seen(self.command, self.path, dict(self.headers.items()), self.rfile.read(length))
                with server._lock:
                    server.seen.append(seen)
                    reply = server.queue.pop(0) if server.queue else server.default
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.drop:
                    self.close_connection = True
                    self.connection.close()
                    return
                payload = json.dumps(reply.body).encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def script(self, *replies: Scripted) -> None:
        self.queue.extend(replies)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def scripted() -> Iterator[ScriptedServer]:
    server = ScriptedServer()
    try:
        yield server
    finally:
        server.close()


def problem(status: int, code: str, detail: str) -> dict[str, Any]:
    return {
        "type": f"https://agent-memory.dev/problems/{code}",
        "title": "t",
        "status": status,
        "detail": detail,
        "code": code,
    }
