"""Rules of profiles: resolving a profile for a read (404 if absent) or a write (created if absent)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.auth import Principal
from app.core.db import Reads
from app.core.errors import NotFound
from app.core.pagination import decode_cursor, encode_cursor
from app.events import repository as events
from app.events.types import EventType
from app.models import Profile
from app.namespaces import service as namespaces
from app.profiles import repository
from app.profiles.schemas import MemoryCounts, ProfileCounts, ProfileDetail, ProfileList, ProfileOut


class ProfileNotFound(NotFound, code="profile_not_found"): ...


T = TypeVar("T")


def _usable(principal: Principal, namespace: str, namespace_id: int | None) -> int:
    if namespace_id is None or (not principal.is_admin and principal.namespace_id != namespace_id):
        raise namespaces.NamespaceNotFound(f"namespace '{namespace}' not found")
    return namespace_id


def _found(profile: T | None, namespace: str, name: str) -> T:
    if profile is None:
        raise ProfileNotFound(f"profile '{name}' not found in namespace '{namespace}'")
    return profile


async def _find(db: Reads, principal: Principal, namespace: str, name: str) -> tuple[int, Profile | None]:
    """The namespace the principal may use and its live profile of that name, in one query."""
    namespace_id, profile = await repository.find_with_namespace(db, namespace, name)
    return _usable(principal, namespace, namespace_id), profile


async def for_read(db: Reads, principal: Principal, namespace: str, name: str) -> Profile:
    _, profile = await _find(db, principal, namespace, name)
    return _found(profile, namespace, name)


@dataclass(frozen=True)
class Named:
    """A profile as a request names it, for a statement that resolves it itself (`repository.TARGET_CTE`:
    one round trip fewer on a hot path); `resolved` then applies the rules of `for_read` to what it found."""

    principal: Principal
    namespace: str
    name: str

    def params(self) -> dict[str, Any]:
        return {"namespace": self.namespace, "name": self.name, "scope": self.principal.namespace_id}

    def resolved(self, namespace_id: int | None, profile_id: int | None) -> int:
        """The profile's id, as `for_read` would have found it (404 if the namespace is not the principal's
        or the profile is absent)."""
        _usable(self.principal, self.namespace, namespace_id)
        return _found(profile_id, self.namespace, self.name)


async def for_write(
    db: AsyncSession, principal: Principal, namespace: str, name: str
) -> tuple[Profile, bool]:
    namespace_id, profile = await _find(db, principal, namespace, name)
    if profile is not None:
        return profile, False
    return await repository.get_or_create(db, namespace_id, name)


def to_out(profile: Profile, namespace: str) -> ProfileOut:
    return ProfileOut(name=profile.name, namespace=namespace, created_at=profile.created_at)


async def detail(db: AsyncSession, profile: Profile, namespace: str) -> ProfileDetail:
    totals = await repository.counts(db, profile.id)
    counts = ProfileCounts(
        memories=MemoryCounts(**totals.memories_by_type),
        messages=totals.messages,
        sessions=totals.sessions,
        pending_jobs=totals.pending_jobs,
    )
    return ProfileDetail(**to_out(profile, namespace).model_dump(), counts=counts)


async def list_profiles(
    db: AsyncSession, principal: Principal, namespace: str, limit: int, cursor: str | None
) -> ProfileList:
    ns = await namespaces.resolve(db, principal, namespace)
    after = str(decode_cursor(cursor, 1)[0]) if cursor else None
    rows = await repository.list_live(db, ns.id, after, limit + 1)
    page = rows[:limit]
    next_cursor = encode_cursor(page[-1].name) if len(rows) > limit else None
    return ProfileList(profiles=[to_out(p, ns.name) for p in page], cursor=next_cursor)


async def delete(db: AsyncSession, principal: Principal, namespace: str, name: str) -> None:
    _, profile = await _find(db, principal, namespace, name)
    if profile is None:
        return  # deleted already (or never there): deletes are idempotent, a repeat answers as the first
    await repository.soft_delete(db, profile.id)
    # Its purge is queued by the worker from this event (app.profiles.purge_job).
    await events.record(db, profile.id, EventType.PROFILE_DELETED)
