"""What the sync and async clients share: where the server is and which key to send (arguments, else the
environment), which calls may be retried and how long to wait between tries, the consistency token, and the
small helpers that build paths and bodies."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from agent_memory_client import __version__

DEFAULT_URL = "http://127.0.0.1:8080"
URL_ENV = "AGENT_MEMORY_URL"
API_KEY_ENV = "AGENT_MEMORY_API_KEY"
NAMESPACE_ENV = "AGENT_MEMORY_NAMESPACE"

# Read-your-writes across replicas: the server may answer a write with this header (a token naming how far
# the write got); sent back on every later request, it lets the server serve reads from a replica that has
# caught up to it, or from the primary. The client keeps the latest token it was given.
CONSISTENCY_HEADER = "Agent-Memory-Consistency"

M = TypeVar("M", bound=BaseModel)


class _Unset:
    """Marks an argument that was not given, where `None` means something (`parent_id=None`: a new root)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


def resolve_base_url(base_url: str | None) -> str:
    """The server's root: the argument, else AGENT_MEMORY_URL, else the local default. A trailing `/v1` is
    dropped (the client adds it), so either form of the address works."""
    url = (base_url or os.environ.get(URL_ENV) or DEFAULT_URL).rstrip("/")
    return url.removesuffix("/v1")


def resolve_api_key(api_key: str | None) -> str | None:
    return api_key or os.environ.get(API_KEY_ENV) or None


def resolve_namespace(namespace: str | None) -> str | None:
    return namespace or os.environ.get(NAMESPACE_ENV) or None


def default_headers(api_key: str | None, extra: Mapping[str, str] | None) -> dict[str, str]:
    headers = {"User-Agent": f"agent-memory-client/{__version__}", "Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    headers.update(extra or {})
    return headers


class RetryPolicy:
    """How an idempotent call is retried on 503 and on a connection that failed or timed out: up to
    `retries` more tries, waiting `backoff * 2**attempt` seconds (with jitter, at most `max_backoff`), or
    what the server's `Retry-After` asks (capped at `max_backoff` as well)."""

    def __init__(self, retries: int = 3, backoff: float = 0.5, max_backoff: float = 10.0) -> None:
        if retries < 0 or backoff < 0 or max_backoff < 0:
            raise ValueError("retries, backoff and max_backoff cannot be negative")
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff

    def delay(self, attempt: int, response: httpx.Response | None) -> float:
        if response is not None:
            asked = response.headers.get("Retry-After", "")
            if asked.replace(".", "", 1).isdigit():
                return min(float(asked), self.max_backoff)
        return float(min(self.backoff * 2**attempt * random.uniform(0.5, 1.0), self.max_backoff))


class ConsistencyToken:
    """The latest consistency token the server answered (see CONSISTENCY_HEADER); `None` before any."""

    def __init__(self, header: str = CONSISTENCY_HEADER) -> None:
        self.header = header
        self.value: str | None = None

    def observe(self, response: httpx.Response) -> None:
        token = response.headers.get(self.header)
        if token:
            self.value = token

    def apply(self, headers: dict[str, str]) -> dict[str, str]:
        if self.value is not None and self.header not in headers:
            headers[self.header] = self.value
        return headers


def segment(value: str) -> str:
    """One path segment, escaped: names and ids may hold any character (`/`, spaces, non-ASCII)."""
    return quote(value, safe="")


def body(model: type[BaseModel], /, **values: Any) -> dict[str, Any]:
    """A request body: the fields that were given (None and UNSET left out, so the server's defaults
    apply), checked against the body's model, camelCase as the API spells them."""
    given = {name: value for name, value in values.items() if value is not None and value is not UNSET}
    return model(**given).model_dump(mode="json", by_alias=True, exclude_unset=True)


def query(**values: Any) -> dict[str, Any]:
    """Query parameters that were given, in the API's spelling (`session_id` → `sessionId`)."""
    params: dict[str, Any] = {}
    for name, value in values.items():
        if value is None:
            continue
        head, *rest = name.split("_")
        key = head + "".join(word.title() for word in rest)
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, Mapping):
            value = json.dumps(dict(value), separators=(",", ":"))
        elif hasattr(value, "isoformat"):
            value = value.isoformat()
        params[key] = value
    return params


def parse(model: type[M], response: httpx.Response) -> M:
    return model.model_validate(response.json())
