"""All SQL of `webhook_endpoints` and `webhook_deliveries`: the endpoints' management, the delivery log,
and the dispatcher's claims (an endpoint leased to one worker at a time), fan-out and outcomes.

Every statement the dispatcher makes about a leased endpoint is guarded by `leased_by = :me`: a worker whose
lease expired (another took the endpoint over) changes nothing any more.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession
from ulid import ULID

_ENDPOINT_COLUMNS = (
    "namespace_id, id, url, types, profile, enabled, disabled_reason, secret, previous_secret, "
    "previous_secret_until, cursor, failing_since, created_at, updated_at"
)


@dataclass(frozen=True)
class EndpointRow:
    namespace_id: int
    id: str
    url: str
    types: list[str] | None
    profile: str | None
    enabled: bool
    disabled_reason: str | None
    secret: str
    previous_secret: str | None
    previous_secret_until: datetime | None
    cursor: int
    failing_since: datetime | None
    created_at: datetime
    updated_at: datetime


_DELIVERY_COLUMNS = (
    "namespace_id, endpoint_id, id, message_id, event_id, event_type, ordered, body, status, attempts, "
    "next_attempt_at, response_status, response_ms, last_error, created_at, updated_at, finished_at"
)


@dataclass(frozen=True)
class DeliveryRow:
    namespace_id: int
    endpoint_id: str
    id: str
    message_id: str
    event_id: int | None
    event_type: str
    ordered: bool
    body: str
    status: str
    attempts: int
    next_attempt_at: datetime
    response_status: int | None
    response_ms: int | None
    last_error: str | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None


def new_endpoint_id() -> str:
    return f"ep_{ULID()}"


def new_delivery_id() -> str:
    return f"dl_{ULID()}"


def new_message_id() -> str:
    """A `webhook-id`: made once per message, sent on each of its attempts and redeliveries."""
    return f"msg_{ULID()}"


def _endpoint(row: Any) -> EndpointRow:
    return EndpointRow(**dict(row))


def _delivery(row: Any) -> DeliveryRow:
    return DeliveryRow(**dict(row))


# -- endpoints ------------------------------------------------------------------------------------


async def insert_endpoint(
    db: AsyncSession,
    *,
    namespace_id: int,
    endpoint_id: str,
    url: str,
    types: list[str] | None,
    profile: str | None,
    secret: str,
    cursor: int,
) -> EndpointRow:
    row = (
        await db.execute(
            text(
                "INSERT INTO webhook_endpoints (namespace_id, id, url, types, profile, secret, cursor) "
                "VALUES (:ns, :id, :url, :types, :profile, :secret, :cursor) "
                f"RETURNING {_ENDPOINT_COLUMNS}"
            ),
            {
                "ns": namespace_id,
                "id": endpoint_id,
                "url": url,
                "types": types,
                "profile": profile,
                "secret": secret,
                "cursor": cursor,
            },
        )
    ).mappings()
    return _endpoint(row.one())


async def count_endpoints(db: AsyncSession, namespace_id: int) -> int:
    found: int = (
        await db.execute(
            text("SELECT count(*) FROM webhook_endpoints WHERE namespace_id = :ns"), {"ns": namespace_id}
        )
    ).scalar_one()
    return found


async def list_endpoints(db: AsyncSession, namespace_id: int) -> list[EndpointRow]:
    rows = await db.execute(
        text(f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE namespace_id = :ns ORDER BY id"),
        {"ns": namespace_id},
    )
    return [_endpoint(r) for r in rows.mappings()]


async def get_endpoint(db: AsyncSession, namespace_id: int, endpoint_id: str) -> EndpointRow | None:
    row = await db.execute(
        text(f"SELECT {_ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE namespace_id = :ns AND id = :id"),
        {"ns": namespace_id, "id": endpoint_id},
    )
    found = row.mappings().one_or_none()
    return _endpoint(found) if found is not None else None


# Enabling an endpoint starts it afresh: its reason and failing streak are forgotten and its head is due.
_UPDATE_ENDPOINT = text(
    f"""
    UPDATE webhook_endpoints SET
        types = CASE WHEN :set_types THEN CAST(:types AS text[]) ELSE types END,
        profile = CASE WHEN :set_profile THEN CAST(:profile AS text) ELSE profile END,
        enabled = coalesce(CAST(:enabled AS boolean), enabled),
        disabled_reason = CASE WHEN CAST(:enabled AS boolean) IS NULL THEN disabled_reason
                               WHEN CAST(:enabled AS boolean) THEN NULL
                               ELSE 'disabled through the API' END,
        failing_since = CASE WHEN CAST(:enabled AS boolean) THEN NULL ELSE failing_since END,
        next_attempt_at = CASE WHEN CAST(:enabled AS boolean) THEN NULL ELSE next_attempt_at END,
        updated_at = now()
    WHERE namespace_id = :ns AND id = :id
    RETURNING {_ENDPOINT_COLUMNS}
    """
)


async def update_endpoint(
    db: AsyncSession,
    namespace_id: int,
    endpoint_id: str,
    *,
    types: list[str] | None,
    set_types: bool,
    profile: str | None,
    set_profile: bool,
    enabled: bool | None,
) -> EndpointRow | None:
    params = {
        "ns": namespace_id,
        "id": endpoint_id,
        "types": types,
        "set_types": set_types,
        "profile": profile,
        "set_profile": set_profile,
        "enabled": enabled,
    }
    found = (await db.execute(_UPDATE_ENDPOINT, params)).mappings().one_or_none()
    return _endpoint(found) if found is not None else None


async def delete_endpoint(db: AsyncSession, namespace_id: int, endpoint_id: str) -> bool:
    result = await db.execute(
        text("DELETE FROM webhook_endpoints WHERE namespace_id = :ns AND id = :id"),
        {"ns": namespace_id, "id": endpoint_id},
    )
    return bool(getattr(result, "rowcount", 0))


async def rotate_secret(
    db: AsyncSession, namespace_id: int, endpoint_id: str, new_secret: str, grace_seconds: float
) -> EndpointRow | None:
    """The new secret signs from now on; the current one keeps signing beside it for `grace_seconds`."""
    row = await db.execute(
        text(
            "UPDATE webhook_endpoints SET previous_secret = secret, secret = :secret, "
            "previous_secret_until = now() + make_interval(secs => :grace), updated_at = now() "
            f"WHERE namespace_id = :ns AND id = :id RETURNING {_ENDPOINT_COLUMNS}"
        ),
        {"ns": namespace_id, "id": endpoint_id, "secret": new_secret, "grace": grace_seconds},
    )
    found = row.mappings().one_or_none()
    return _endpoint(found) if found is not None else None


# -- the delivery log -----------------------------------------------------------------------------


async def list_deliveries(
    db: AsyncSession, namespace_id: int, endpoint_id: str, *, before_id: str | None, limit: int
) -> list[DeliveryRow]:
    """The endpoint's deliveries, newest first (ids are ULIDs: creation order), keyset on the id."""
    rows = await db.execute(
        text(
            f"SELECT {_DELIVERY_COLUMNS} FROM webhook_deliveries "
            "WHERE namespace_id = :ns AND endpoint_id = :ep AND (CAST(:before AS text) IS NULL OR id < :before) "
            "ORDER BY id DESC LIMIT :limit"
        ),
        {"ns": namespace_id, "ep": endpoint_id, "before": before_id, "limit": limit},
    )
    return [_delivery(r) for r in rows.mappings()]


