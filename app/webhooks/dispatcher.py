"""The webhook dispatcher: a loop in every worker that delivers the namespaces' events to their endpoints.

Each round it leases the endpoints that have work due (`repository.claim`: a lease per endpoint, so one
worker at a time delivers to an endpoint, and a worker killed mid-delivery loses its lease, not the work),
and works through each leased endpoint on a task of its own, one message at a time:
1. in one transaction: renew the lease; take a due test or redelivery, else the stream's head: the pending
   delivery of the endpoint's next event, made from the first event past its cursor that its filters select
   (the cursor moves past it, and past the events the filters skip, in the same transaction);
2. with no database connection held: sign it (every valid secret) and POST it (app.webhooks.sender);
3. in one transaction: record the attempt. Delivered: the next event may go. Failed: retried with
   exponential backoff and jitter until the retry window (about a day) is over, then given up; the
   endpoint's next event waits until then, so an endpoint receives its events in event order. A 410
   disables the endpoint at once; a streak of failures older than `webhook_disable_after_seconds` too.
A crash between 2 and 3 sends the message again: a duplicate with the same `webhook-id`, never a gap.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.core import tracing
from app.core.db import database_unavailable
from app.core.metrics import (
    WEBHOOK_ATTEMPT_SECONDS,
    WEBHOOK_ATTEMPTS,
    WEBHOOK_DELIVERIES,
    WEBHOOK_DELIVERIES_QUEUED,
)
from app.core.settings import Settings
from app.webhooks import event_source, repository, signing
from app.webhooks.repository import DeliveryRow, EndpointRow
from app.webhooks.sender import Attempt, Sender
from app.webhooks.targets import AllowPrivate
from app.worker.context import JobContext
from app.worker.registry import registry

logger = logging.getLogger("agent_memory.webhooks")

# A retry due within this long is waited for by the task that holds the endpoint (no connection held)
# rather than given back to be claimed again.
SHORT_WAIT_SECONDS = 2.0
# Events made into deliveries at a time (one statement); the next batch is made when they are all over.
FANOUT_BATCH = 100
# Messages sent to one endpoint before its lease is given back, so one busy endpoint cannot keep a slot.
MESSAGES_PER_LEASE = 100
# An endpoint's lease is renewed before each message, so it only has to outlast one attempt (bounded by the
# delivery timeout) and the two transactions around it; it is also how long an endpoint whose worker died
# waits before another takes it up.
LEASE_MARGIN_SECONDS = 5.0
# After a lost database connection, how long a task keeps trying to give its endpoint back (past it, the
# lease expires on its own).
GIVE_BACK_SECONDS = 10.0
MAX_RETRY_DELAY_SECONDS = 4 * 3600.0
# Each wait is the base doubled per failed attempt, spread ±50% so endpoints that failed together retry
# apart.
JITTER = (0.5, 1.5)
HOUSEKEEPING_SECONDS = 30.0
# The delivery log keeps finished deliveries this long (the events feed's default retention).
LOG_RETENTION_SECONDS = 7 * 86_400.0
RECONNECT_MAX_SECONDS = 5.0


def _scheduled_delay(settings: Settings, attempts: int) -> float:
    """The wait after `attempts` failed attempts, before jitter: the base doubled each time, capped."""
    return float(
        min(settings.webhook_retry_base_seconds * 2.0 ** max(attempts - 1, 0), MAX_RETRY_DELAY_SECONDS)
    )


def retry_delay(settings: Settings, attempts: int) -> float:
    """Seconds before the next attempt after `attempts` failed ones."""
    return _scheduled_delay(settings, attempts) * random.uniform(*JITTER)


def attempts_allowed(settings: Settings) -> int:
    """Attempts of a stream delivery before it is given up: as many as the schedule fits in the retry window
    (counted in attempts, not from when the delivery was made: a delivery made in a batch may wait long for
    its turn). With the defaults: 18 attempts over about a day."""
    attempts, waited = 1, 0.0
    while waited < settings.webhook_retry_window_seconds:
        waited += _scheduled_delay(settings, attempts)
        attempts += 1
    return attempts


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Dispatcher:
    def __init__(self, ctx: JobContext, worker_id: str) -> None:
        self.ctx = ctx
        self.settings = ctx.settings
        self.me = worker_id
        self.sender = Sender(
            AllowPrivate.parse(ctx.settings.webhook_allow_private), ctx.settings.webhook_timeout_seconds
        )
        self.lease_seconds = 2 * ctx.settings.webhook_timeout_seconds + LEASE_MARGIN_SECONDS
        self._active: dict[tuple[int, str], asyncio.Task[None]] = {}
        self._last_housekeeping = 0.0
        # Set when an endpoint was given back with work left (its batch ran out): claim again at once.
        self._more = asyncio.Event()

    async def run(self, stopping: asyncio.Event) -> None:
        pause = self.settings.worker_poll_seconds
        try:
            while not stopping.is_set():
                try:
                    await self._claim_and_start()
                    await self._housekeeping()
                    pause = self.settings.worker_poll_seconds
                except Exception as exc:
                    if not database_unavailable(exc):
                        logger.exception("webhook dispatcher error")
                    pause = min(max(pause * 2, 0.2), RECONNECT_MAX_SECONDS)
                await self._pause(stopping, pause)
        finally:
            # In-flight messages finish (each bounded by the delivery timeout); what is not recorded is sent
            # again by whoever leases the endpoint next, with the same webhook-id.
            if self._active:
                await asyncio.wait(
                    list(self._active.values()), timeout=self.settings.webhook_timeout_seconds + 5
                )
            leftover = list(self._active.values())
            for task in leftover:
                task.cancel()
            # Awaited, so that none is left holding a connection once the worker has stopped.
            await asyncio.gather(*leftover, return_exceptions=True)
            await self.sender.aclose()

    async def _pause(self, stopping: asyncio.Event, seconds: float) -> None:
        """Wait `seconds`, or less when a stop is asked or an endpoint was given back with work left."""
        waits = [asyncio.ensure_future(stopping.wait()), asyncio.ensure_future(self._more.wait())]
        try:
            await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()
        self._more.clear()

    async def _claim_and_start(self) -> None:
        free = self.settings.webhook_concurrency - len(self._active)
        if free <= 0:
            return
        async with self.ctx.transaction() as db:  # ids for the events committed since, committed first
            await event_source.number_all(db)
        async with self.ctx.transaction() as db:
            claimed = await repository.claim(
                db, self.me, self.lease_seconds, free, event_source.newer_than_cursor()
            )
        for endpoint in claimed:
            key = (endpoint.namespace_id, endpoint.id)
            task = asyncio.create_task(self._serve(*key), name=f"webhook {endpoint.id}")
            self._active[key] = task
            task.add_done_callback(functools.partial(self._forget, key))

    def _forget(self, key: tuple[int, str], _task: asyncio.Task[None]) -> None:
        self._active.pop(key, None)

    async def _housekeeping(self) -> None:
        now = time.monotonic()
        if now - self._last_housekeeping < HOUSEKEEPING_SECONDS:
            return
        self._last_housekeeping = now
        async with self.ctx.transaction() as db:
            await repository.prune_finished(db, LOG_RETENTION_SECONDS)
            counts = await repository.status_counts(db)
        for status in ("pending", "delivered", "failed"):
            WEBHOOK_DELIVERIES.labels(status).set(counts.get(status, 0))

    # -- one endpoint -----------------------------------------------------------------------------

    async def _serve(self, namespace_id: int, endpoint_id: str) -> None:
        """Deliver the endpoint's due messages in order, then give its lease back. Never raises. Each
        message's outcome is recorded in the transaction that takes the next one."""
        try:
            async with self.ctx.transaction() as db:
                work = await self._next_message(db, namespace_id, endpoint_id)
            for _ in range(MESSAGES_PER_LEASE):
                if work is None:
                    return
                endpoint, delivery, wait = work
                if wait > 0:
                    await asyncio.sleep(wait)  # a retry due soon: no connection is held meanwhile
                attempt = await self._send(endpoint, delivery)
                async with self.ctx.transaction() as db:
                    await self._record(db, endpoint, delivery, attempt)
                    work = await self._next_message(db, namespace_id, endpoint_id)
            if work is not None:
                async with self.ctx.transaction() as db:  # more to do: let it be claimed again, by anyone
                    await repository.release(db, namespace_id, endpoint_id, self.me, None)
                self._more.set()
        except Exception as exc:
            # An unrecorded attempt is sent again (same webhook-id) by whoever takes the endpoint up next.
            if database_unavailable(exc):
                logger.warning(
                    "webhook endpoint %s: database unavailable: %s", endpoint_id, type(exc).__name__
                )
            else:
                logger.exception("webhook endpoint %s: dispatcher error", endpoint_id)
            await self._give_back(namespace_id, endpoint_id)

    async def _give_back(self, namespace_id: int, endpoint_id: str) -> None:
        """Release the endpoint as soon as the database answers again (a restart takes a second or two),
        rather than leave it until its lease expires."""
        deadline = time.monotonic() + GIVE_BACK_SECONDS
        while time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            try:
                async with self.ctx.transaction() as db:
                    await repository.release(db, namespace_id, endpoint_id, self.me, None)
                self._more.set()
                return
            except Exception as exc:
                if not database_unavailable(exc):
                    return

    async def _next_message(
        self, db: AsyncSession, namespace_id: int, endpoint_id: str
    ) -> tuple[EndpointRow, DeliveryRow, float] | None:
        """The endpoint (lease renewed), its next message and the seconds until it is due (at most
        `SHORT_WAIT_SECONDS`); None (lease released) when there is none due by then."""
        leased = await repository.leased_endpoint(db, namespace_id, endpoint_id, self.me, self.lease_seconds)
        if leased is None:
            return None  # taken over after our lease expired
        endpoint, namespace = leased
        found = await repository.next_delivery(db, namespace_id, endpoint_id, endpoint.enabled)
        if found is None and endpoint.enabled and await self._fan_out(db, endpoint, namespace):
            found = await repository.next_delivery(db, namespace_id, endpoint_id, endpoint.enabled)
        if found is not None:
            delivery, wait = found
            if wait <= SHORT_WAIT_SECONDS:
                return endpoint, delivery, wait
            await repository.release(db, namespace_id, endpoint_id, self.me, delivery.next_attempt_at)
            return None
        await repository.release(db, namespace_id, endpoint_id, self.me, None)
        return None

    async def _fan_out(self, db: AsyncSession, endpoint: EndpointRow, namespace: str) -> int:
        """Deliveries of the next events past the cursor that the endpoint's filters select (up to
        `FANOUT_BATCH`), the cursor moved past them (or as far as the read reached when there is none);
        how many were made."""
        found, reached = await event_source.after(
            db, endpoint.namespace_id, endpoint.cursor, FANOUT_BATCH, endpoint.types, endpoint.profile
        )
        if reached > endpoint.cursor:
            await repository.advance_cursor(db, endpoint.namespace_id, endpoint.id, self.me, reached)
        if not found:
            return 0
        made = await repository.insert_stream_deliveries(
            db,
            endpoint.namespace_id,
            endpoint.id,
            [repository.NewDelivery(e.id, e.type, event_source.body(e, namespace)) for e in found],
        )
        WEBHOOK_DELIVERIES_QUEUED.labels("event").inc(made)
        return len(found)

    def _secrets(self, endpoint: EndpointRow) -> list[str]:
        valid = [endpoint.secret]
        if (
            endpoint.previous_secret is not None
            and endpoint.previous_secret_until is not None
            and endpoint.previous_secret_until > _utcnow()
        ):
            valid.append(endpoint.previous_secret)
        return valid

    async def _send(self, endpoint: EndpointRow, delivery: DeliveryRow) -> Attempt:
        body = delivery.body.encode()
        headers = signing.headers(self._secrets(endpoint), delivery.message_id, int(time.time()), body)
        with tracing.webhook_span(
            endpoint.id, delivery.event_type, delivery.message_id, delivery.attempts + 1
        ):
            attempt = await self.sender.send(endpoint.url, headers, body)
        WEBHOOK_ATTEMPT_SECONDS.observe(attempt.milliseconds / 1000)
        return attempt

    async def _record(
        self, db: AsyncSession, endpoint: EndpointRow, delivery: DeliveryRow, attempt: Attempt
    ) -> None:
        attempts = delivery.attempts + 1
        extra: dict[str, Any] = {
            "endpoint_id": endpoint.id,
            "delivery_id": delivery.id,
            "message_id": delivery.message_id,
            "event_type": delivery.event_type,
            "attempt": attempts,
            "status": attempt.status,
            "duration_ms": attempt.milliseconds,
        }
        if attempt.delivered:
            await repository.record_attempt(
                db,
                delivery,
                status="delivered",
                response_status=attempt.status,
                response_ms=attempt.milliseconds,
                error=None,
                retry_in_seconds=None,
            )
            if endpoint.failing_since is not None:
                await repository.endpoint_succeeded(db, endpoint.namespace_id, endpoint.id)
            WEBHOOK_ATTEMPTS.labels("delivered").inc()
            logger.info("webhook %s delivered to endpoint %s", delivery.message_id, endpoint.id, extra=extra)
            return
        error = attempt.error or "failed"
        given_up = not delivery.ordered or attempt.gone or attempts >= attempts_allowed(self.settings)
        delay = None if given_up else retry_delay(self.settings, attempts)
        await repository.record_attempt(
            db,
            delivery,
            status="failed" if given_up else "pending",
            response_status=attempt.status,
            response_ms=attempt.milliseconds,
            error=error,
            retry_in_seconds=delay,
        )
        WEBHOOK_ATTEMPTS.labels("failed" if given_up else "retried").inc()
        logger.info(
            "webhook %s to endpoint %s failed (attempt %d): %s; %s",
            delivery.message_id,
            endpoint.id,
            attempts,
            error,
            "given up" if given_up else f"retry in {delay:.1f}s",
            extra={**extra, "error": error},
        )
        if not delivery.ordered:
            return  # a test or redelivery says nothing about the stream's health
        reason: str | None
        if attempt.gone:
            reason = f"the endpoint answered 410 Gone on {_utcnow():%Y-%m-%dT%H:%M:%SZ}"
            await repository.disable(db, endpoint.namespace_id, endpoint.id, reason)
        else:
            reason = await repository.endpoint_failed(
                db, endpoint.namespace_id, endpoint.id, self.settings.webhook_disable_after_seconds, error
            )
        if reason is not None:
            logger.warning("webhook endpoint %s disabled: %s", endpoint.id, reason, extra=extra)


@registry.loop
async def run_dispatcher(ctx: JobContext, worker_id: str, stopping: asyncio.Event) -> None:
    """The worker's webhook dispatcher (see the module's docstring)."""
    await Dispatcher(ctx, worker_id).run(stopping)
