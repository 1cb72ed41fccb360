"""A webhook receiver for the tests: a real HTTP server on loopback (a thread of its own) that keeps what it
is sent and answers as the test says (a status per request: 200, 500 for a while, 410, a redirect)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks.webhooks import Webhook


@dataclass(frozen=True)
class Received:
    headers: dict[str, str]
    body: bytes
    answered: int

    @property
    def message(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.body)
        return data

    @property
    def webhook_id(self) -> str:
        return self.headers["webhook-id"]

    def verifies_with(self, secret: str) -> bool:
        try:
            Webhook(secret).verify(self.body, self.headers)
        except Exception:
            return False
        return True


# What the receiver answers its n-th request (from 1): a status, or a status and headers.
Answer = Callable[[int], int | tuple[int, dict[str, str]]]


class Receiver:
    def __init__(self, server: ThreadingHTTPServer) -> None:
        self._server = server
        self._lock = threading.Lock()
        self.requests: list[Received] = []  # every request, whatever it was answered
        self.answer: Answer = lambda _n: 200

    @property
    def url(self) -> str:
        address, port = self._server.server_address[:2]
        text = address.decode() if isinstance(address, bytes) else str(address)
        host = f"[{text}]" if ":" in text else text
        return f"http://{host}:{port}/hook"

    def record(self, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str]]:
        with self._lock:
            answered = self.answer(len(self.requests) + 1)
            status, extra = answered if isinstance(answered, tuple) else (answered, {})
            self.requests.append(Received(headers, body, status))
        return status, extra

    @property
    def accepted(self) -> list[Received]:
        """The requests answered with a 2xx: what the receiver took in."""
        with self._lock:
            return [r for r in self.requests if 200 <= r.answered < 300]

    async def wait_for(self, n: int, timeout: float = 30.0, accepted: bool = True) -> list[Received]:
        deadline = time.monotonic() + timeout
        while True:
            got = self.accepted if accepted else list(self.requests)
            if len(got) >= n or time.monotonic() > deadline:
                return got
            await asyncio.sleep(0.05)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        headers = {k.lower(): v for k, v in self.headers.items()}
        status, extra = self.server.receiver.record(headers, body)
        self.send_response(status)
        for name, value in extra.items():
            self.send_header(name, value)
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, format: str, *args: Any) -> None:
        return


class _Server(ThreadingHTTPServer):
    receiver: Receiver
    daemon_threads = True


@contextmanager
def receiver(host: str = "127.0.0.1") -> Iterator[Receiver]:
    import socket

    class Server(_Server):
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET

    server = Server((host, 0), _Handler)
    server.receiver = Receiver(server)
    thread = threading.Thread(target=server.serve_forever, name="webhook-receiver", daemon=True)
    thread.start()
    try:
        yield server.receiver
    finally:
        server.shutdown()
        server.server_close()