async def get_delivery(
    db: AsyncSession, namespace_id: int, endpoint_id: str, delivery_id: str
) -> DeliveryRow | None:
    row = await db.execute(
        text(
            f"SELECT {_DELIVERY_COLUMNS} FROM webhook_deliveries "
            "WHERE namespace_id = :ns AND endpoint_id = :ep AND id = :id"
        ),
        {"ns": namespace_id, "ep": endpoint_id, "id": delivery_id},
    )
    found = row.mappings().one_or_none()
    return _delivery(found) if found is not None else None


_INSERT_DELIVERY = text(
    f"""
    INSERT INTO webhook_deliveries
        (namespace_id, endpoint_id, id, message_id, event_id, event_type, ordered, body)
    VALUES (:ns, :ep, :id, :message_id, :event_id, :event_type, :ordered, :body)
    RETURNING {_DELIVERY_COLUMNS}
    """
)


async def insert_delivery(
    db: AsyncSession,
    *,
    namespace_id: int,
    endpoint_id: str,
    delivery_id: str,
    message_id: str,
    event_id: int | None,
    event_type: str,
    ordered: bool,
    body: str,
) -> DeliveryRow:
    """A delivery to make (a dispatcher finds it on its next round: `worker_poll_seconds`)."""
    params = {
        "ns": namespace_id,
        "ep": endpoint_id,
        "id": delivery_id,
        "message_id": message_id,
        "event_id": event_id,
        "event_type": event_type,
        "ordered": ordered,
        "body": body,
    }
    return _delivery((await db.execute(_INSERT_DELIVERY, params)).mappings().one())


