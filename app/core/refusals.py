"""Refusing a key that is not a live key, cheaply: a made-up key must cost less than a real request.

A key not in the process's cache is read from the database. 150 clients sending made-up keys (each a
lookup) took a legitimate client's p95 from 1.1 s to 11.3 s. Three bounds, all in /metrics:

- a key refused is refused again without a lookup for a short time (`core.auth.KeyCache`; a key made since
  is announced to every process, which then forgets what it refused, as it forgets a revoked key);
- failed authentications are counted per client address (a token bucket: `FAILURE_BURST` at once, then
  `FAILURE_RATE` a second); past it, that address's keys the process has never verified are answered 429
  `rate_limited` with `Retry-After` without a lookup, and after a wait (`REFUSAL_WAIT_SECONDS`): a client
  that guesses keys as fast as it is answered then guesses about one a second per connection instead of
  hundreds, and the refused requests stop taking the event loop from the legitimate ones (150 guessers
  took a legitimate client's p95 from 14 to 395 ms with immediate 429s). The wait holds no database
  connection and no CPU, only the guesser's own connection;
- at most `LOOKUP_SLOTS` lookups of keys the process has never verified run at a time; past it such a
  request waits a moment (`LOOKUP_WAIT_SECONDS`), then is answered 503 with `Retry-After`.

A key this process verified before (its cache entry expired since) is always looked up: a client sharing an
address with a flood of made-up keys keeps working.

The 429 of an address past its budget is decided before routing (`core.auth.early_refusal`, called by
`core.middleware.AuthRefusalMiddleware`): a refused request then costs the HTTP parsing and the answer,
not the route's dependencies and the error handlers (≈ 0.7 ms of CPU a request otherwise).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import Counter, Gauge

from app.core.errors import RateLimited, Unavailable

FAILURE_BURST = 100.0
FAILURE_RATE = 10.0  # failures a second an address may keep making
LOOKUP_SLOTS = 4
LOOKUP_WAIT_SECONDS = 0.5
REFUSAL_WAIT_SECONDS = 1.0
# Beyond this many addresses tracked, the oldest half is forgotten: bounded memory.
MAX_TRACKED = 10_000

AUTH_REFUSED = Counter(
    "agent_memory_auth_refused_total",
    "Requests refused by authentication, by reason: unknown (no such live key, looked up), unknown_cached "
    "(the same key refused lately, no lookup), rate_limited (the address's failures past its budget), busy "
    "(every key lookup slot taken)",
    ["reason"],
)
KEY_LOOKUPS_IN_FLIGHT = Gauge(
    "agent_memory_key_lookups_in_flight",
    "Database lookups of keys this process never verified, running now",
    multiprocess_mode="livesum",
)


@dataclass
class _Bucket:
    tokens: float
    at: float


@dataclass
class AuthRefusals:
    """This process's memory of failed authentications; one per app (`app.state.auth_refusals`)."""

    buckets: dict[str, _Bucket] = field(default_factory=dict)  # client address → its failure budget
    lookups: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(LOOKUP_SLOTS))

    # -- failures per address ---------------------------------------------------------------------
    def _bucket(self, address: str) -> _Bucket:
        now = time.monotonic()
        bucket = self.buckets.get(address)
        if bucket is None:
            _bounded(self.buckets)
            bucket = self.buckets[address] = _Bucket(FAILURE_BURST, now)
        bucket.tokens = min(FAILURE_BURST, bucket.tokens + (now - bucket.at) * FAILURE_RATE)
        bucket.at = now
        return bucket

    async def check_address(self, address: str | None, *, take: bool = True) -> None:
        """429 when `address` has spent its failure budget (a key it sends is then not looked up), after
        `REFUSAL_WAIT_SECONDS`. Else, with `take`, one failure is taken from the budget while the key is
        looked up (`refund` gives it back): many requests at once cannot all pass on the last one left."""
        if address is None:
            return
        bucket = self._bucket(address)
        if bucket.tokens < 1:
            AUTH_REFUSED.labels("rate_limited").inc()
            wait = max(1, int((1 - bucket.tokens) / FAILURE_RATE + 0.999))
            await asyncio.sleep(REFUSAL_WAIT_SECONDS)
            raise RateLimited("too many failed authentications from this address: retry later", wait)
        if take:
            bucket.tokens -= 1

    def refund(self, address: str | None) -> None:
        """The failure `check_address` took, given back once the lookup is over (`failed` counts it if the
        key was refused)."""
        if address is not None:
            bucket = self._bucket(address)
            bucket.tokens = min(FAILURE_BURST, bucket.tokens + 1)

    def failed(self, address: str | None) -> None:
        if address is not None:
            bucket = self._bucket(address)
            bucket.tokens = max(0.0, bucket.tokens - 1)

    # -- lookups of keys never verified ------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def lookup_slot(self) -> AsyncIterator[None]:
        try:
            async with asyncio.timeout(LOOKUP_WAIT_SECONDS):
                await self.lookups.acquire()
        except TimeoutError:
            AUTH_REFUSED.labels("busy").inc()
            raise Unavailable("too many keys being checked at once: retry shortly") from None
        KEY_LOOKUPS_IN_FLIGHT.inc()
        try:
            yield
        finally:
            KEY_LOOKUPS_IN_FLIGHT.dec()
            self.lookups.release()


def _bounded(table: dict[str, Any]) -> None:
    if len(table) >= MAX_TRACKED:
        for key in list(table)[: MAX_TRACKED // 2]:  # insertion order: the oldest first
            del table[key]
