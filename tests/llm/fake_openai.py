"""A real HTTP server on 127.0.0.1 that speaks OpenAI's chat-completions protocol with scripted answers.

Tests queue replies (`server.script(...)`): a JSON object or text as the assistant's content, an HTTP error
(500, 429 with Retry-After…), or a dropped connection; when the queue is empty `server.default` answers
(by default an error, so an unexpected call shows up). Every request is recorded with its headers and body.
`reject_json_mode` makes the server answer 400 to any request with `response_format`, as servers without
JSON mode do. It runs in a thread (`http.server`), so it answers while the test's event loop waits on it.
`watch(database_url)` makes it count, on each request, the application's connections that are inside a
transaction or running a statement (`pg_stat_activity`): the proof that no LLM call holds one.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import asyncpg
import pytest


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # the assistant message's content, for a 200
    body: str | None = None  # a raw body instead (non-200 errors, broken completions)
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False  # close the connection without answering
    delay: float = 0.0


def answer(content: Any) -> Reply:
    """A completion whose content is `content` (a str as is, anything else JSON-encoded)."""
    return Reply(content=content if isinstance(content, str) else json.dumps(content))


def error(status: int, message: str = "scripted failure", **headers: str) -> Reply:
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
    # With `watch(database_url)`: the application's connections to that database that were in a
    # transaction or running a statement while this request was being answered.
    busy_connections: list[str] | None = None

    @property
    def system(self) -> str:
        return str(self.body["messages"][0]["content"])

    @property
    def user(self) -> str:
        return str(self.body["messages"][-1]["content"])


class FakeOpenAI:
    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.queue: list[Reply] = []
        self.default: Callable[[Request], Reply] = lambda _r: error(500, "no scripted reply left")
        self.reject_json_mode = False
        self.database_url: str | None = None
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                request = Request(self.path, {k.lower(): v for k, v in self.headers.items()}, json.loads(raw))
                if fake.database_url is not None:
                    request.busy_connections = asyncio.run(busy_connections(fake.database_url))
                reply = fake._next(request)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.drop:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if reply.status == 200 and reply.body is None:
                    payload = json.dumps(
                        {
                            "id": "chatcmpl-fake",
                            "object": "chat.completion",
                            "created": int(time.time()),
                            "model": request.body.get("model", "fake"),
                            "choices": [
                                {
                                    "index": 0,
                                    "message": {"role": "assistant", "content": reply.content or ""},
                                    "finish_reason": "stop",
                                }
                            ],
                        }
                    )
                else:
                    payload = reply.body or ""
                data = payload.encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-openai", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def watch(self, database_url: str) -> None:
        """On every request, record the application's busy connections to this database."""
        self.database_url = database_url

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self.queue.extend(replies)

    def reset(self) -> None:
        with self._lock:
            self.queue.clear()
            self.requests.clear()
            self.reject_json_mode = False
            self.database_url = None
            self.default = lambda _r: error(500, "no scripted reply left")

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            if request.path != "/v1/chat/completions":
                return error(404, f"unknown path {request.path}")
            if self.reject_json_mode and "response_format" in request.body:
                return error(400, "response_format is not supported")
            if self.queue:
                return self.queue.pop(0)
        return self.default(request)


# Connections of the application (not this query's own) holding a transaction open or running a statement.
# A worker's lease renewal is its own short transaction, not one held across the call: left out.
_BUSY = """
    SELECT state || ': ' || left(query, 200) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
      AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')
      AND query NOT LIKE 'UPDATE jobs SET locked_until%'
"""


async def busy_connections(database_url: str) -> list[str]:
    conn = await asyncpg.connect(database_url)
    try:
        return [str(row[0]) for row in await conn.fetch(_BUSY)]
    finally:
        await conn.close()


@pytest.fixture(scope="module")
def fake_openai_server() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI().start()
    yield server
    server.stop()


@pytest.fixture
def fake_openai(fake_openai_server: FakeOpenAI) -> Iterator[FakeOpenAI]:
    """The module's fake server, emptied of scripts and recorded requests for this test."""
    fake_openai_server.reset()
    yield fake_openai_server
    fake_openai_server.reset()
