"""SQL of the Session API: sessions, the message tree (path walks, leaves, branches), full text, compactions."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, delete, func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.core import batches
from app.core.db import indexed_text_fits
from app.core.profiled_text import all_keys_query, profile_lexemes, query_vector
from app.language.detect import search_config
from app.models import Compaction, Message, Session
from app.sessions.fulltext import MESSAGE_TERMS_QUERY, language_params, split_query
from app.sessions.schemas import SearchHit

# The longest root → leaf path a history read follows: a bound on the recursive walk, far beyond any
# real conversation, so a corrupt parent chain cannot make one read unbounded.
MAX_DEPTH = 10_000

# ---------------------------------------------------------------- sessions


async def get_session(
    db: AsyncSession, profile_id: int, session_id: str, *, lock: bool = False
) -> Session | None:
    stmt = select(Session).where(Session.profile_id == profile_id, Session.id == session_id)
    if lock:
        stmt = stmt.with_for_update()
    return (await db.execute(stmt)).scalar_one_or_none()


async def insert_session(db: AsyncSession, profile_id: int, session_id: str, **values: Any) -> Session | None:
    """The new session, or None when the id is taken (concurrent creators included)."""
    stmt = (
        insert(Session)
        .values(profile_id=profile_id, id=session_id, **values)
        .on_conflict_do_nothing(index_elements=["profile_id", "id"])
        .returning(Session)
    )
    return (await db.execute(stmt)).scalar_one_or_none()


async def list_sessions(
    db: AsyncSession, profile_id: int, after: tuple[datetime, str] | None, limit: int
) -> list[Session]:
    stmt = (
        select(Session)
        .where(Session.profile_id == profile_id)
        .order_by(Session.updated_at.desc(), Session.id.desc())
        .limit(limit)
    )
    if after is not None:
        stmt = stmt.where(func.row(Session.updated_at, Session.id) < func.row(after[0], after[1]))
    return list((await db.execute(stmt)).scalars())


async def update_session(db: AsyncSession, profile_id: int, session_id: str, **values: Any) -> Session:
    """Apply the changes and move `updated_at`; the session must exist."""
    stmt = (
        update(Session)
        .where(Session.profile_id == profile_id, Session.id == session_id)
        .values(updated_at=func.clock_timestamp(), **values)
        .returning(Session)
        .execution_options(synchronize_session=False)
    )
    return (await db.execute(stmt)).scalar_one()


async def touch(db: AsyncSession, profile_id: int, session_id: str) -> None:
    # clock_timestamp, not now(): two writes in one transaction (split) still order by updated_at.
    await db.execute(
        update(Session)
        .where(Session.profile_id == profile_id, Session.id == session_id)
        .values(updated_at=func.clock_timestamp())
        .execution_options(synchronize_session=False)
    )


async def add_usage(
    db: AsyncSession, profile_id: int, session_id: str, input_tokens: int, output_tokens: int, cost: float
) -> Session:
    return await update_session(
        db,
        profile_id,
        session_id,
        input_tokens=Session.input_tokens + input_tokens,
        output_tokens=Session.output_tokens + output_tokens,
        estimated_cost=Session.estimated_cost + cost,
    )


async def freeze_prompt(db: AsyncSession, profile_id: int, session_id: str, prompt: str) -> str:
    """Store the prompt unless one is already frozen; the frozen one wins (first reader of a race)."""
    stored = await db.execute(
        update(Session)
        .where(Session.profile_id == profile_id, Session.id == session_id, Session.system_prompt.is_(None))
        .values(system_prompt=prompt)
        .returning(Session.system_prompt)
        .execution_options(synchronize_session=False)
    )
    frozen = stored.scalar_one_or_none()
    if frozen is not None:
        return frozen
    current = await db.execute(
        select(Session.system_prompt).where(Session.profile_id == profile_id, Session.id == session_id)
    )
    return current.scalar_one_or_none() or prompt


async def store_prompt(db: AsyncSession, profile_id: int, session_id: str, prompt: str) -> None:
    await db.execute(
        update(Session)
        .where(Session.profile_id == profile_id, Session.id == session_id)
        .values(system_prompt=prompt)
        .execution_options(synchronize_session=False)
    )


async def set_loaded_skills(db: AsyncSession, profile_id: int, session_id: str, skills: list[str]) -> None:
    await db.execute(
        update(Session)
        .where(Session.profile_id == profile_id, Session.id == session_id)
        .values(loaded_skills=skills)
        .execution_options(synchronize_session=False)
    )


# ---------------------------------------------------------------- messages


async def get_message(db: AsyncSession, profile_id: int, session_id: str, message_id: str) -> Message | None:
    stmt = select(Message).where(
        Message.profile_id == profile_id, Message.session_id == session_id, Message.id == message_id
    )
    return (await db.execute(stmt)).scalar_one_or_none()


async def insert_message(
    db: AsyncSession,
    profile_id: int,
    session_id: str,
    message_id: str,
    parent_id: str | None,
    role: str,
    name: str | None,
    parts: list[dict[str, Any]],
    text_content: str,
    created_at: datetime | None,
) -> Message | None:
    """The new row, or None when the session already holds that id (append is idempotent)."""
    values: dict[str, Any] = {
        "profile_id": profile_id,
        "id": message_id,
        "session_id": session_id,
        "parent_id": parent_id,
        "role": role,
        "name": name,
        "parts": parts,
        "text_content": text_content,
        "language": search_config(text_content),
        # clock_timestamp: messages appended in one transaction (batch, split) keep their order in time.
        "created_at": created_at if created_at is not None else func.clock_timestamp(),
    }
    stmt = (
        insert(Message)
        .values(**values)
        .on_conflict_do_nothing(index_elements=["profile_id", "session_id", "id"])
        .returning(Message)
    )
    with indexed_text_fits(["body", "message", "parts"]):
        return (await db.execute(stmt)).scalar_one_or_none()


_SET_LANGUAGES = text(
    """
    UPDATE messages m SET language = CAST(l.language AS regconfig)
    FROM unnest(CAST(:ids AS text[]), CAST(:languages AS text[])) AS l(id, language)
    WHERE m.profile_id = :p AND m.session_id = :s AND m.id = l.id
      AND m.language <> CAST(l.language AS regconfig)
    """
)


async def set_languages(
    db: AsyncSession, profile_id: int, session_id: str, languages: dict[str, str]
) -> None:
    """Index the session's messages `languages` names (id → text-search configuration) in that language."""
    if languages:
        await db.execute(
            _SET_LANGUAGES,
            {"p": profile_id, "s": session_id, "ids": list(languages), "languages": list(languages.values())},
        )


