"""HTTP routes of memories: remember, list, get, delete, deleteSession."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from app.core.db import DbSession
from app.core.errors import error_responses
from app.core.names import SessionPath
from app.core.pagination import Cursor, Limit
from app.memories import service
from app.memories.schemas import MemoryDetail, MemoryList, MemoryOut, MemoryType, RememberRequest
from app.profiles.access import ExistingProfile, ProfileForWrite

router = APIRouter(
    prefix="/v1/namespaces/{namespace}/profiles/{profile}",
    tags=["memory"],
    responses=error_responses(401, 404, 422),
)


@router.post(
    "/remember",
    status_code=201,
    responses={
        200: {"model": MemoryOut, "description": "Already stored: the existing memory"},
        **error_responses(413),
    },
)
async def remember(
    body: RememberRequest, profile: ProfileForWrite, db: DbSession, response: Response
) -> MemoryOut:
    """Store one statement as a memory, synchronously (201); content already stored answers 200 with it."""
    memory, created = await service.remember(db, profile, body.content, body.session_id)
    response.status_code = 201 if created else 200
    return memory


@router.get("/memories")
async def list_memories(
    profile: ExistingProfile,
    db: DbSession,
    limit: Limit = 20,
    cursor: Cursor = None,
    session_id: Annotated[str | None, Query(alias="sessionId", max_length=64)] = None,
    type: Annotated[MemoryType | None, Query()] = None,
) -> MemoryList:
    """Active memories, newest first (no `content`), keyset paginated."""
    return await service.list_memories(
        db, profile, limit=limit, cursor=cursor, session_id=session_id, memory_type=type
    )


@router.get("/memories/{memory_id}")
async def get_memory(memory_id: str, profile: ExistingProfile, db: DbSession) -> MemoryDetail:
    """One memory with the messages it came from."""
    return await service.get_memory(db, profile, memory_id)


@router.delete("/memories/{memory_id}")
async def delete_memory(memory_id: str, profile: ExistingProfile, db: DbSession) -> MemoryOut:
    """Delete a memory and the messages it was extracted from (their children in a session's tree are
    re-linked to the deleted message's parent, so the history stays one path); answers the deleted memory."""
    return await service.delete_memory(db, profile, memory_id)


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
      with their links to source messages;
    - the session's own copies of session-scoped context blocks (content and entries);
    - its extraction and compaction jobs still queued.

    Left alone: the profile, its context block definitions (and profile-scoped content), other sessions,
    their messages and memories, and sessions forked or split from this one. Idempotent: 204 whether or not
    the session existed."""
    await service.delete_session(db, profile, session_id)
    return Response(status_code=204)
