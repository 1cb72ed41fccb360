"""Every HTTP router of the service, in the order requests are matched against them, and the order the API
reference presents them in."""

from typing import Any

from fastapi import APIRouter

from app.context.router import router as context_router
from app.events.router import router as events_router
from app.ingest.router import router as ingest_router
from app.jobs.router import router as jobs_router
from app.memories.router import router as memories_router
from app.namespaces.router import key_router
from app.namespaces.router import router as namespaces_router
from app.ops.router import router as ops_router
from app.profiles.router import router as profiles_router
from app.quotas.router import router as quotas_router
from app.recall.router import router as recall_router
from app.sessions.router import router as sessions_router
from app.summary.router import router as summary_router
from app.transfer.router import router as transfer_router
from app.webhooks.router import router as webhooks_router

# A request is matched against the routes in this order, each miss a regular-expression match (callgrind:
# remember as the 30th route cost 9 % more instructions than as the first), so the hot per-profile
# routes (remember, recall, ingest) come first. No two routes match the same method and path, so the
# order changes nothing else.
ROUTERS: list[APIRouter] = [
    memories_router,
    recall_router,
    ingest_router,
    ops_router,
    namespaces_router,
    key_router,
    quotas_router,
    profiles_router,
    summary_router,
    jobs_router,
    sessions_router,
    context_router,
    transfer_router,
    events_router,
    webhooks_router,
]

# The API reference's sections (OpenAPI tags), in the order a reader meets them.
TAGS: list[dict[str, Any]] = [
    {"name": "ops", "description": "Liveness, readiness and metrics."},
    {"name": "namespaces", "description": "Namespaces and their API keys."},
    {"name": "profiles", "description": "Profiles within a namespace."},
    {"name": "memory", "description": "The Agent Memory API: ingest, remember, recall, list, get, delete."},
    {"name": "sessions", "description": "The Session API: branching message trees, compaction, search."},
    {"name": "context", "description": "Context blocks rendered into a session's system prompt."},
    {"name": "export", "description": "Export and import of a namespace's data."},
    {"name": "events", "description": "Every change to memory, in order: the events feed."},
    {"name": "webhooks", "description": "Webhook endpoints (Standard Webhooks) and their delivery log."},
]
