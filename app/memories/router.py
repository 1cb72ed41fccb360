"""HTTP routes of memories: remember, list, get, edit, history, delete, tombstones, deleteSession."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Depends, Query, Request, Response

from app.core.auth import CurrentPrincipal
from app.core.consistency import ReplicaRead
from app.core.db import DbSession
from app.core.errors import PROBLEM_JSON, ValidationFailed, error_responses
from app.core.metadata import parse_filter
from app.core.names import NamespacePath, ProfilePath, SessionPath
from app.core.pagination import Cursor, Limit
from app.core.timestamps import AwareTimestamp
from app.memories import service
from app.memories.schemas import (
    EditRequest,
    ForgottenProblem,
    MemoryDetail,
    MemoryHistory,
    MemoryList,
    MemoryOut,
    MemoryType,
    RememberRequest,
    TombstoneList,
)
from app.profiles.access import ExistingProfile, profile_router

router = profile_router("memory")


@router.post(
    "/remember",
    status_code=201,
    responses={
        200: {"model": MemoryOut, "description": "Already stored: the existing memory"},
        409: {
            "model": ForgottenProblem,
            "description": "`memory_forgotten`: this profile deleted the content (send `restore: true`)",
            "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/ForgottenProblem"}}},
        },
        **error_responses(413),
    },
)
async def remember(
    body: RememberRequest,
    namespace: NamespacePath,
    profile: ProfilePath,
    principal: CurrentPrincipal,
    request: Request,
    response: Response,
) -> MemoryOut:
    """Store one statement as a memory, synchronously (201); content already stored answers 200 with it.
    Content this profile deleted (a tombstone holds it) answers 409 `memory_forgotten` with its
    `tombstoneId`, unless `restore` is true: then the tombstone is lifted and the memory stored (201)."""
    # No request session (DbSession): the usual remember is one statement, shared with the process's
    # concurrent remembers, and the service opens a unit of work only for the rare cases that need one.
    state = request.app.state
    memory, created = await service.remember(
        state.remember_batcher,
        state.sessionmaker,
        principal,
        namespace,
        profile,
        body.content,
        body.session_id,
        body.metadata,
        restore=body.restore,
    )
    response.status_code = 201 if created else 200
    return memory


async def metadata_filter(
    metadata: Annotated[
        str | None,
        Query(
            max_length=16384,
            description="Only memories whose metadata has every key of this JSON-encoded object with exactly "
            'its value, e.g. `{"project":"apollo"}` (URL-encoded).',
        ),
    ] = None,
) -> dict[str, Any] | None:
    if metadata is None:
        return None
    try:
        return parse_filter(metadata)
    except ValueError as exc:
        raise ValidationFailed(str(exc), [{"loc": ["query", "metadata"], "msg": str(exc)}]) from None


MetadataQuery = Annotated[dict[str, Any] | None, Depends(metadata_filter)]
AsOf = Annotated[
    AwareTimestamp | None,
    Query(alias="asOf", description="RFC 3339 instant: read the profile as it was then."),
]


@router.get("/memories", dependencies=[ReplicaRead])
async def list_memories(
    profile: ExistingProfile,
    db: DbSession,
    metadata: MetadataQuery,
    limit: Limit = 20,
    cursor: Cursor = None,
    session_id: Annotated[str | None, Query(alias="sessionId", max_length=64)] = None,
    type: Annotated[MemoryType | None, Query()] = None,
    include: Annotated[
        Literal["superseded"] | None,
        Query(description="`superseded`: list superseded memories too (with `supersededBy` set)."),
    ] = None,
    as_of: AsOf = None,
    q: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=1024,
            description="Only memories whose summary or content contains this text (any case).",
        ),
    ] = None,
) -> MemoryList:
    """Memories, newest first (no `content`), keyset paginated: active ones, or as they were at `asOf`."""
    return await service.list_memories(
        db,
        profile,
        limit=limit,
        cursor=cursor,
        session_id=session_id,
        memory_type=type,
        metadata=metadata,
        include_superseded=include == "superseded",
        as_of=as_of,
        contains=q,
    )


@router.get("/memories/{memory_id}", dependencies=[ReplicaRead])
async def get_memory(
    memory_id: str, profile: ExistingProfile, db: DbSession, as_of: AsOf = None
) -> MemoryDetail:
    """One memory with the messages it came from; with `asOf`, the version valid at that instant."""
    return await service.get_memory(db, profile, memory_id, as_of)


@router.patch("/memories/{memory_id}", responses=error_responses(409))
async def edit_memory(
    memory_id: str, body: EditRequest, profile: ExistingProfile, db: DbSession
) -> MemoryOut:
    """Correct a memory; the previous version is kept in its history. A superseded memory → 409
    `memory_superseded`; content another memory already holds → 409 `memory_content_exists`."""
    return await service.edit_memory(db, profile, memory_id, body)


@router.get("/memories/{memory_id}/history", dependencies=[ReplicaRead])
async def memory_history(memory_id: str, profile: ExistingProfile, db: DbSession) -> MemoryHistory:
    """The memory's version chain, oldest first: created, edited, restored, superseded (by whom), deleted."""
    return await service.memory_history(db, profile, memory_id)