async def update_message(
    db: AsyncSession,
    profile_id: int,
    session_id: str,
    message_id: str,
    role: str,
    name: str | None,
    parts: list[dict[str, Any]],
    text_content: str,
) -> Message:
    stmt = (
        update(Message)
        .where(Message.profile_id == profile_id, Message.session_id == session_id, Message.id == message_id)
        .values(
            role=role, name=name, parts=parts, text_content=text_content, language=search_config(text_content)
        )
        .returning(Message)
        # The message was read in this session: its loaded copy takes the returned row's values.
        .execution_options(synchronize_session=False, populate_existing=True)
    )
    with indexed_text_fits(["body", "message", "parts"]):
        return (await db.execute(stmt)).scalar_one()


_RELINK_AND_DELETE = text(
    """
    WITH gone AS (
        DELETE FROM messages WHERE profile_id = :p AND session_id = :s AND id = :id
        RETURNING id, parent_id
    ), relinked AS (
        UPDATE messages c SET parent_id = gone.parent_id FROM gone
        WHERE c.profile_id = :p AND c.session_id = :s AND c.parent_id = gone.id
    )
    SELECT id FROM gone
    """
)


async def delete_messages(
    db: AsyncSession, profile_id: int, session_id: str, message_ids: Sequence[str]
) -> list[str]:
    """Delete these messages of a session, re-linking each one's children to its parent, so what remains
    stays one walkable path; returns the ids that existed. One at a time, so a deleted chain re-links to
    the nearest ancestor that stays. Deleting a memory deletes its source messages through this too."""
    deleted: list[str] = []
    for message_id in dict.fromkeys(message_ids):
        row = await db.execute(_RELINK_AND_DELETE, {"p": profile_id, "s": session_id, "id": message_id})
        if row.scalar_one_or_none() is not None:
            deleted.append(message_id)
    return deleted


async def clear_messages(db: AsyncSession, profile_id: int, session_id: str) -> None:
    await db.execute(
        delete(Compaction).where(Compaction.profile_id == profile_id, Compaction.session_id == session_id)
    )
    await db.execute(
        delete(Message).where(Message.profile_id == profile_id, Message.session_id == session_id)
    )


