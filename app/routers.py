"""Every HTTP router of the service, in the order they are mounted."""

from fastapi import APIRouter

from app.context.router import router as context_router
from app.ingest.router import router as ingest_router
from app.memories.router import router as memories_router
from app.namespaces.router import router as namespaces_router
from app.ops.router import router as ops_router
from app.profiles.router import router as profiles_router
from app.recall.router import router as recall_router
from app.sessions.router import router as sessions_router
from app.summary.router import router as summary_router
from app.transfer.router import router as transfer_router

ROUTERS: list[APIRouter] = [
    ops_router,
    namespaces_router,
    profiles_router,
    ingest_router,
    memories_router,
    summary_router,
    recall_router,
    sessions_router,
    context_router,
    transfer_router,
]