@router.delete("/memories/{memory_id}")
async def delete_memory(memory_id: str, profile: ExistingProfile, db: DbSession) -> MemoryOut:
    """Delete a memory and the messages it was extracted from that no other memory cites (a shared message
    stays, and the other memory keeps it as its source; the deleted messages' children in a session's tree
    are re-linked to the deleted message's parent, so the history stays one path); answers the deleted
    memory. The memory leaves a tombstone (`GET …/tombstones`): re-ingesting the same messages,
    remembering the same content or importing it does not bring it back until the tombstone is lifted.
    Idempotent: deleting it again answers the same memory; an id that never was a memory here → 404."""
    return await service.delete_memory(db, profile, memory_id)


@router.get("/tombstones")
async def list_tombstones(
    profile: ExistingProfile, db: DbSession, limit: Limit = 20, cursor: Cursor = None
) -> TombstoneList:
    """What deleted memories left, newest first: fingerprints of their content and source messages, no
    text. Each keeps its memory from coming back until lifted."""
    return await service.list_tombstones(db, profile, limit=limit, cursor=cursor)


@router.delete("/tombstones/{tombstone_id}", status_code=204)
async def lift_tombstone(tombstone_id: str, profile: ExistingProfile, db: DbSession) -> Response:
    """Lift a tombstone: the deleted memory's content and messages may be stored again (by ingest,
    remember, import or extraction). Nothing is restored by this alone. Idempotent: 204 whether or not
    the tombstone existed."""
    await service.lift_tombstone(db, profile, tombstone_id)
    return Response(status_code=204)


@router.delete(
    "/sessions/{session_id}",
    status_code=204,
    summary="deleteSession: the session and everything that belongs to it",
)
async def delete_session(session_id: SessionPath, profile: ExistingProfile, db: DbSession) -> Response:
    """deleteSession of the memory API and the session manager's delete, in one. Removes, at once:

    - the session itself: its name, usage counters, `compactAfter`, frozen system prompt and loaded skills;
    - every message of the session (appended or ingested) and its compaction overlays;
    - every memory whose `sessionId` is this session (extracted from its messages, or remembered with it),
      with their links to source messages, and the tombstones its deleted memories left (so the same
      conversation ingested again is new);
    - the session's own copies of session-scoped context blocks (content and entries);
    - its extraction and compaction jobs still queued.

    Left alone: the profile, its context block definitions (and profile-scoped content), other sessions,
    their messages and memories, and sessions forked or split from this one. Idempotent: 204 whether or not
    the session existed."""
    await service.delete_session(db, profile, session_id)
    return Response(status_code=204)