# The childless message with the greatest createdAt, ties broken by insertion order ({} its columns).
_LATEST_LEAF = """
    SELECT {} FROM messages m
    WHERE m.profile_id = :p AND m.session_id = :s
      AND NOT EXISTS (SELECT 1 FROM messages c WHERE c.profile_id = :p AND c.session_id = :s AND c.parent_id = m.id)
    ORDER BY m.created_at DESC, m.seq DESC
    LIMIT 1
"""


async def latest_leaf(db: AsyncSession, profile_id: int, session_id: str) -> Message | None:
    stmt = select(Message).from_statement(text(_LATEST_LEAF.format("m.*")))
    return (await db.execute(stmt, {"p": profile_id, "s": session_id})).scalar_one_or_none()


async def latest_leaf_id(db: AsyncSession, profile_id: int, session_id: str) -> str | None:
    stmt = text(_LATEST_LEAF.format("m.id"))
    return (await db.execute(stmt, {"p": profile_id, "s": session_id})).scalar_one_or_none()


async def children(db: AsyncSession, profile_id: int, session_id: str, message_id: str) -> list[Message]:
    stmt = (
        select(Message)
        .where(
            Message.profile_id == profile_id,
            Message.session_id == session_id,
            Message.parent_id == message_id,
        )
        .order_by(Message.created_at, Message.seq)
    )
    return list((await db.execute(stmt)).scalars())


_PATH = text(
    """
    WITH RECURSIVE path AS (
        SELECT m.id, m.parent_id, 0 AS depth FROM messages m
        WHERE m.profile_id = :p AND m.session_id = :s AND m.id = :leaf
      UNION ALL
        SELECT m.id, m.parent_id, path.depth + 1 FROM messages m
        JOIN path ON m.id = path.parent_id
        WHERE m.profile_id = :p AND m.session_id = :s AND path.depth < :cap
    )
    SELECT m.* FROM path JOIN messages m ON m.profile_id = :p AND m.session_id = :s AND m.id = path.id
    ORDER BY path.depth DESC
    """
)


async def path_to(db: AsyncSession, profile_id: int, session_id: str, leaf_id: str) -> list[Message]:
    """Root → leaf, following parent ids inside the session, at most MAX_DEPTH + 1 messages."""
    params = {"p": profile_id, "s": session_id, "leaf": leaf_id, "cap": MAX_DEPTH}
    return list((await db.execute(select(Message).from_statement(_PATH), params)).scalars())


_PATH_IDS = text(
    """
    WITH RECURSIVE path AS (
        SELECT m.id, m.parent_id, 0 AS depth FROM messages m
        WHERE m.profile_id = :p AND m.session_id = :s AND m.id = :leaf
      UNION ALL
        SELECT m.id, m.parent_id, path.depth + 1 FROM messages m
        JOIN path ON m.id = path.parent_id
        WHERE m.profile_id = :p AND m.session_id = :s AND path.depth < :cap
    )
    SELECT id FROM path ORDER BY depth DESC
    """
)


async def path_ids(db: AsyncSession, profile_id: int, session_id: str, leaf_id: str) -> list[str]:
    """The ids of `path_to`'s messages (root → leaf), without reading their parts."""
    params = {"p": profile_id, "s": session_id, "leaf": leaf_id, "cap": MAX_DEPTH}
    return list((await db.execute(_PATH_IDS, params)).scalars())


# The messages of a list of ids, in its order, parts as JSON text; cut to a batch's byte budget.
_MESSAGES_IN_ORDER = text(
    batches.bounded(
        "SELECT m.id, m.role, m.name, m.parts::text AS parts, m.created_at, u.ord "
        "FROM unnest(CAST(:ids AS text[])) WITH ORDINALITY AS u(id, ord) "
        "JOIN messages m ON m.profile_id = :p AND m.session_id = :s AND m.id = u.id",
        "octet_length(parts)",
        "ord",
    )
)


