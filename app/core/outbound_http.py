"""What our clients of outside HTTP services (the LLM, an embeddings endpoint) share: which statuses are
worth a retry, how long a server's `Retry-After` may make us wait, and how a failed answer is quoted in an
error message, how a request is retried, and how the client is built."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Any

import httpx

logger = logging.getLogger("agent_memory.outbound_http")

# Timeouts, conflicts, rate limits and server-side failures: the same request may succeed later.
RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
# A server asking for longer than this is not worth waiting for inside one job or request.
MAX_RETRY_AFTER_SECONDS = 30.0


def excerpt(text: str, limit: int = 300) -> str:
    """The text on one line, cut at `limit` characters: enough of an answer to show in an error."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


def retry_after(response: httpx.Response) -> float | None:
    """The answer's `Retry-After` in seconds (capped), or None when it has none we can read."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return min(max(float(value), 0.0), MAX_RETRY_AFTER_SECONDS)
    except ValueError:
        return None  # an HTTP date: rare from these servers, fall back to our own backoff


# Connecting is quick or not at all: a slow answer may take the whole timeout, a connect never needs more.
CONNECT_TIMEOUT_CAP_SECONDS = 10.0


def json_client(
    base_url: str,
    api_key: str | None,
    timeout_seconds: float,
    transport: httpx.AsyncBaseTransport | None = None,
) -> httpx.AsyncClient:
    """The HTTP client of an OpenAI-compatible endpoint: JSON answers, a bearer key when there is one."""
    headers = {"Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return httpx.AsyncClient(
        base_url=base_url,
        headers=headers,
        timeout=httpx.Timeout(timeout_seconds, connect=min(timeout_seconds, CONNECT_TIMEOUT_CAP_SECONDS)),
        transport=transport,
    )


# Each wait is the base doubled per attempt, spread ±25% so clients that failed together retry apart.
BACKOFF_JITTER = (0.75, 1.25)


class Rejected(Exception):
    """The endpoint answered with a status not worth a retry."""

    def __init__(self, status: int, problem: str) -> None:
        super().__init__(problem)
        self.status = status
        self.problem = problem


class Exhausted(Exception):
    """Every attempt failed with a retryable problem; `problem` is the last one."""

    def __init__(self, attempts: int, problem: str) -> None:
        super().__init__(problem)
        self.attempts = attempts
        self.problem = problem


async def post_json(
    http: httpx.AsyncClient,
    path: str,
    body: dict[str, Any],
    *,
    retries: int,
    backoff_seconds: float,
    label: str,
    slots: asyncio.Semaphore | None = None,
) -> httpx.Response:
    """POST `body` until a 200 (returned): transport errors and `RETRY_STATUSES` are retried up to
    `retries` times with exponential backoff and jitter (or the server's `Retry-After`), any other status
    raises `Rejected` at once, and running out of attempts raises `Exhausted`. `slots` bounds how many
    requests are in flight (held for the request only, never across a wait)."""
    attempt = 0
    while True:
        attempt += 1
        delay: float | None = None
        try:
            async with slots if slots is not None else contextlib.nullcontext():
                response = await http.post(path, json=body)
        except httpx.TransportError as exc:  # connect/read errors and timeouts
            problem = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        else:
            if response.status_code == 200:
                return response
            problem = f"HTTP {response.status_code}: {excerpt(response.text)}"
            if response.status_code not in RETRY_STATUSES:
                raise Rejected(response.status_code, problem)
            delay = retry_after(response)
        if attempt > retries:
            raise Exhausted(attempt, problem)
        if delay is None:
            delay = backoff_seconds * 2 ** (attempt - 1) * random.uniform(*BACKOFF_JITTER)
        logger.warning("%s attempt %d failed (%s); retrying in %.2fs", label, attempt, problem, delay)
        await asyncio.sleep(delay)