# -- the dispatcher ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClaimedEndpoint:
    namespace_id: int
    id: str


# An endpoint is due when it is not leased (or its lease expired) and has work whose time has come: a
# delivery sent on request (test, redelivery), or, enabled and past its head's backoff, a pending delivery
# of its stream or an event of its namespace past its cursor.
_CLAIM = """
    UPDATE webhook_endpoints SET leased_by = :me, leased_until = now() + make_interval(secs => :lease)
    WHERE (namespace_id, id) IN (
        SELECT w.namespace_id, w.id FROM webhook_endpoints w
        WHERE (w.leased_until IS NULL OR w.leased_until < now())
          AND (EXISTS (SELECT 1 FROM webhook_deliveries d
                       WHERE d.namespace_id = w.namespace_id AND d.endpoint_id = w.id
                         AND d.status = 'pending' AND NOT d.ordered AND d.next_attempt_at <= now())
               OR (w.enabled AND (w.next_attempt_at IS NULL OR w.next_attempt_at <= now())
                   AND (EXISTS (SELECT 1 FROM webhook_deliveries d
                                WHERE d.namespace_id = w.namespace_id AND d.endpoint_id = w.id
                                  AND d.status = 'pending' AND d.ordered)
                        OR {newer_events})))
        ORDER BY w.leased_until NULLS FIRST
        FOR UPDATE SKIP LOCKED
        LIMIT :n)
    RETURNING namespace_id, id
    """


async def claim(
    db: AsyncSession, me: str, lease_seconds: float, n: int, newer_events: str
) -> list[ClaimedEndpoint]:
    """Up to `n` due endpoints, leased to this dispatcher; `newer_events`: the events outbox's SQL saying
    whether the endpoint `w`'s namespace holds an event past `w.cursor`."""
    statement = text(_CLAIM.replace("{newer_events}", newer_events))
    rows = await db.execute(statement, {"me": me, "lease": lease_seconds, "n": n})
    return [ClaimedEndpoint(r.namespace_id, r.id) for r in rows]


async def leased_endpoint(
    db: AsyncSession, namespace_id: int, endpoint_id: str, me: str, lease_seconds: float
) -> tuple[EndpointRow, str] | None:
    """The endpoint and its namespace's name, its lease renewed, while it is still this dispatcher's (None:
    it is not any more)."""
    row = await db.execute(
        text(
            "UPDATE webhook_endpoints w SET leased_until = now() + make_interval(secs => :lease) "
            "WHERE namespace_id = :ns AND id = :id AND leased_by = :me "
            f"RETURNING {_ENDPOINT_COLUMNS}, "
            "(SELECT n.name FROM namespaces n WHERE n.id = w.namespace_id) AS namespace_name"
        ),
        {"ns": namespace_id, "id": endpoint_id, "me": me, "lease": lease_seconds},
    )
    found = row.mappings().one_or_none()
    if found is None:
        return None
    values = dict(found)
    name = str(values.pop("namespace_name"))
    return _endpoint(values), name


