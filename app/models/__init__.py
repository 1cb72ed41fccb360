"""SQLAlchemy models, one module per domain; importing this package registers every table on `Base.metadata`."""

from app.models.base import Base
from app.models.context import (
    Compaction,
    ContextBlock,
    ContextEntry,
    ContextSessionBlock,
    ContextSessionEntry,
)
from app.models.events import Event, EventCounter, EventCursor
from app.models.jobs import Job
from app.models.memories import Memory, MemorySource, MemoryVersion
from app.models.namespaces import ApiKey, Namespace
from app.models.profiles import Profile
from app.models.quotas import NamespaceRequestWindow, NamespaceUsage, NamespaceUsageChange
from app.models.sessions import Message, Session
from app.models.tombstones import MemoryTombstone, TombstoneMessage
from app.models.webhooks import WebhookDelivery, WebhookEndpoint

__all__ = [
    "ApiKey",
    "Base",
    "Compaction",
    "ContextBlock",
    "ContextEntry",
    "ContextSessionBlock",
    "ContextSessionEntry",
    "Event",
    "EventCounter",
    "EventCursor",
    "Job",
    "Memory",
    "MemorySource",
    "MemoryTombstone",
    "MemoryVersion",
    "Message",
    "Namespace",
    "NamespaceRequestWindow",
    "NamespaceUsage",
    "NamespaceUsageChange",
    "Profile",
    "Session",
    "TombstoneMessage",
    "WebhookDelivery",
    "WebhookEndpoint",
]
