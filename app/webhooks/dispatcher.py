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
import contextlib
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

# Messages sent to one endpoint before its lease is given back, so one busy endpoint cannot keep a slot.
MESSAGES_PER_LEASE = 100
LEASE_SECONDS = 60.0  # longer than a delivery's timeout: renewed before each message
MAX_RETRY_DELAY_SECONDS = 4 * 3600.0
# Each wait is the base doubled per failed attempt, spread ±50% so endpoints that failed together retry
# apart.
JITTER = (0.5, 1.5)
HOUSEKEEPING_SECONDS = 30.0
# The delivery log keeps finished deliveries this long (the events feed's default retention).
LOG_RETENTION_SECONDS = 7 * 86_400.0
RECONNECT_MAX_SECONDS = 5.0


def retry_delay(settings: Settings, attempts: int) -> float:
    """Seconds before the next attempt after `attempts` failed ones."""
    base = settings.webhook_retry_base_seconds * 2.0 ** max(attempts - 1, 0)
    return min(base, MAX_RETRY_DELAY_SECONDS) * random.uniform(*JITTER)


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
        self._active: dict[tuple[int, str], asyncio.Task[None]] = {}
        self._last_housekeeping = 0.0

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
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stopping.wait(), timeout=pause)
        finally:
            # In-flight messages finish (each bounded by the delivery timeout); what is not recorded is sent
            # again by whoever leases the endpoint next, with the same webhook-id.
            if self._active:
                await asyncio.wait(
                    list(self._active.values()), timeout=self.settings.webhook_timeout_seconds + 5
                )
            for task in self._active.values():
                task.cancel()
            await self.sender.aclose()

    async def _claim_and_start(self) -> None:
        free = self.settings.webhook_concurrency - len(self._active)
        if free <= 0:
            return
        async with self.ctx.transaction() as db:
            claimed = await repository.claim(
                db, self.me, LEASE_SECONDS, free, event_source.newer_than_cursor()
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
        """Deliver the endpoint's due messages in order, then give its lease back. Never raises."""
        try:
            for _ in range(MESSAGES_PER_LEASE):
                async with self.ctx.transaction() as db:
                    work = await self._next_message(db, namespace_id, endpoint_id)
                if work is None:
                    return
                endpoint, delivery = work
                attempt = await self._send(endpoint, delivery)
                async with self.ctx.transaction() as db:
                    await self._record(db, endpoint, delivery, attempt)
            async with self.ctx.transaction() as db:  # more to do: let it be claimed again, by anyone
                await repository.release(db, namespace_id, endpoint_id, self.me, None)
        except Exception as exc:
            # The lease expires and the endpoint is taken up again; an unrecorded attempt is sent again.
            if database_unavailable(exc):
                logger.warning(
                    "webhook endpoint %s: database unavailable: %s", endpoint_id, type(exc).__name__
                )
            else:
                logger.exception("webhook endpoint %s: dispatcher error", endpoint_id)

    async def _next_message(
        self, db: AsyncSession, namespace_id: int, endpoint_id: str
    ) -> tuple[EndpointRow, DeliveryRow] | None:
        """The endpoint (lease renewed) and its next due message; None (lease released) when there is none."""
        leased = await repository.leased_endpoint(db, namespace_id, endpoint_id, self.me, LEASE_SECONDS)
        if leased is None:
            return None  # taken over after our lease expired
        endpoint, namespace = leased
        on_request = await repository.due_on_request(db, namespace_id, endpoint_id)
        if on_request is not None:
            return endpoint, on_request
        if endpoint.enabled:
            head = await repository.stream_head(db, namespace_id, endpoint_id)
            if head is None:
                made = await self._fan_out(db, endpoint, namespace)
                head = (made, True) if made is not None else None
            if head is not None:
                delivery, due = head
                if due:
                    return endpoint, delivery
                await repository.release(db, namespace_id, endpoint_id, self.me, delivery.next_attempt_at)
                return None
        await repository.release(db, namespace_id, endpoint_id, self.me, None)
        return None

    async def _fan_out(self, db: AsyncSession, endpoint: EndpointRow, namespace: str) -> DeliveryRow | None:
        """The delivery of the first event past the cursor that the endpoint's filters select, the cursor
        moved to it (or as far as the read reached when there is none)."""
        found, reached = await event_source.after(
            db, endpoint.namespace_id, endpoint.cursor, 1, endpoint.types, endpoint.profile
        )
        if reached > endpoint.cursor:
            await repository.advance_cursor(db, endpoint.namespace_id, endpoint.id, self.me, reached)
        if not found:
            return None
        event = found[0]
        delivery = await repository.insert_delivery(
            db,
            namespace_id=endpoint.namespace_id,
            endpoint_id=endpoint.id,
            delivery_id=repository.new_delivery_id(),
            message_id=signing.new_message_id(),
            event_id=event.id,
            event_type=event.type,
            ordered=True,
            body=event_source.body(event, namespace),
        )
        WEBHOOK_DELIVERIES_QUEUED.labels("event").inc()
        return delivery

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
            await repository.endpoint_succeeded(db, endpoint.namespace_id, endpoint.id)
            WEBHOOK_ATTEMPTS.labels("delivered").inc()
            logger.info("webhook %s delivered to endpoint %s", delivery.message_id, endpoint.id, extra=extra)
            return
        error = attempt.error or "failed"
        given_up = (
            not delivery.ordered
            or attempt.gone
            or (_utcnow() - delivery.created_at).total_seconds() >= self.settings.webhook_retry_window_seconds
        )
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
