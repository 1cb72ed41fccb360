"""HTTP routes of the Session API: sessions, messages, history, search, compaction, fork, split, usage."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request, Response, status
from fastapi.responses import StreamingResponse

from app.core.consistency import ReplicaRead, read_engine
from app.core.db import DbSession, ReleaseDb
from app.core.errors import CREATED, ValidationFailed, error_responses
from app.core.names import MessagePath, SessionPath
from app.core.pagination import Cursor, Limit
from app.llm.client import ConfiguredLlm
from app.profiles.access import ExistingProfile, ProfileForWrite, profile_router
from app.sessions import compaction, history_stream, service
from app.sessions.schemas import (
    AppendMessage,
    AppendMessages,
    CompactionIn,
    CompactionList,
    CompactionOut,
    CompactRequest,
    DeletedMessages,
    DeleteMessages,
    ForkRequest,
    History,
    MessageList,
    SearchResults,
    SessionCreate,
    SessionInfo,
    SessionList,
    SessionMessage,
    SessionUpdate,
    SplitRequest,
    Truncation,
    UsageIn,
)

router = profile_router("sessions")

SearchQuery = Annotated[
    str,
    Query(
        max_length=1024,
        description='Words that must all match (English stemming, any order); "quoted words" match as a phrase.',
    ),
]
SearchLimit = Annotated[int, Query(ge=1, le=100, description="Most results to return (1–100).")]


@router.post("/sessions", status_code=201, responses=error_responses(409, 413))
async def create_session(body: SessionCreate, profile: ProfileForWrite, db: DbSession) -> SessionInfo:
    """Create a session (client id or generated); 409 `session_exists` if the id is taken."""
    return await service.create_session(db, profile, body)


@router.get("/sessions", dependencies=[ReplicaRead])
async def list_sessions(
    profile: ExistingProfile, db: DbSession, limit: Limit = 20, cursor: Cursor = None
) -> SessionList:
    """Sessions, most recently updated first, keyset paginated."""
    return await service.list_sessions(db, profile, limit, cursor)


@router.get("/sessions/{session_id}", dependencies=[ReplicaRead])
async def get_session(session_id: SessionPath, profile: ExistingProfile, db: DbSession) -> SessionInfo:
    """One session with its usage counters."""
    return await service.get_session(db, profile, session_id)


@router.patch("/sessions/{session_id}", responses=error_responses(413))
async def update_session(
    session_id: SessionPath, body: SessionUpdate, profile: ExistingProfile, db: DbSession
) -> SessionInfo:
    """Rename a session (and/or change its `compactAfter`)."""
    return await service.update_session(db, profile, session_id, body)


@router.post(
    "/sessions/{session_id}/messages",
    status_code=201,
    responses={
        **CREATED,
        200: {"model": SessionMessage, "description": "Already stored: the message, unchanged"},
        **error_responses(409, 413),
    },
)
async def append_message(
    session_id: SessionPath,
    body: AppendMessage,
    profile: ProfileForWrite,
    db: DbSession,
    response: Response,
) -> SessionMessage:
    """appendMessage: `parentId` absent → latest leaf, `null` → new root. An existing id answers 200 unchanged.

    A session (and profile) never created is created. New messages are queued for extraction into the
    profile's memories, in the append's transaction, unless the session has `extractMemories: false`.
    Bodies up to 20 MiB are accepted, so a large tool output can be stored (see `truncate` on history)."""
    message, created = await service.append_message(
        db, profile, session_id, body.message, "parent_id" in body.model_fields_set, body.parent_id
    )
    response.status_code = 201 if created else 200
    return message


@router.post("/sessions/{session_id}/messages/batch", status_code=201, responses=error_responses(409, 413))
async def append_messages(
    session_id: SessionPath, body: AppendMessages, profile: ProfileForWrite, db: DbSession
) -> MessageList:
    """appendAll: the messages in order, each the child of the one before (creating the session if new;
    the new messages are queued for extraction as one batch)."""
    messages = await service.append_messages(
        db, profile, session_id, body.messages, "parent_id" in body.model_fields_set, body.parent_id
    )
    return MessageList(messages=messages)


@router.put(
    "/sessions/{session_id}/messages/{message_id}", responses={**CREATED, **error_responses(409, 413)}
)
async def upsert_message(
    session_id: SessionPath,
    message_id: MessagePath,
    body: AppendMessage,
    profile: ProfileForWrite,
    db: DbSession,
    response: Response,
) -> SessionMessage:
    """Upsert: update the message in place if the session has it (200), else append it (201)."""
    message, created = await service.upsert_message(
        db,
        profile,
        session_id,
        message_id,
        body.message,
        "parent_id" in body.model_fields_set,
        body.parent_id,
    )
    response.status_code = 201 if created else 200
    return message


@router.get("/sessions/{session_id}/messages/{message_id}", dependencies=[ReplicaRead])
async def get_session_message(
    session_id: SessionPath, message_id: MessagePath, profile: ExistingProfile, db: DbSession
) -> SessionMessage:
    """One message of the session."""
    return await service.get_message(db, profile, session_id, message_id)


@router.delete("/sessions/{session_id}/messages/{message_id}", status_code=204)
async def delete_session_message(
    session_id: SessionPath, message_id: MessagePath, profile: ExistingProfile, db: DbSession
) -> Response:
    """Delete one message; its children are re-linked to its parent, so the rest stays one walkable path.
    Idempotent: 204 when it is already gone (the session must exist)."""
    await service.delete_message(db, profile, session_id, message_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete("/sessions/{session_id}/messages", status_code=204)
async def clear_session_messages(
    session_id: SessionPath, profile: ExistingProfile, db: DbSession, request: Request
) -> Response:
    """clearMessages: every message and overlay of the session; the session itself stays. Takes no body:
    one is refused with 422 (to delete chosen messages, `POST …/messages/delete {ids}`)."""
    if await request.body():
        raise ValidationFailed(
            "DELETE …/messages clears the whole session and takes no body; "
            'to delete chosen messages use POST …/messages/delete with {"ids": [...]}',
            [{"loc": ["body"], "msg": "no body allowed"}],
        )
    await service.clear_messages(db, profile, session_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/sessions/{session_id}/messages/delete", responses=error_responses(413))
async def delete_session_messages(
    session_id: SessionPath, body: DeleteMessages, profile: ExistingProfile, db: DbSession
) -> DeletedMessages:
    """deleteMessages(ids): delete the chosen messages; each one's children are re-linked to its parent."""
    return DeletedMessages(deleted=await service.delete_messages(db, profile, session_id, body.ids))