async def release(
    db: AsyncSession, namespace_id: int, endpoint_id: str, me: str, next_attempt_at: datetime | None
) -> None:
    """Give the endpoint up; `next_attempt_at`: when its head delivery is due (None: when work comes)."""
    await db.execute(
        text(
            "UPDATE webhook_endpoints SET leased_by = NULL, leased_until = NULL, next_attempt_at = :at "
            "WHERE namespace_id = :ns AND id = :id AND leased_by = :me"
        ),
        {"ns": namespace_id, "id": endpoint_id, "me": me, "at": next_attempt_at},
    )


# The next message of an endpoint: a due one asked for through the API (a test, a redelivery) first, else
# its stream's head (the pending delivery of the lowest event id; the ones after it wait for it) when the
# endpoint is enabled.
_NEXT = text(
    f"""
    SELECT {_DELIVERY_COLUMNS},
           greatest(extract(epoch FROM next_attempt_at - now()), 0)::float8 AS wait FROM webhook_deliveries
    WHERE namespace_id = :ns AND endpoint_id = :ep AND status = 'pending'
      AND ((NOT ordered AND next_attempt_at <= now()) OR (ordered AND :enabled))
    ORDER BY ordered, CASE WHEN ordered THEN event_id END, id
    LIMIT 1
    """
)


async def next_delivery(
    db: AsyncSession, namespace_id: int, endpoint_id: str, enabled: bool
) -> tuple[DeliveryRow, float] | None:
    """The endpoint's next message and the seconds until it is due (0: now; a stream head may wait for its
    backoff)."""
    row = await db.execute(_NEXT, {"ns": namespace_id, "ep": endpoint_id, "enabled": enabled})
    found = row.mappings().one_or_none()
    if found is None:
        return None
    values = dict(found)
    wait = float(values.pop("wait"))
    return _delivery(values), wait


@dataclass(frozen=True)
class NewDelivery:
    """A stream delivery to make: one event for one endpoint."""

    event_id: int
    event_type: str
    body: str


async def insert_stream_deliveries(
    db: AsyncSession, namespace_id: int, endpoint_id: str, deliveries: list[NewDelivery]
) -> int:
    """The deliveries of these events to the endpoint, in one statement (an event that has one already
    keeps it); how many were made."""
    result = await db.execute(
        text(
            """
            INSERT INTO webhook_deliveries
                (namespace_id, endpoint_id, id, message_id, event_id, event_type, ordered, body)
            SELECT :ns, :ep, d.id, d.message_id, d.event_id, d.event_type, true, d.body
            FROM unnest(CAST(:ids AS text[]), CAST(:mids AS text[]), CAST(:eids AS bigint[]),
                        CAST(:types AS text[]), CAST(:bodies AS text[]))
                 AS d(id, message_id, event_id, event_type, body)
            ON CONFLICT (namespace_id, endpoint_id, event_id) WHERE ordered DO NOTHING
            """
        ),
        {
            "ns": namespace_id,
            "ep": endpoint_id,
            "ids": [new_delivery_id() for _ in deliveries],
            "mids": [new_message_id() for _ in deliveries],
            "eids": [d.event_id for d in deliveries],
            "types": [d.event_type for d in deliveries],
            "bodies": [d.body for d in deliveries],
        },
    )
    return int(getattr(result, "rowcount", 0))


async def advance_cursor(db: AsyncSession, namespace_id: int, endpoint_id: str, me: str, cursor: int) -> None:
    await db.execute(
        text(
            "UPDATE webhook_endpoints SET cursor = greatest(cursor, :cursor) "
            "WHERE namespace_id = :ns AND id = :id AND leased_by = :me"
        ),
        {"ns": namespace_id, "id": endpoint_id, "me": me, "cursor": cursor},
    )


