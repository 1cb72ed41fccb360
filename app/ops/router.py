"""`/healthz` (the process answers), `/readyz` (database reachable, schema at head), `/metrics`."""

from __future__ import annotations

from functools import lru_cache

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import Field

from app.core.errors import Unavailable, error_responses
from app.core.metrics import exposition
from app.core.migrations import head_revision
from app.core.schemas import ApiModel
from app.ops.readiness import ReadinessProbe

router = APIRouter(tags=["ops"])


@lru_cache(maxsize=1)
def _head() -> str | None:
    """The newest migration, read from the scripts once per process."""
    return head_revision()


class Health(ApiModel):
    status: str


class Readiness(ApiModel):
    status: str
    database: str
    schema_revision: str | None
    embeddings: str = Field(description="Embedding provider: local (the default), none, openai or minilm.")
    embedding_model: str | None = Field(
        default=None,
        description="The model the semantic channel embeds with (vectors of another model are never "
        "searched); absent without embeddings.",
    )
    vector_store: str | None = Field(
        default=None,
        description="Where memory vectors are searched: pgvector (the embedded server, the compose image), or "
        "portable (half-precision floats in a bytea, scanned exactly within the profile); absent without "
        "embeddings.",
    )


@router.get("/healthz")
async def healthz() -> Health:
    """Liveness: the process is up."""
    return Health(status="ok")


@router.get("/readyz", responses=error_responses(503))
async def readyz(request: Request) -> Readiness:
    """Readiness: the database answers and the schema is at the newest migration, as the process's one
    background check found at most a second ago (`app.ops.readiness`): a probe never waits on anything."""
    probe: ReadinessProbe = request.app.state.readiness
    found = probe.state
    if found.failure is not None:
        raise Unavailable(found.failure)
    revision = found.revision
    head = _head()
    if revision != head:
        raise Unavailable(f"schema at {revision}, expected {head}: run `agent-memory migrate`")
    settings = request.app.state.settings
    semantic = getattr(request.app.state, "semantic", None)
    return Readiness(
        status="ready",
        database="ok",
        schema_revision=revision,
        embeddings=settings.embeddings,
        vector_store=getattr(request.app.state, "vector_store", None) if semantic is not None else None,
        embedding_model=semantic.embedder.name if semantic is not None else None,
    )


@router.get("/metrics", response_class=Response, responses={200: {"content": {"text/plain": {}}}})
async def metrics() -> Response:
    """Prometheus metrics: requests and latencies by route template, jobs, memories created. With several
    API processes (`serve --workers N`), the sum over all of them."""
    return Response(exposition(), media_type=CONTENT_TYPE_LATEST)
