"""Rules of a namespace's webhook endpoints: registering one (its URL checked, its secret shown once, its
cursor at the namespace's latest event so it receives what happens from now on), changing, rotating and
removing it, its delivery log, and the deliveries asked for by hand (a test event, a redelivery).

Nothing here sends anything: deliveries are made by the worker's dispatcher (app.webhooks.dispatcher).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import cast

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.auth import Principal
from app.core.errors import Conflict, NotFound, ValidationFailed
from app.core.metrics import WEBHOOK_DELIVERIES_QUEUED
from app.core.pagination import decode_cursor, encode_cursor
from app.core.settings import Settings
from app.namespaces import service as namespaces
from app.webhooks import event_source, repository, signing, targets
from app.webhooks.repository import DeliveryRow, EndpointRow
from app.webhooks.schemas import (
    TEST_EVENT_TYPE,
    DeliveryList,
    DeliveryOut,
    DeliveryState,
    SecretRotated,
    SecretRotation,
    WebhookCreate,
    WebhookCreated,
    WebhookList,
    WebhookOut,
    WebhookUpdate,
)

# Endpoints a namespace may have: each costs a lease and a query per event.
MAX_ENDPOINTS_PER_NAMESPACE = 50


class WebhookNotFound(NotFound, code="webhook_not_found"): ...


class DeliveryNotFound(NotFound, code="delivery_not_found"): ...


class TooManyWebhooks(Conflict, code="too_many_webhooks"): ...


def _out(row: EndpointRow) -> WebhookOut:
    return WebhookOut(
        id=row.id,
        url=row.url,
        types=row.types,
        profile=row.profile,
        enabled=row.enabled,
        disabled_reason=row.disabled_reason,
        cursor=row.cursor,
        failing_since=row.failing_since,
        previous_secret_until=row.previous_secret_until
        if row.previous_secret_until is not None and row.previous_secret_until > datetime.now(UTC)
        else None,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _delivery_out(row: DeliveryRow) -> DeliveryOut:
    return DeliveryOut(
        id=row.id,
        message_id=row.message_id,
        event_id=row.event_id,
        event_type=row.event_type,
        ordered=row.ordered,
        status=cast(DeliveryState, row.status),
        attempts=row.attempts,
        response_status=row.response_status,
        response_ms=row.response_ms,
        last_error=row.last_error,
        next_attempt_at=row.next_attempt_at if row.status == "pending" else None,
        created_at=row.created_at,
        finished_at=row.finished_at,
    )


def _check_url(url: str, settings: Settings) -> None:
    try:
        targets.check_url(url, targets.AllowPrivate.parse(settings.webhook_allow_private))
    except targets.TargetRefused as exc:
        raise ValidationFailed(
            f"url: {exc}", [{"loc": ["body", "url"], "msg": str(exc)}], code="webhook_url_refused"
        ) from None


async def _endpoint(db: AsyncSession, principal: Principal, namespace: str, endpoint_id: str) -> EndpointRow:
    ns = await namespaces.resolve(db, principal, namespace)
    row = await repository.get_endpoint(db, ns.id, endpoint_id)
    if row is None:
        raise WebhookNotFound(f"webhook '{endpoint_id}' not found")
    return row


async def create(
    db: AsyncSession, principal: Principal, namespace: str, body: WebhookCreate, settings: Settings
) -> WebhookCreated:
    ns = await namespaces.resolve(db, principal, namespace)
    _check_url(body.url, settings)
    if await repository.count_endpoints(db, ns.id) >= MAX_ENDPOINTS_PER_NAMESPACE:
        raise TooManyWebhooks(f"a namespace has at most {MAX_ENDPOINTS_PER_NAMESPACE} webhooks")
    row = await repository.insert_endpoint(
        db,
        namespace_id=ns.id,
        endpoint_id=repository.new_endpoint_id(),
        url=body.url,
        types=sorted(set(body.types)) if body.types else None,
        profile=body.profile,
        secret=signing.new_secret(),
        cursor=await event_source.latest_id(db, ns.id),
    )
    return WebhookCreated(**_out(row).model_dump(), secret=row.secret)


async def list_endpoints(db: AsyncSession, principal: Principal, namespace: str) -> WebhookList:
    ns = await namespaces.resolve(db, principal, namespace)
    return WebhookList(webhooks=[_out(r) for r in await repository.list_endpoints(db, ns.id)])


async def get(db: AsyncSession, principal: Principal, namespace: str, endpoint_id: str) -> WebhookOut:
    return _out(await _endpoint(db, principal, namespace, endpoint_id))


async def update(
    db: AsyncSession, principal: Principal, namespace: str, endpoint_id: str, body: WebhookUpdate
) -> WebhookOut:
    current = await _endpoint(db, principal, namespace, endpoint_id)
    sent = body.model_fields_set
    row = await repository.update_endpoint(
        db,
        current.namespace_id,
        endpoint_id,
        types=sorted(set(body.types)) if body.types else None,
        set_types="types" in sent,
        profile=body.profile,
        set_profile="profile" in sent,
        enabled=body.enabled,
    )
    if row is None:
        raise WebhookNotFound(f"webhook '{endpoint_id}' not found")
    return _out(row)


async def delete(db: AsyncSession, principal: Principal, namespace: str, endpoint_id: str) -> None:
    current = await _endpoint(db, principal, namespace, endpoint_id)
    await repository.delete_endpoint(db, current.namespace_id, endpoint_id)


async def rotate_secret(
    db: AsyncSession,
    principal: Principal,
    namespace: str,
    endpoint_id: str,
    body: SecretRotation,
    settings: Settings,
) -> SecretRotated:
    current = await _endpoint(db, principal, namespace, endpoint_id)
    grace = body.grace_seconds if body.grace_seconds is not None else settings.webhook_secret_grace_seconds
    row = await repository.rotate_secret(db, current.namespace_id, endpoint_id, signing.new_secret(), grace)
    if row is None:
        raise WebhookNotFound(f"webhook '{endpoint_id}' not found")
    return SecretRotated(
        secret=row.secret, previous_secret_until=row.previous_secret_until if grace else None
    )


async def deliveries(
    db: AsyncSession, principal: Principal, namespace: str, endpoint_id: str, limit: int, cursor: str | None
) -> DeliveryList:
    current = await _endpoint(db, principal, namespace, endpoint_id)
    before = decode_cursor(cursor, 1)[0] if cursor else None
    rows = await repository.list_deliveries(
        db, current.namespace_id, endpoint_id, before_id=before, limit=limit + 1
    )
    page = rows[:limit]
    next_cursor = encode_cursor(page[-1].id) if len(rows) > limit else None
    return DeliveryList(deliveries=[_delivery_out(r) for r in page], cursor=next_cursor)


async def send_test(db: AsyncSession, principal: Principal, namespace: str, endpoint_id: str) -> DeliveryOut:
    """Queue a `webhook.test` message to the endpoint (sent once by the worker, even when disabled)."""
    current = await _endpoint(db, principal, namespace, endpoint_id)
    now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    body = json.dumps(
        {
            "type": TEST_EVENT_TYPE,
            "timestamp": now,
            "data": {"namespace": namespace, "webhookId": endpoint_id},
        },
        separators=(",", ":"),
    )
    row = await repository.insert_delivery(
        db,
        namespace_id=current.namespace_id,
        endpoint_id=endpoint_id,
        delivery_id=repository.new_delivery_id(),
        message_id=repository.new_message_id(),
        event_id=None,
        event_type=TEST_EVENT_TYPE,
        ordered=False,
        body=body,
    )
    WEBHOOK_DELIVERIES_QUEUED.labels("test").inc()
    return _delivery_out(row)


async def redeliver(
    db: AsyncSession, principal: Principal, namespace: str, endpoint_id: str, delivery_id: str
) -> DeliveryOut:
    """Queue the same message again (same body, same webhook-id), sent once by the worker outside the
    stream's order; the original delivery is left as it was."""
    current = await _endpoint(db, principal, namespace, endpoint_id)
    original = await repository.get_delivery(db, current.namespace_id, endpoint_id, delivery_id)
    if original is None:
        raise DeliveryNotFound(f"delivery '{delivery_id}' not found")
    row = await repository.insert_delivery(
        db,
        namespace_id=current.namespace_id,
        endpoint_id=endpoint_id,
        delivery_id=repository.new_delivery_id(),
        message_id=original.message_id,
        event_id=original.event_id,
        event_type=original.event_type,
        ordered=False,
        body=original.body,
    )
    WEBHOOK_DELIVERIES_QUEUED.labels("redelivery").inc()
    return _delivery_out(row)