async def record_attempt(
    db: AsyncSession,
    delivery: DeliveryRow,
    *,
    status: str,
    response_status: int | None,
    response_ms: int,
    error: str | None,
    retry_in_seconds: float | None,
) -> None:
    """One attempt's outcome: `status` pending (retried in `retry_in_seconds`), delivered or failed."""
    await db.execute(
        text(
            "UPDATE webhook_deliveries SET status = CAST(:status AS text), attempts = attempts + 1, "
            "response_status = :rs, response_ms = :ms, last_error = :error, updated_at = now(), "
            "next_attempt_at = CASE WHEN CAST(:status AS text) = 'pending' "
            "    THEN now() + make_interval(secs => CAST(:retry AS float8)) ELSE next_attempt_at END, "
            "finished_at = CASE WHEN CAST(:status AS text) = 'pending' THEN NULL ELSE now() END "
            "WHERE namespace_id = :ns AND endpoint_id = :ep AND id = :id AND status = 'pending'"
        ),
        {
            "ns": delivery.namespace_id,
            "ep": delivery.endpoint_id,
            "id": delivery.id,
            "status": status,
            "rs": response_status,
            "ms": response_ms,
            "error": error,
            "retry": retry_in_seconds or 0.0,
        },
    )


async def endpoint_succeeded(db: AsyncSession, namespace_id: int, endpoint_id: str) -> None:
    await db.execute(
        text(
            "UPDATE webhook_endpoints SET failing_since = NULL "
            "WHERE namespace_id = :ns AND id = :id AND failing_since IS NOT NULL"
        ),
        {"ns": namespace_id, "id": endpoint_id},
    )


async def endpoint_failed(
    db: AsyncSession, namespace_id: int, endpoint_id: str, disable_after_seconds: float, error: str
) -> str | None:
    """Count a failed attempt against the endpoint: the first of a streak starts it; a streak older than
    `disable_after_seconds` disables the endpoint. The reason it was disabled, else None."""
    row = await db.execute(
        text(
            """
            UPDATE webhook_endpoints w SET
                failing_since = coalesce(w.failing_since, now()),
                enabled = CASE WHEN w.failing_since < now() - make_interval(secs => :after) THEN false
                               ELSE w.enabled END,
                disabled_reason = CASE WHEN w.failing_since < now() - make_interval(secs => :after)
                    THEN 'every delivery failed since ' || to_char(w.failing_since AT TIME ZONE 'UTC',
                         'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '; the last: ' || :error
                    ELSE w.disabled_reason END,
                updated_at = now()
            WHERE namespace_id = :ns AND id = :id
            RETURNING CASE WHEN NOT enabled THEN disabled_reason END AS reason
            """
        ),
        {"ns": namespace_id, "id": endpoint_id, "after": disable_after_seconds, "error": error[:500]},
    )
    reason: str | None = row.scalar_one_or_none()
    return reason


async def disable(db: AsyncSession, namespace_id: int, endpoint_id: str, reason: str) -> None:
    await db.execute(
        text(
            "UPDATE webhook_endpoints SET enabled = false, disabled_reason = :reason, updated_at = now() "
            "WHERE namespace_id = :ns AND id = :id"
        ),
        {"ns": namespace_id, "id": endpoint_id, "reason": reason},
    )


async def prune_finished(db: AsyncSession, older_than_seconds: float) -> int:
    """Forget deliveries over for longer than the retention (the log keeps as long as the events)."""
    result = await db.execute(
        text(
            "DELETE FROM webhook_deliveries WHERE status <> 'pending' "
            "AND finished_at < now() - make_interval(secs => :age)"
        ),
        {"age": older_than_seconds},
    )
    return int(getattr(result, "rowcount", 0))


async def status_counts(db: AsyncSession) -> dict[str, int]:
    rows = await db.execute(text("SELECT status, count(*) FROM webhook_deliveries GROUP BY status"))
    return {r[0]: r[1] for r in rows}
