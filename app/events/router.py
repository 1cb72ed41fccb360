"""HTTP route of a namespace's events feed."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from app.core.auth import CurrentPrincipal
from app.core.db import DbSession, ReleaseDb
from app.core.errors import ValidationFailed, error_responses
from app.core.names import NamespacePath
from app.core.schemas import BIGINT_MAX
from app.events import service
from app.events.schemas import EventPage
from app.events.types import EventType

router = APIRouter(prefix="/v1/namespaces", tags=["events"], responses=error_responses(401, 404, 422))


@router.get("/{namespace}/events")
async def list_events(
    namespace: NamespacePath,
    db: DbSession,
    release: ReleaseDb,
    principal: CurrentPrincipal,
    request: Request,
    after: Annotated[
        int,
        Query(
            ge=0,
            le=BIGINT_MAX,
            description="Events after this id (a page's `cursor`); 0 for the oldest kept.",
        ),
    ] = 0,
    types: Annotated[
        list[EventType] | None,
        Query(description="Only these types (repeat the parameter for several)."),
    ] = None,
    profile: Annotated[str | None, Query(max_length=100, description="Only this profile's events.")] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="Events per page (1–1000).")] = 100,
    wait: Annotated[
        float,
        Query(
            ge=0,
            description="With no event after `after` yet, wait up to this many seconds for one (long-poll; "
            "at most AGENT_MEMORY_EVENTS_MAX_WAIT_SECONDS, default 30).",
        ),
    ] = 0,
) -> EventPage:
    """The namespace's events in id order (ids are given once a change has committed), `after` a cursor
    (keyset): every event once, across pages and waits. Kept for AGENT_MEMORY_EVENTS_RETENTION_DAYS (7 by
    default)."""
    longest = request.app.state.settings.events_max_wait_seconds
    if wait > longest:
        raise ValidationFailed(f"wait must be at most {longest:g} seconds")
    return await service.feed(
        db, release, principal, namespace, after=after, types=types, profile=profile, limit=limit, wait=wait
    )