async def messages_in_order(
    conn: AsyncConnection, profile_id: int, session_id: str, ids: Sequence[str]
) -> AsyncIterator[Sequence[Row[Any]]]:
    """The messages of `ids` (those still stored), in that order, batch by batch: each batch about
    `batches.BATCH_BYTES` of parts at most (app.core.batches), so no read holds a long path whole."""
    start, asked = 0, batches.FIRST_ROWS
    while start < len(ids):
        chunk = list(ids[start : start + asked])
        params = {"p": profile_id, "s": session_id, "ids": chunk, "budget": batches.BATCH_BYTES}
        rows = (await conn.execute(_MESSAGES_IN_ORDER, params)).all()
        if rows:
            yield rows
            asked = batches.next_rows(rows)
        # Every message found fitted: the chunk is done (an id no longer stored is passed over).
        start += len(chunk) if not rows or len(rows) == rows[0].available else int(rows[-1].ord)


async def session_message_ids(db: AsyncSession, profile_id: int, session_id: str) -> list[str]:
    stmt = (
        select(Message.id)
        .where(Message.profile_id == profile_id, Message.session_id == session_id)
        .order_by(Message.seq)
    )
    return list((await db.execute(stmt)).scalars())


@dataclass(frozen=True)
class MessageText:
    """A message as extraction reads it: its text (parts flattened), time, order and metadata."""

    id: str
    role: str
    text: str
    created_at: datetime
    seq: int
    metadata: dict[str, Any] | None
    name: str | None  # the speaker's name, when the ingest gave one


# Plain columns only: extraction reads thousands of messages a second and needs none of the parts JSON.
# MessageText's fields, in order.
_MESSAGE_TEXT_COLUMNS = "id, role, text_content, created_at, seq, metadata, name"
_MESSAGES_BY_ID = text(
    f"SELECT {_MESSAGE_TEXT_COLUMNS} FROM messages "
    "WHERE profile_id = :p AND session_id = :sid AND id = ANY(CAST(:ids AS text[])) ORDER BY seq"
)
_MESSAGES_BEFORE = text(
    f"SELECT {_MESSAGE_TEXT_COLUMNS} FROM messages "
    "WHERE profile_id = :p AND session_id = :sid AND seq < :seq ORDER BY seq DESC LIMIT :n"
)


# Other sessions' messages told in a period, newest first, through the (profile, created_at) index.
_OTHER_SESSIONS_MESSAGES = text(
    f"SELECT {_MESSAGE_TEXT_COLUMNS} FROM messages "
    "WHERE profile_id = :p AND created_at >= :since AND created_at < :until AND session_id <> :sid "
    "ORDER BY created_at DESC LIMIT :n"
)


def _message_texts(rows: Any) -> list[MessageText]:
    return [MessageText(*r) for r in rows]  # the columns are the fields, in order


async def window_messages(
    db: AsyncSession, profile_id: int, session_id: str, message_ids: list[str], context: int
) -> tuple[list[MessageText], int]:
    """The given messages of a session in order, preceded by up to `context` earlier ones.

    Returns (messages, index of the first new one).
    """
    params = {"p": profile_id, "sid": session_id, "ids": message_ids}
    new_rows = _message_texts(await db.execute(_MESSAGES_BY_ID, params))
    if not new_rows:
        return [], 0
    params = {"p": profile_id, "sid": session_id, "seq": new_rows[0].seq, "n": context}
    before = _message_texts(await db.execute(_MESSAGES_BEFORE, params))
    before.reverse()
    return before + new_rows, len(before)


async def other_sessions_messages(
    db: AsyncSession, profile_id: int, session_id: str, since: datetime, until: datetime, limit: int
) -> list[MessageText]:
    """The profile's messages of other sessions told in [since, until), oldest first, the newest
    `limit` of them."""
    params = {"p": profile_id, "sid": session_id, "since": since, "until": until, "n": limit}
    rows = _message_texts(await db.execute(_OTHER_SESSIONS_MESSAGES, params))
    rows.reverse()
    return rows


async def lock_session(db: AsyncSession, profile_id: int, session_id: str) -> None:
    """Take the session row's lock (if the row exists), as every writer of a session does first."""
    await db.execute(
        select(Session.id).where(Session.profile_id == profile_id, Session.id == session_id).with_for_update()
    )


