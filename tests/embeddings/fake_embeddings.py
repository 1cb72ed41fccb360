"""A real HTTP server on 127.0.0.1 speaking OpenAI's `POST /v1/embeddings` with controlled vectors.

A text's vector is a sum of unit axes, one per *concept* it mentions (`CONCEPTS`: words that mean the same
thing share an axis, so "lemon tart" and "dessert" land together while sharing no word), plus a small
per-text component so no two texts are identical; a text with no concept gets only that component. Tests
can queue failures (`script(error(500))`, a dropped connection, a delay) before the default answer, and
every request is recorded. It runs in a thread, so it answers while the test's event loop waits on it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

DIMENSIONS = 16

# Concept → the words that evoke it (one axis each). "zorbling" and "quennet" are invented, so no lexical
# channel (stemming, expansions, category words) can ever link them: only these vectors do.
CONCEPTS: dict[str, tuple[str, ...]] = {
    "zorbling": ("zorbling", "zorblings", "quennet", "quennets"),
    "blorf": ("blorf", "blorfs", "snizzle", "snizzles"),
    "dessert": ("dessert", "tart", "cake", "pie", "pastry", "sweet"),
    "pet": ("pet", "cat", "dog", "kitten", "puppy", "animal"),
    "travel": ("trip", "flight", "journey", "travel", "abroad", "vacation"),
    "music": ("music", "guitar", "song", "concert", "band"),
}


def vector_for(text: str, dimensions: int = DIMENSIONS) -> list[float]:
    words = set(re.findall(r"[a-z]+", text.lower()))
    vector = [0.0] * dimensions
    for axis, synonyms in enumerate(CONCEPTS.values()):
        if words & set(synonyms):
            vector[axis] = 1.0
    # The text's own small component on the axes after the concepts, so vectors are never all equal.
    digest = hashlib.sha256(text.encode()).digest()
    spare = dimensions - len(CONCEPTS)
    vector[len(CONCEPTS) + digest[0] % spare] += 0.3
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector]


@dataclass
class Reply:
    status: int = 200
    body: str | None = None  # a raw body instead of the computed vectors
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False
    delay: float = 0.0


def error(status: int, **headers: str) -> Reply:
    return Reply(
        status=status,
        body=json.dumps({"error": {"message": "scripted failure"}}),
        headers={k.replace("_", "-"): v for k, v in headers.items()},
    )


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class FakeEmbeddings:
    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.queue: list[Reply] = []
        self.reversed_order = False  # answer items in reverse order (with their `index`), as servers may
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                request = Request(self.path, {k.lower(): v for k, v in self.headers.items()}, json.loads(raw))
                reply = fake._next(request)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.drop:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                data = (reply.body if reply.body is not None else fake._answer(request)).encode()
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
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="fake-embeddings", daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> FakeEmbeddings:
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
            self.reversed_order = False

    def inputs(self) -> list[str]:
        """Every text the server was asked to embed, in order."""
        return [text for r in self.requests for text in r.body["input"]]

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            if request.path != "/v1/embeddings":
                return error(404)
            if self.queue:
                return self.queue.pop(0)
        return Reply()

    def _answer(self, request: Request) -> str:
        texts = request.body["input"]
        texts = [texts] if isinstance(texts, str) else texts
        dimensions = int(request.body.get("dimensions") or DIMENSIONS)
        items = [
            {"object": "embedding", "index": i, "embedding": vector_for(t, dimensions)}
            for i, t in enumerate(texts)
        ]
        if self.reversed_order:
            items.reverse()
        return json.dumps({"object": "list", "data": items, "model": request.body.get("model")})


@pytest.fixture(scope="module")
def fake_embeddings_server() -> Iterator[FakeEmbeddings]:
    server = FakeEmbeddings().start()
    yield server
    server.stop()


@pytest.fixture
def fake_embeddings(fake_embeddings_server: FakeEmbeddings) -> Iterator[FakeEmbeddings]:
    """The module's fake server, emptied of scripts and recorded requests for this test."""
    fake_embeddings_server.reset()
    yield fake_embeddings_server
    fake_embeddings_server.reset()
