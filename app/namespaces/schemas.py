"""Request and response bodies of the namespace and key endpoints."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from app.core.names import NamespaceName
from app.core.schemas import ApiModel, PageModel, RequestModel
from app.core.scopes import DEFAULT_SCOPE, Scope


class NamespaceCreate(RequestModel):
    name: NamespaceName


class NamespaceOut(ApiModel):
    name: str
    created_at: datetime


class NamespaceList(PageModel):
    namespaces: list[NamespaceOut]


class KeyCreate(RequestModel):
    name: str = Field(min_length=1, max_length=100, description="A label for the key (1–100 characters).")
    scope: Scope = Field(
        default=DEFAULT_SCOPE,
        description="read: recall, list, get, summary, history, search, export; write: also ingest, remember, "
        "edit and delete; admin (the default): also the namespace's keys, webhooks, import, and deleting it.",
    )


class KeyOut(ApiModel):
    id: str
    name: str
    namespace: str | None
    scope: Scope = Field(description="What the key may do in its namespace (an admin key: everything).")
    created_at: datetime
    revoked_at: datetime | None = None


class KeyCreated(KeyOut):
    key: str = Field(description="The full key. Shown once: only its SHA-256 is stored.")


class KeyList(ApiModel):
    keys: list[KeyOut]


class CurrentKey(ApiModel):
    """What the request's key may reach: everything (admin) or one namespace."""

    key_id: str | None = Field(
        description="The stored key's id; null for AGENT_MEMORY_ADMIN_KEY and in open mode."
    )
    admin: bool
    namespace: str | None = Field(description="The namespace a scoped key is limited to; null for admin.")
    scope: Scope = Field(description="What the key may do in its namespace: read, write or admin.")
