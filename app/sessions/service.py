"""Rules of the Session API: parent selection, idempotent appends, history with overlays, fork, split, usage.

Every write moves the session's `updatedAt`. An append that pushes a session past its `compactAfter` queues
a compaction job (app.sessions.compaction_job): the append answers at once and never fails for it.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.errors import Conflict, NotFound, ValidationFailed
from app.core.pagination import decode_cursor, decode_cursor_time, encode_cursor
from app.models import Compaction, Message, Profile, Session
from app.quotas.service import held_to_quotas
from app.sessions import repository, system_prompt
from app.sessions.row_bound import indexed_text
from app.sessions.schemas import (
    TAIL_TOKEN_BUDGET,
    CompactionOut,
    History,
    MessageIn,
    SearchResults,
    SessionCreate,
    SessionInfo,
    SessionList,
    SessionMessage,
    SessionUpdate,
    Truncation,
)
from app.sessions.tokens import estimate_parts_tokens, estimate_string_tokens
from app.sessions.truncation import truncate_older
from app.worker.queue import enqueue_compaction, enqueue_extraction

logger = logging.getLogger("agent_memory.sessions")

COMPACTION_PREFIX = "compaction_"
SPLIT_PREFIX = "[Context from previous session]\n\n"


class SessionNotFound(NotFound, code="session_not_found"): ...


class MessageNotFound(NotFound, code="message_not_found"): ...


class SessionExists(Conflict, code="session_exists"): ...


# ---------------------------------------------------------------- mapping


def to_info(row: Session) -> SessionInfo:
    # The row keeps its tags in `metadata_` (SQLAlchemy reserves `metadata`): read the columns by name
    # rather than through a validation alias, which would leak `metadata_` into the OpenAPI document.
    columns = {name: getattr(row, name) for name in SessionInfo.model_fields if name != "metadata"}
    return SessionInfo(**columns, metadata=row.metadata_)


def to_message(row: Message) -> SessionMessage:
    return SessionMessage(id=row.id, role=row.role, name=row.name, parts=row.parts, created_at=row.created_at)


def to_compaction(row: Compaction) -> CompactionOut:
    return CompactionOut.model_validate(row)


def estimate_messages(messages: Sequence[SessionMessage]) -> int:
    return sum(estimate_parts_tokens(m.parts) for m in messages)


# ---------------------------------------------------------------- sessions


async def require_session(
    db: AsyncSession, profile: Profile, session_id: str, *, lock: bool = False
) -> Session:
    """The session, or 404. Writers pass `lock`: holding the session row from their first statement
    serialises concurrent writes to one session, which otherwise deadlock (two batches inserting the same
    ids in opposite orders, a delete racing an append)."""
    row = await repository.get_session(db, profile.id, session_id, lock=lock)
    if row is None:
        raise SessionNotFound(f"session '{session_id}' not found")
    return row


async def ensure_session(db: AsyncSession, profile: Profile, session_id: str) -> Session:
    """The session, locked for writing; one never created is created first, as getProfile does."""
    row = await repository.get_session(db, profile.id, session_id, lock=True)
    if row is None:
        await repository.insert_session(db, profile.id, session_id)
        row = await repository.get_session(db, profile.id, session_id, lock=True)
        assert row is not None
    return row


async def create_session(db: AsyncSession, profile: Profile, body: SessionCreate) -> SessionInfo:
    session_id = body.id or str(uuid.uuid4())
    # The request's other fields are the session's columns, by the same names.
    columns = body.model_dump(exclude={"id", "metadata"})
    row = await repository.insert_session(
        db, profile.id, session_id, **columns, metadata_=body.metadata or {}
    )
    if row is None:
        raise SessionExists(f"session '{session_id}' already exists")
    return to_info(row)


async def list_sessions(db: AsyncSession, profile: Profile, limit: int, cursor: str | None) -> SessionList:
    after: tuple[datetime, str] | None = None
    if cursor:
        raw_time, raw_id = decode_cursor(cursor, 2)
        after = (decode_cursor_time(raw_time), raw_id)
    rows = await repository.list_sessions(db, profile.id, after, limit + 1)
    page = rows[:limit]
    next_cursor = encode_cursor(page[-1].updated_at.isoformat(), page[-1].id) if len(rows) > limit else None
    return SessionList(sessions=[to_info(r) for r in page], cursor=next_cursor)


async def get_session(db: AsyncSession, profile: Profile, session_id: str) -> SessionInfo:
    return to_info(await require_session(db, profile, session_id))


async def update_session(
    db: AsyncSession, profile: Profile, session_id: str, body: SessionUpdate
) -> SessionInfo:
    await require_session(db, profile, session_id, lock=True)
    values = {name: getattr(body, name) for name in body.model_fields_set}
    # null clears what may be cleared (compactAfter, metadata); a name and the extraction switch have no
    # "cleared" value (a null extractMemories was a 500: the column is NOT NULL).
    for field_name, alias, kind in (
        ("name", "name", "a string"),
        ("extract_memories", "extractMemories", "true or false"),
    ):
        if field_name in values and values[field_name] is None:
            raise ValidationFailed(
                f"{alias}: must be {kind}", [{"loc": ["body", alias], "msg": f"must be {kind}"}]
            )
    if "metadata" in values:
        values["metadata_"] = values.pop("metadata") or {}
    return to_info(await repository.update_session(db, profile.id, session_id, **values))


async def add_usage(
    db: AsyncSession, profile: Profile, session_id: str, input_tokens: int, output_tokens: int, cost: float
) -> SessionInfo:
    await require_session(db, profile, session_id, lock=True)
    return to_info(await repository.add_usage(db, profile.id, session_id, input_tokens, output_tokens, cost))


# ---------------------------------------------------------------- messages


async def _resolve_parent(
    db: AsyncSession, profile: Profile, session_id: str, parent_given: bool, parent_id: str | None
) -> str | None:
    if not parent_given:
        leaf = await repository.latest_leaf(db, profile.id, session_id)
        return leaf.id if leaf is not None else None
    if parent_id is None:
        return None
    parent = await repository.get_message(db, profile.id, session_id, parent_id)
    # A parent outside this session (or nowhere) starts a new root rather than linking two sessions' trees.
    return parent.id if parent is not None else None


async def _insert(
    db: AsyncSession, profile: Profile, session_id: str, message: MessageIn, parent_id: str | None
) -> tuple[Message, bool]:
    """Store one message under `parent_id`; an id already in this session is returned unchanged."""
    existing = await repository.get_message(db, profile.id, session_id, message.id)
    if existing is None:
        row = await repository.insert_message(
            db,
            profile.id,
            session_id,
            message.id,
            parent_id,
            message.role,
            message.name,
            message.parts,
            indexed_text(message.parts),
            message.created_at,
        )
        if row is not None:
            return row, True
        existing = await repository.get_message(db, profile.id, session_id, message.id)
        assert existing is not None
    return existing, False


async def append_message(
    db: AsyncSession,
    profile: Profile,
    session_id: str,
    message: MessageIn,
    parent_given: bool,
    parent_id: str | None,
) -> tuple[SessionMessage, bool]:
    """appendMessage: (the stored message, whether it was new). A session never created is created."""
    session = await ensure_session(db, profile, session_id)
    existing = await repository.get_message(db, profile.id, session_id, message.id)
    if existing is not None:
        return to_message(existing), False
    parent = await _resolve_parent(db, profile, session_id, parent_given, parent_id)
    async with held_to_quotas(db, profile.namespace_id, "messages", "bytes"):
        row, created = await _insert(db, profile, session_id, message, parent)
    if created:
        await _after_append(db, profile, session, [row.id])
    return to_message(row), created


async def append_messages(
    db: AsyncSession,
    profile: Profile,
    session_id: str,
    messages: Sequence[MessageIn],
    parent_given: bool,
    parent_id: str | None,
) -> list[SessionMessage]:
    """appendAll: the first message follows the parent rules, each next one hangs under the previous."""
    session = await ensure_session(db, profile, session_id)
    parent = await _resolve_parent(db, profile, session_id, parent_given, parent_id)
    out: list[SessionMessage] = []
    new_ids: list[str] = []
    async with held_to_quotas(db, profile.namespace_id, "messages", "bytes"):
        for message in messages:
            row, created = await _insert(db, profile, session_id, message, parent)
            if created:
                new_ids.append(row.id)
            out.append(to_message(row))
            parent = row.id
    if new_ids:
        await _after_append(db, profile, session, new_ids)
    return out


async def _after_append(db: AsyncSession, profile: Profile, session: Session, new_ids: list[str]) -> None:
    """What every append that stored something does: move `updatedAt`, queue the new messages for memory
    extraction (in this transaction, as ingest does; queued jobs of a session coalesce into one batch)
    unless the session opted out, and queue a compaction when the estimate passed `compactAfter`."""
    await repository.touch(db, profile.id, session.id)
    if session.extract_memories:
        await enqueue_extraction(db, profile.id, session.id, new_ids)
    await auto_compact(db, profile, session)


async def upsert_message(
    db: AsyncSession,
    profile: Profile,
    session_id: str,
    message_id: str,
    message: MessageIn,
    parent_given: bool,
    parent_id: str | None,
) -> tuple[SessionMessage, bool]:
    """PUT: update an existing message of the session in place, or append it as new (True)."""
    if message.id != message_id:
        raise ValidationFailed(
            f"message.id '{message.id}' does not match the path's message id '{message_id}'",
            [{"loc": ["body", "message", "id"], "msg": "must equal the message id in the path"}],
        )
    session = await ensure_session(db, profile, session_id)
    existing = await repository.get_message(db, profile.id, session_id, message_id)
    if existing is None:
        return await append_message(db, profile, session_id, message, parent_given, parent_id)
    async with held_to_quotas(db, profile.namespace_id, "bytes"):
        row = await repository.update_message(
            db,
            profile.id,
            session_id,
            message_id,
            message.role,
            message.name,
            message.parts,
            indexed_text(message.parts),
        )
    await repository.touch(db, profile.id, session_id)
    if session.extract_memories and row.text_content != existing.text_content:
        # Extraction is idempotent on content: only statements the edit added become new memories.
        await enqueue_extraction(db, profile.id, session_id, [message_id])
    return to_message(row), False


async def require_message(db: AsyncSession, profile: Profile, session_id: str, message_id: str) -> Message:
    row = await repository.get_message(db, profile.id, session_id, message_id)
    if row is None:
        raise MessageNotFound(f"message '{message_id}' not found in session '{session_id}'")
    return row


async def get_message(db: AsyncSession, profile: Profile, session_id: str, message_id: str) -> SessionMessage:
    await require_session(db, profile, session_id)
    return to_message(await require_message(db, profile, session_id, message_id))


async def delete_message(db: AsyncSession, profile: Profile, session_id: str, message_id: str) -> None:
    """Delete one message; its children are re-linked to its parent."""
    await require_session(db, profile, session_id, lock=True)
    # Idempotent: deleting a message that is gone answers as deleting it did (the session must exist).
    if await repository.delete_messages(db, profile.id, session_id, [message_id]):
        await repository.touch(db, profile.id, session_id)


async def delete_messages(
    db: AsyncSession, profile: Profile, session_id: str, message_ids: Sequence[str]
) -> list[str]:
    """deleteMessages(ids): the ids that existed are deleted (children re-linked); unknown ids are ignored."""
    await require_session(db, profile, session_id, lock=True)
    deleted = await repository.delete_messages(db, profile.id, session_id, message_ids)
    if deleted:
        await repository.touch(db, profile.id, session_id)
    return deleted


async def clear_messages(db: AsyncSession, profile: Profile, session_id: str) -> None:
    """clearMessages: messages, overlays and loaded-skill state go; the prompt is re-rendered, as the reference does."""
    await require_session(db, profile, session_id, lock=True)
    await repository.clear_messages(db, profile.id, session_id)
    await repository.set_loaded_skills(db, profile.id, session_id, [])
    await system_prompt.refresh(db, profile, session_id)
    await repository.touch(db, profile.id, session_id)


async def branches(
    db: AsyncSession, profile: Profile, session_id: str, message_id: str
) -> list[SessionMessage]:
    await require_session(db, profile, session_id)
    await require_message(db, profile, session_id, message_id)
    return [to_message(r) for r in await repository.children(db, profile.id, session_id, message_id)]


async def latest_leaf(db: AsyncSession, profile: Profile, session_id: str) -> SessionMessage | None:
    await require_session(db, profile, session_id)
    row = await repository.latest_leaf(db, profile.id, session_id)
    return to_message(row) if row is not None else None


# ---------------------------------------------------------------- history


def apply_overlays(path: Sequence[Message], compactions: Sequence[Compaction]) -> list[SessionMessage]:
    """Replace each compacted range on this path by one synthetic assistant message (`overlay_plan`)."""
    by_id = {m.id: m for m in path}
    plan = overlay_plan([m.id for m in path], compactions)
    return [to_message(by_id[item]) if isinstance(item, str) else item for item in plan]


def overlay_plan(path: Sequence[str], compactions: Sequence[Compaction]) -> list[str | SessionMessage]:
    """The path's message ids with each compacted range replaced by one synthetic assistant message (newest
    overlay wins).

    An overlay belongs to the branch it was made on: it applies only when its whole range lies on this path,
    so sibling branches compacted from the same message each keep their own summary.
    """
    index = {m: i for i, m in enumerate(path)}
    by_start: dict[str, Compaction] = {}
    for c in compactions:  # oldest first, so the newest overlay of a start replaces older ones
        start, end = index.get(c.from_message_id), index.get(c.to_message_id)
        if start is not None and end is not None and end >= start:
            by_start[c.from_message_id] = c
    out: list[str | SessionMessage] = []
    i = 0
    while i < len(path):
        overlay = by_start.get(path[i])
        end = index.get(overlay.to_message_id, -1) if overlay is not None else -1
        if overlay is not None and end >= i:
            out.append(
                SessionMessage(
                    id=f"{COMPACTION_PREFIX}{overlay.id}",
                    role="assistant",
                    parts=[{"type": "text", "text": overlay.summary}],
                    created_at=overlay.created_at,
                )
            )
            i = end + 1
            continue
        out.append(path[i])
        i += 1
    return out


async def raw_path(db: AsyncSession, profile: Profile, session_id: str, leaf_id: str | None) -> list[Message]:
    if leaf_id is None:
        leaf = await repository.latest_leaf(db, profile.id, session_id)
        if leaf is None:
            return []
        leaf_id = leaf.id
    else:
        await require_message(db, profile, session_id, leaf_id)
    return await repository.path_to(db, profile.id, session_id, leaf_id)


async def history_messages(
    db: AsyncSession, profile: Profile, session_id: str, leaf_id: str | None = None, raw: bool = False
) -> tuple[list[SessionMessage], int]:
    """(the history root → leaf, overlays applied unless raw; the stored path's length)."""
    path = await raw_path(db, profile, session_id, leaf_id)
    if raw:
        return [to_message(m) for m in path], len(path)
    compactions = await repository.list_compactions(db, profile.id, session_id)
    return apply_overlays(path, compactions), len(path)


async def token_estimate(
    db: AsyncSession, profile: Profile, session: Session, messages: Sequence[SessionMessage]
) -> int:
    """The messages plus the session's system prompt (the frozen one, else a render that freezes nothing)."""
    system = await system_prompt.for_estimate(db, profile, session)
    return estimate_messages(messages) + estimate_string_tokens(system)


async def history(
    db: AsyncSession,
    profile: Profile,
    session_id: str,
    leaf_id: str | None,
    raw: bool,
    truncation: Truncation | None = None,
) -> History:
    """getHistory; with `truncation`, older messages' tool outputs and long texts are cut in the answer
    (never in storage), and the token estimate counts what is answered."""
    session = await require_session(db, profile, session_id)
    messages, path_length = await history_messages(db, profile, session_id, leaf_id, raw)
    if truncation is not None:
        messages = truncate_older(
            messages, truncation.keep_recent, truncation.max_tool_output_chars, truncation.max_text_chars
        )
    estimate = await token_estimate(db, profile, session, messages)
    return History(messages=messages, path_length=path_length, token_estimate=estimate)


# ---------------------------------------------------------------- search


async def search(
    db: AsyncSession, profile: Profile, session_id: str | None, query: str, limit: int
) -> SearchResults:
    if session_id is not None:
        await require_session(db, profile, session_id)
    rows = await repository.search(db, profile.id, session_id, query, limit)
    return SearchResults(results=rows)


# ---------------------------------------------------------------- compactions, fork, split


async def list_compactions(db: AsyncSession, profile: Profile, session_id: str) -> list[CompactionOut]:
    await require_session(db, profile, session_id)
    return [to_compaction(c) for c in await repository.list_compactions(db, profile.id, session_id)]


async def add_compaction(
    db: AsyncSession, profile: Profile, session_id: str, summary: str, from_id: str, to_id: str
) -> CompactionOut:
    await require_session(db, profile, session_id, lock=True)
    await require_message(db, profile, session_id, from_id)
    await require_message(db, profile, session_id, to_id)
    row = await repository.insert_compaction(
        db, profile.id, session_id, new_compaction_id(), summary, from_id, to_id
    )
    await repository.touch(db, profile.id, session_id)
    return to_compaction(row)


def new_compaction_id() -> str:
    from ulid import ULID

    return str(ULID())


async def auto_compact(db: AsyncSession, profile: Profile, session: Session) -> None:
    """After an append: queue a compaction job when the estimate passed `compactAfter`. The append commits
    and answers at once; the worker compacts (maybe with an LLM) with no request waiting on it."""
    if session.compact_after is None:
        return
    messages, _ = await history_messages(db, profile, session.id)
    estimate = await token_estimate(db, profile, session, messages)
    if estimate > session.compact_after:
        # The tail kept verbatim must fit under the threshold, or a low threshold would never compact.
        tail_budget = min(TAIL_TOKEN_BUDGET, session.compact_after // 2)
        await enqueue_compaction(db, profile.id, session.id, tail_budget)


async def fork(
    db: AsyncSession, profile: Profile, session_id: str, at_message_id: str, name: str
) -> SessionInfo:
    """Copy the stored path root → atMessageId into a new session under new ids; overlays stay behind."""
    await require_session(db, profile, session_id)
    path = await raw_path(db, profile, session_id, at_message_id)
    new_id = str(uuid.uuid4())
    created = await repository.insert_session(db, profile.id, new_id, name=name, parent_session_id=session_id)
    assert created is not None
    parent: str | None = None
    async with held_to_quotas(db, profile.namespace_id, "messages", "bytes"):
        for message in path:
            copy_id = str(uuid.uuid4())
            await repository.insert_message(
                db,
                profile.id,
                new_id,
                copy_id,
                parent,
                message.role,
                message.name,
                message.parts,
                message.text_content,
                message.created_at,
            )
            parent = copy_id
    return to_info(await repository.update_session(db, profile.id, new_id))


async def split(
    db: AsyncSession, profile: Profile, session_id: str, summary: str, name: str | None
) -> SessionInfo:
    """compactAndSplit: end this session (`endReason: compaction`) and continue in a new one seeded with the summary."""
    old = await require_session(db, profile, session_id, lock=True)
    ids = await repository.session_message_ids(db, profile.id, session_id)
    if ids and old.extract_memories:
        # The old conversation leaves the context window: make sure what it taught reaches memory.
        await enqueue_extraction(db, profile.id, session_id, ids)
    await repository.update_session(db, profile.id, session_id, end_reason="compaction")
    new_id = str(uuid.uuid4())
    created = await repository.insert_session(
        db,
        profile.id,
        new_id,
        name=name if name is not None else old.name,
        parent_session_id=session_id,
        model=old.model,
        source=old.source,
        extract_memories=old.extract_memories,
    )
    assert created is not None
    parts: list[dict[str, Any]] = [{"type": "text", "text": SPLIT_PREFIX + summary}]
    async with held_to_quotas(db, profile.namespace_id, "messages", "bytes"):
        await repository.insert_message(
            db,
            profile.id,
            new_id,
            str(uuid.uuid4()),
            None,
            "assistant",
            None,
            parts,
            indexed_text(parts),
            None,
        )
    return to_info(await repository.update_session(db, profile.id, new_id))
