"""HTTP routes of a namespace's webhook endpoints and their delivery log (sending is the worker's)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from app.core.auth import CurrentPrincipal
from app.core.db import DbSession
from app.core.errors import error_responses
from app.core.names import NamespacePath
from app.core.pagination import Cursor, Limit
from app.core.settings import Settings
from app.webhooks import service
from app.webhooks.schemas import (
    DeliveryList,
    DeliveryOut,
    SecretRotated,
    SecretRotation,
    WebhookCreate,
    WebhookCreated,
    WebhookList,
    WebhookOut,
    WebhookUpdate,
)

router = APIRouter(
    prefix="/v1/namespaces/{namespace}/webhooks", tags=["webhooks"], responses=error_responses(401, 404, 422)
)


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


@router.post("", status_code=201, responses=error_responses(409))
async def create_webhook(
    namespace: NamespacePath,
    body: WebhookCreate,
    db: DbSession,
    principal: CurrentPrincipal,
    request: Request,
) -> WebhookCreated:
    """Register an endpoint: it receives the namespace's events from now on (optionally only some types, or
    one profile's), signed by the Standard Webhooks scheme with the `whsec_` secret answered here once. A
    URL on a loopback, private, link-local or metadata address → 422 `webhook_url_refused`."""
    return await service.create(db, principal, namespace, body, _settings(request))


@router.get("")
async def list_webhooks(namespace: NamespacePath, db: DbSession, principal: CurrentPrincipal) -> WebhookList:
    """The namespace's endpoints (without secrets)."""
    return await service.list_endpoints(db, principal, namespace)


@router.get("/{webhook_id}")
async def get_webhook(
    namespace: NamespacePath, webhook_id: str, db: DbSession, principal: CurrentPrincipal
) -> WebhookOut:
    """One endpoint: its filters, whether it is enabled (and why not), its cursor and failing streak."""
    return await service.get(db, principal, namespace, webhook_id)


@router.patch("/{webhook_id}")
async def update_webhook(
    namespace: NamespacePath, webhook_id: str, body: WebhookUpdate, db: DbSession, principal: CurrentPrincipal
) -> WebhookOut:
    """Change an endpoint's type or profile filter, or disable and enable it (enabling resumes where it
    stopped)."""
    return await service.update(db, principal, namespace, webhook_id, body)


@router.delete("/{webhook_id}", status_code=204)
async def delete_webhook(
    namespace: NamespacePath, webhook_id: str, db: DbSession, principal: CurrentPrincipal
) -> Response:
    """Remove an endpoint and its delivery log."""
    await service.delete(db, principal, namespace, webhook_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/{webhook_id}/rotate-secret")
async def rotate_webhook_secret(
    namespace: NamespacePath,
    webhook_id: str,
    db: DbSession,
    principal: CurrentPrincipal,
    request: Request,
    body: SecretRotation | None = None,
) -> SecretRotated:
    """A new signing secret, answered once; deliveries are signed with the old one too (two signatures in
    `webhook-signature`) until `previousSecretUntil`."""
    return await service.rotate_secret(
        db, principal, namespace, webhook_id, body or SecretRotation(), _settings(request)
    )


@router.get("/{webhook_id}/deliveries")
async def list_deliveries(
    namespace: NamespacePath,
    webhook_id: str,
    db: DbSession,
    principal: CurrentPrincipal,
    limit: Limit = 20,
    cursor: Cursor = None,
) -> DeliveryList:
    """The delivery log, newest first: each message's status, attempts, last answer or error and time."""
    return await service.deliveries(db, principal, namespace, webhook_id, limit, cursor)


@router.post("/{webhook_id}/test", status_code=202)
async def send_test_event(
    namespace: NamespacePath, webhook_id: str, db: DbSession, principal: CurrentPrincipal
) -> DeliveryOut:
    """Queue a `webhook.test` message; the worker sends it once (even to a disabled endpoint) and the
    delivery log shows how it went."""
    return await service.send_test(db, principal, namespace, webhook_id)


@router.post("/{webhook_id}/deliveries/{delivery_id}/redeliver", status_code=202)
async def redeliver(
    namespace: NamespacePath, webhook_id: str, delivery_id: str, db: DbSession, principal: CurrentPrincipal
) -> DeliveryOut:
    """Queue the delivery's message again (same body, same `webhook-id`); the worker sends it once, outside
    the event order, as a new entry of the log."""
    return await service.redeliver(db, principal, namespace, webhook_id, delivery_id)
