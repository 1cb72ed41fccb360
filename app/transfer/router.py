"""HTTP routes of export and import: `GET /v1/namespaces/{ns}/export[?profile=]` streams NDJSON,
`POST /v1/namespaces/{ns}/import` reads an NDJSON body as it arrives."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from app.core.auth import CurrentPrincipal
from app.core.consistency import ReplicaRead, read_engine
from app.core.db import DbSession
from app.core.errors import NotFound, error_responses
from app.core.names import NamespacePath
from app.namespaces import service as namespaces
from app.transfer import service
from app.transfer.schemas import ImportResult

router = APIRouter(
    prefix="/v1/namespaces/{namespace}", tags=["export"], responses=error_responses(401, 404, 422)
)

NDJSON = "application/x-ndjson"


class ProfileNotFound(NotFound, code="profile_not_found"): ...


@router.get(
    "/export",
    dependencies=[ReplicaRead],
    response_class=StreamingResponse,
    responses={200: {"content": {NDJSON: {}}, "description": "The export, one JSON record per line."}},
)
async def export_namespace(
    namespace: NamespacePath,
    request: Request,
    db: DbSession,
    principal: CurrentPrincipal,
    profile: Annotated[
        str | None, Query(min_length=1, max_length=100, description="Only this profile.")
    ] = None,
) -> StreamingResponse:
    """The namespace (or one profile) as NDJSON: a header, profiles, sessions, messages, compactions,
    memories with sources and history, embeddings, context blocks and entries, then an end line."""
    found = await namespaces.resolve(db, principal, namespace)
    if profile is not None and not await service.profile_exists(db, found.id, profile):
        raise ProfileNotFound(f"profile '{profile}' not found in namespace '{namespace}'")
    stream = service.export_stream(read_engine(request), found.id, namespace, profile)
    filename = f"{namespace}{'-' + profile if profile else ''}.ndjson"
    return StreamingResponse(
        stream, media_type=NDJSON, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )


# The body is declared as bytes (application/octet-stream), which SDK generators turn into a file argument;
# declared as application/x-ndjson, openapi-python-client skipped the whole endpoint (a media type it does
# not know). The route reads the raw stream whatever the Content-Type, so curl's x-ndjson works as well.
IMPORT_BODY = {
    "type": "string",
    "format": "binary",
    "description": "An export, as NDJSON (sent as application/x-ndjson or application/octet-stream).",
}


@router.post(
    "/import",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/octet-stream": {"schema": IMPORT_BODY}},
        }
    },
)
async def import_namespace(
    namespace: NamespacePath, request: Request, db: DbSession, principal: CurrentPrincipal
) -> ImportResult:
    """Import an export into this namespace (profiles matched by name, created if absent): idempotent and
    all-or-nothing; a bad line → 422 `import_line_invalid` naming it, and nothing is imported."""
    found = await namespaces.resolve(db, principal, namespace)
    counts = await service.import_stream(db, found.id, request.stream())
    return ImportResult(
        records=counts.records, inserted=counts.inserted, skipped=counts.skipped, forgotten=counts.forgotten
    )
