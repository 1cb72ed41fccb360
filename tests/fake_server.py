"""The base of the tests' fake OpenAI-compatible endpoints (chat completions, embeddings).

A real HTTP server on 127.0.0.1, in a thread (`http.server`), so it answers while the test's event loop
waits on it. It serves one path; tests queue replies (`server.script(...)`: an HTTP error with headers
such as Retry-After, a delay, a dropped connection) that are answered before the subclass's default,
and every request is recorded with its headers and body. A subclass says what a 200 carries (`answer`),
what is answered when the queue is empty (`default_reply`) and what it refuses outright (`refuse`).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self, TypeVar

import pytest


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # chat: the assistant message's content, for a 200
    body: str | None = None  # a raw body instead of the computed answer (errors, broken answers)
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False  # close the connection without answering
    delay: float = 0.0


def error(status: int, message: str = "scripted failure", **headers: str) -> Reply:
    """An OpenAI-style error answer; `retry_after="2"` becomes the `Retry-After` header."""
    return Reply(
        status=status,
        body=json.dumps({"error": {"message": message, "type": "server_error"}}),
        headers={k.replace("_", "-"): v for k, v in headers.items()},
    )


def dropped() -> Reply:
    return Reply(drop=True)


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


R = TypeVar("R", bound=Request)


class FakeServer:
    """One fake endpoint; subclasses set `path` and `name` and answer through the hooks below."""

    path = "/v1"
    name = "fake-server"

    def __init__(self) -> None:
        self.requests: list[Any] = []
        self.queue: list[Reply] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                request = fake.make_request(self.path, headers, json.loads(raw))
                reply = fake._next(request)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.drop:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if reply.body is not None:
                    payload = reply.body
                else:
                    payload = fake.answer(request, reply) if reply.status == 200 else ""
                data = payload.encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # a client that timed out
                    self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name=self.name, daemon=True)

    # ---------------------------------------------------------------- what subclasses decide

    def make_request(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> Request:
        return Request(path, headers, body)

    def refuse(self, request: Any) -> Reply | None:
        """An answer that overrides the script for this request (None: none)."""
        return None

    def default_reply(self, request: Any) -> Reply:
        """The answer when no reply is scripted."""
        return Reply()

    def answer(self, request: Any, reply: Reply) -> str:
        """The body of a 200 without a scripted body."""
        raise NotImplementedError

    # ---------------------------------------------------------------- what tests call

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self.queue.extend(replies)

    def reset(self) -> None:
        with self._lock:
            self.queue.clear()
            self.requests.clear()

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            if request.path != self.path:
                return error(404, f"unknown path {request.path}")
            refused = self.refuse(request)
            if refused is not None:
                return refused
            if self.queue:
                return self.queue.pop(0)
        return self.default_reply(request)


S = TypeVar("S", bound=FakeServer)


def server_fixtures(factory: Callable[[], S], name: str) -> tuple[Any, Any]:
    """The fixtures of a fake server: `<name>_server`, one per test module, and `<name>`, the same server
    emptied of scripts and recorded requests before and after each test."""

    @pytest.fixture(scope="module", name=f"{name}_server")
    def module_server() -> Iterator[S]:
        server = factory().start()
        yield server
        server.stop()

    @pytest.fixture(name=name)
    def per_test(request: pytest.FixtureRequest) -> Iterator[S]:
        server: S = request.getfixturevalue(f"{name}_server")
        server.reset()
        yield server
        server.reset()

    return module_server, per_test
