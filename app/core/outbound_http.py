"""What our clients of outside HTTP services (the LLM, an embeddings endpoint) share: which statuses are
worth a retry, how long a server's `Retry-After` may make us wait, and how a failed answer is quoted in an
error message."""

from __future__ import annotations

import httpx

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