async def delete_session(db: AsyncSession, profile_id: int, session_id: str) -> bool:
    """The session row; its foreign keys cascade to its messages (and their sources) and compactions.
    Whether there was one."""
    result = await db.execute(
        delete(Session).where(Session.profile_id == profile_id, Session.id == session_id)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def count_sessions(db: AsyncSession, profile_id: int) -> int:
    stmt = select(func.count()).select_from(Session).where(Session.profile_id == profile_id)
    return int((await db.execute(stmt)).scalar_one())


# The index finds the profile's rows holding every word (a phrase's words included); the row's own tsvector
# then checks the query itself (phrases in order).
_SEARCH_KEYS = all_keys_query(
    "CAST(CAST(:p AS bigint) AS text)",
    query_vector("(CAST(:words AS text) || ' ' || array_to_string(CAST(:phrases AS text[]), ' '))"),
)
_SEARCH = text(
    f"""
    WITH q AS (SELECT {MESSAGE_TERMS_QUERY} AS query, {_SEARCH_KEYS} AS keys)
    SELECT m.id, m.session_id, m.role, m.text_content AS content, m.created_at,
           ts_rank(m.tsv, q.query) AS score
    FROM messages m, q
    WHERE m.profile_id = :p AND (CAST(:s AS text) IS NULL OR m.session_id = :s)
      AND {profile_lexemes("m")} @@ q.keys AND m.tsv @@ q.query
    ORDER BY score DESC, m.created_at DESC, m.seq DESC
    LIMIT :limit
    """
)


async def search(
    db: AsyncSession, profile_id: int, session_id: str | None, query: str, limit: int
) -> list[SearchHit]:
    """Messages matching every word (and phrase), best first. A hit is its row as the API shows it: the
    statement selects exactly SearchHit's fields."""
    words, phrases = split_query(query)
    params = {
        "p": profile_id,
        "s": session_id,
        "words": words,
        "phrases": phrases,
        "limit": limit,
        **language_params(query),
    }
    return [SearchHit.model_validate(row) for row in (await db.execute(_SEARCH, params)).mappings()]


# ---------------------------------------------------------------- compactions


async def list_compactions(db: AsyncSession, profile_id: int, session_id: str) -> list[Compaction]:
    stmt = (
        select(Compaction)
        .where(Compaction.profile_id == profile_id, Compaction.session_id == session_id)
        .order_by(Compaction.created_at, Compaction.seq)
    )
    return list((await db.execute(stmt)).scalars())


async def insert_compaction(
    db: AsyncSession,
    profile_id: int,
    session_id: str,
    compaction_id: str,
    summary: str,
    from_id: str,
    to_id: str,
) -> Compaction:
    stmt = (
        insert(Compaction)
        .values(
            profile_id=profile_id,
            id=compaction_id,
            session_id=session_id,
            summary=summary,
            from_message_id=from_id,
            to_message_id=to_id,
            created_at=func.clock_timestamp(),
        )
        .returning(Compaction)
    )
    return (await db.execute(stmt)).scalar_one()


# ---------------------------------------------------------------- recency and last words (the summary)


@dataclass(frozen=True)
class SessionActivity:
    id: str
    last_at: datetime  # its last message's time, else its row's updated_at
    updated_at: datetime


# A session's recency is the time of its last message (the conversation's own clock, so an imported
# history keeps its order). The last message by `seq` is one index probe per session.
_SESSION_ACTIVITY = text(
    """
    SELECT s.id,
           COALESCE((SELECT m.created_at FROM messages m
                     WHERE m.profile_id = s.profile_id AND m.session_id = s.id
                     ORDER BY m.seq DESC LIMIT 1), s.updated_at) AS last_at,
           s.updated_at
    FROM sessions s
    WHERE s.profile_id = :p
    """
)


async def session_activity(db: AsyncSession, profile_id: int) -> list[SessionActivity]:
    """Every session of the profile with the time of its last message."""
    return [SessionActivity(*r) for r in await db.execute(_SESSION_ACTIVITY, {"p": profile_id})]


@dataclass(frozen=True)
class MessageLine:
    role: str
    text: str
    name: str | None  # the speaker's name, when the ingest gave one


_LAST_MESSAGES = text(
    """
    SELECT role, text_content AS text, name FROM messages
    WHERE profile_id = :p AND session_id = :sid AND text_content <> ''
    ORDER BY seq DESC
    LIMIT :limit
    """
)


async def last_text_messages(
    db: AsyncSession, profile_id: int, session_id: str, limit: int
) -> list[MessageLine]:
    """The session's last messages that carry text, newest first."""
    rows = await db.execute(_LAST_MESSAGES, {"p": profile_id, "sid": session_id, "limit": limit})
    return [MessageLine(role=r["role"], text=r["text"], name=r["name"]) for r in rows.mappings()]
