"""A fake OpenAI chat-completions endpoint on 127.0.0.1 with scripted answers (see tests/fake_server.py).

Tests queue replies (`server.script(...)`): a JSON object or text as the assistant's content, an HTTP error
(500, 429 with Retry-After…), or a dropped connection; when the queue is empty `server.default` answers
(by default an error, so an unexpected call shows up). `reject_json_mode` makes the server answer 400 to
any request with `response_format`, as servers without JSON mode do.
`watch(database_url)` makes it count, on each request, the application's connections that are inside a
transaction or running a statement (`pg_stat_activity`): the proof that no LLM call holds one.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import asyncpg

from tests.fake_server import FakeServer, Reply, Request, dropped, error, server_fixtures

__all__ = [
    "ChatRequest",
    "FakeOpenAI",
    "Reply",
    "answer",
    "dropped",
    "error",
    "fake_openai",
    "fake_openai_server",
]


def answer(content: Any) -> Reply:
    """A completion whose content is `content` (a str as is, anything else JSON-encoded)."""
    return Reply(content=content if isinstance(content, str) else json.dumps(content))


@dataclass
class ChatRequest(Request):
    # With `watch(database_url)`: the application's connections to that database that were in a
    # transaction or running a statement while this request was being answered.
    busy_connections: list[str] | None = None

    @property
    def system(self) -> str:
        return str(self.body["messages"][0]["content"])

    @property
    def user(self) -> str:
        return str(self.body["messages"][-1]["content"])


class FakeOpenAI(FakeServer):
    path = "/v1/chat/completions"
    name = "fake-openai"

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[ChatRequest] = []
        self.default: Callable[[ChatRequest], Reply] = lambda _r: error(500, "no scripted reply left")
        self.reject_json_mode = False
        self.database_url: str | None = None

    def watch(self, database_url: str) -> None:
        """On every request, record the application's busy connections to this database."""
        self.database_url = database_url

    def reset(self) -> None:
        super().reset()
        self.reject_json_mode = False
        self.database_url = None
        self.default = lambda _r: error(500, "no scripted reply left")

    def make_request(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> ChatRequest:
        request = ChatRequest(path, headers, body)
        if self.database_url is not None:
            request.busy_connections = asyncio.run(busy_connections(self.database_url))
        return request

    def refuse(self, request: ChatRequest) -> Reply | None:
        if self.reject_json_mode and "response_format" in request.body:
            return error(400, "response_format is not supported")
        return None

    def default_reply(self, request: ChatRequest) -> Reply:
        return self.default(request)

    def answer(self, request: ChatRequest, reply: Reply) -> str:
        return json.dumps(
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


fake_openai_server, fake_openai = server_fixtures(FakeOpenAI, "fake_openai")