@router.get("/sessions/{session_id}/messages/{message_id}/branches", dependencies=[ReplicaRead])
async def get_message_branches(
    session_id: SessionPath, message_id: MessagePath, profile: ExistingProfile, db: DbSession
) -> MessageList:
    """getBranches: the message's children, oldest first (e.g. an answer and its regenerations)."""
    return MessageList(messages=await service.branches(db, profile, session_id, message_id))


@router.get(
    "/sessions/{session_id}/history",
    dependencies=[ReplicaRead],
    response_model=History,
    response_class=StreamingResponse,
    # Declared as the JSON document it is (a StreamingResponse declares no media type of its own).
    responses={200: {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/History"}}}}},
)
async def get_history(
    session_id: SessionPath,
    profile: ExistingProfile,
    db: DbSession,
    request: Request,
    leaf_id: Annotated[str | None, Query(alias="leafId", min_length=1, max_length=128)] = None,
    raw: bool = False,
    truncate: Annotated[
        bool, Query(description="Cut older messages' tool outputs and long texts, as truncateOlderMessages.")
    ] = False,
    keep_recent: Annotated[int, Query(alias="keepRecent", ge=0, le=10_000)] = 4,
    max_tool_output_chars: Annotated[int, Query(alias="maxToolOutputChars", ge=0, le=10_000_000)] = 500,
    max_text_chars: Annotated[int, Query(alias="maxTextChars", ge=0, le=10_000_000)] = 10_000,
) -> StreamingResponse:
    """getHistory: root → leaf (default the latest leaf), compaction overlays applied unless `raw=true`.

    `truncate=true` answers copies in which all but the last `keepRecent` messages have tool outputs cut to
    `maxToolOutputChars` and text parts to `maxTextChars` (`... [truncated N chars]`); storage is unchanged."""
    truncation = (
        Truncation(
            keep_recent=keep_recent,
            max_tool_output_chars=max_tool_output_chars,
            max_text_chars=max_text_chars,
        )
        if truncate
        else None
    )
    # Streamed (app.sessions.history_stream): a long path of large messages is never held whole.
    planned = await history_stream.plan(db, profile, session_id, leaf_id, raw, truncation)
    return StreamingResponse(
        history_stream.stream(read_engine(request), planned), media_type="application/json"
    )


@router.get("/sessions/{session_id}/leaf", dependencies=[ReplicaRead])
async def get_latest_leaf(
    session_id: SessionPath, profile: ExistingProfile, db: DbSession
) -> SessionMessage | None:
    """getLatestLeaf: the newest childless message, or null for an empty session."""
    return await service.latest_leaf(db, profile, session_id)


@router.get("/sessions/{session_id}/search", dependencies=[ReplicaRead])
async def search_session_messages(
    session_id: SessionPath, q: SearchQuery, profile: ExistingProfile, db: DbSession, limit: SearchLimit = 20
) -> SearchResults:
    """Full-text search in one session, best match first."""
    return await service.search(db, profile, session_id, q, limit)


@router.get("/search", dependencies=[ReplicaRead])
async def search_messages(
    q: SearchQuery, profile: ExistingProfile, db: DbSession, limit: SearchLimit = 20
) -> SearchResults:
    """Full-text search across every session of the profile, best match first."""
    return await service.search(db, profile, None, q, limit)


@router.get("/sessions/{session_id}/compactions", dependencies=[ReplicaRead])
async def list_compactions(
    session_id: SessionPath, profile: ExistingProfile, db: DbSession
) -> CompactionList:
    """The session's compaction overlays, oldest first."""
    return CompactionList(compactions=await service.list_compactions(db, profile, session_id))


@router.post("/sessions/{session_id}/compactions", status_code=201, responses=error_responses(413))
async def add_compaction(
    session_id: SessionPath, body: CompactionIn, profile: ExistingProfile, db: DbSession
) -> CompactionOut:
    """addCompaction: an overlay replacing [fromMessageId, toMessageId] on read; messages are kept."""
    return await service.add_compaction(
        db, profile, session_id, body.summary, body.from_message_id, body.to_message_id
    )


@router.post("/sessions/{session_id}/compact", responses=error_responses(413))
async def compact_session(
    session_id: SessionPath,
    profile: ExistingProfile,
    db: DbSession,
    release_db: ReleaseDb,
    llm: ConfiguredLlm,
    body: CompactRequest | None = None,
) -> CompactionOut | None:
    """compact: summarise the middle of the history (of the branch ending at `leafId`, default the latest
    leaf) into an overlay; null when there is nothing to compact."""
    options = body or CompactRequest()
    plan = await compaction.plan_compaction(
        db,
        profile,
        session_id,
        options.protect_head,
        options.tail_token_budget,
        options.min_tail_messages,
        leaf_id=options.leaf_id,
    )
    if plan is None:
        return None
    await release_db()  # the summary may be the LLM's: no connection waits on it
    summary = await compaction.summarise_plan(llm, plan)
    return await compaction.apply(db, profile, plan, summary)


@router.post("/sessions/{session_id}/fork", status_code=201, responses=error_responses(413))
async def fork_session(
    session_id: SessionPath, body: ForkRequest, profile: ExistingProfile, db: DbSession
) -> SessionInfo:
    """fork: a new session holding a copy of the path up to `atMessageId` (new ids, no overlays)."""
    return await service.fork(db, profile, session_id, body.at_message_id, body.name)


@router.post("/sessions/{session_id}/split", status_code=201, responses=error_responses(413))
async def split_session(
    session_id: SessionPath, body: SplitRequest, profile: ExistingProfile, db: DbSession
) -> SessionInfo:
    """compactAndSplit: end this session and continue in a new one that starts from the summary."""
    return await service.split(db, profile, session_id, body.summary, body.name)


@router.post("/sessions/{session_id}/usage", responses=error_responses(413))
async def add_session_usage(
    session_id: SessionPath, body: UsageIn, profile: ExistingProfile, db: DbSession
) -> SessionInfo:
    """addUsage: add to the session's input/output token and cost counters."""
    return await service.add_usage(db, profile, session_id, body.input_tokens, body.output_tokens, body.cost)
