"""SQL of memories: bulk idempotent insert with sources, supersession by topic key, reads (current or as of
an instant), edits and deletes that archive the state they end into `memory_versions`, and history."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Self

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.memory_types import DATED_TYPES, SUPERSEDING_TYPES, MemoryType, sql_list
from app.core.metadata import filter_sql
from app.language.detect import search_config
from app.sessions import repository as sessions_repository
from app.worker import queue

_COLUMNS = (
    "id, type, summary, content, session_id, event_time, created_at, updated_at, metadata, superseded_by, "
    "version, valid_from, valid_to, speaker, speaker_role"
)


@dataclass(frozen=True)
class ListedMemory:
    """A memory's state as a list shows it (all but its content)."""

    id: str
    type: str
    summary: str
    session_id: str | None
    event_time: datetime | None
    created_at: datetime
    updated_at: datetime
    metadata: dict[str, Any]
    superseded_by: str | None
    version: int
    valid_from: datetime
    valid_to: datetime | None
    speaker: str | None  # who said it (any script); None when no name was given
    speaker_role: str | None  # the role of the message it was said in; None: remembered

    @classmethod
    def of(cls, row: Mapping[Any, Any]) -> Self:
        """From a result row (SQLAlchemy mapping or asyncpg record) holding at least the class's columns."""
        return cls(**{name: row[name] for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class MemoryRow(ListedMemory):
    """A memory's state (`_COLUMNS`): current, archived or as of an instant."""

    content: str


@dataclass(frozen=True)
class EditableMemory(MemoryRow):
    """The current state and topic of a memory about to be edited."""

    topic_key: str | None


@dataclass(frozen=True)
class MemoryState:
    """One state of a memory's history, and how it ended (superseded or deleted), if it did."""

    version: int
    change: str
    type: str
    summary: str
    content: str
    metadata: dict[str, Any]
    valid_from: datetime
    valid_to: datetime | None
    superseded_by: str | None
    deleted_at: datetime | None


@dataclass(frozen=True)
class SourceMessage:
    """A message a memory was extracted from."""

    message_id: str
    role: str
    content: str
    timestamp: datetime


@dataclass(frozen=True)
class Speaker:
    """Who said a message: its name (given, or read from a `Name:` prefix at ingest) and its role."""

    name: str | None = None
    role: str | None = None


@dataclass
class NewMemory:
    id: str
    type: str
    summary: str
    content: str
    session_id: str | None
    topic_key: str | None
    event_time: datetime | None
    content_hash: str
    source_message_ids: tuple[str, ...]
    metadata: dict[str, Any] | None = None
    context: str = ""
    # The full-text configuration of its language; detected from the content when the writer did not say.
    language: str | None = None
    speaker: str | None = None  # who said it: its source message's name or `Name:` prefix
    speaker_role: str | None = None  # that message's role; None for a remembered memory

    @property
    def supersedes(self) -> bool:
        return _supersedes(self.topic_key, self.type)

    @property
    def search_config(self) -> str:
        return self.language or search_config(self.content)


def _supersedes(topic_key: str | None, memory_type: str) -> bool:
    """Whether a new memory supersedes the active ones of its topic (a fact or instruction with a topic)."""
    return bool(topic_key) and memory_type in SUPERSEDING_TYPES


_INSERT = text(
    """
    INSERT INTO memories (profile_id, id, type, summary, content, session_id, topic_key, event_time, content_hash,
                          metadata, context, language, speaker, speaker_role)
    SELECT :p, m.id, m.type, m.summary, m.content, m.session_id, m.topic_key, m.event_time, m.content_hash,
           coalesce(CAST(m.metadata AS jsonb), '{}'), m.context, CAST(m.language AS regconfig), m.speaker,
           m.speaker_role
    FROM unnest(CAST(:ids AS text[]), CAST(:types AS text[]), CAST(:summaries AS text[]),
                CAST(:contents AS text[]), CAST(:sessions AS text[]), CAST(:topics AS text[]),
                CAST(:times AS timestamptz[]), CAST(:hashes AS text[]), CAST(:metadata AS text[]),
                CAST(:contexts AS text[]), CAST(:languages AS text[]), CAST(:speakers AS text[]),
                CAST(:speaker_roles AS text[])) WITH ORDINALITY
         AS m(id, type, summary, content, session_id, topic_key, event_time, content_hash, metadata, context,
              language, speaker, speaker_role, ord)
    WHERE NOT EXISTS (SELECT 1 FROM memory_tombstones t WHERE t.profile_id = :p AND t.content_hash = m.content_hash)
    ORDER BY m.ord
    ON CONFLICT (profile_id, content_hash) DO NOTHING
    RETURNING id
    """
)
_INSERT_SOURCES = text(
    """
    INSERT INTO memory_sources (profile_id, memory_id, session_id, message_id)
    SELECT :p, s.memory_id, s.session_id, s.message_id
    FROM unnest(CAST(:memory_ids AS text[]), CAST(:session_ids AS text[]), CAST(:message_ids AS text[]))
         AS s(memory_id, session_id, message_id)
    ON CONFLICT DO NOTHING
    """
)
# Only the superseding types (facts, instructions) supersede; events accumulate and tasks belong to their
# session. `supersede_memory_topics` (migration 0012) takes the topics' locks first and then reads a fresh
# snapshot, so a writer in another process that stored the topic meanwhile is superseded too.
_SUPERSEDING = [t.value for t in SUPERSEDING_TYPES]
_SUPERSEDE = text(
    """
    SELECT supersede_memory_topics(ARRAY[CAST(:p AS bigint)], ARRAY[CAST(:topic AS text)],
                                   ARRAY[CAST(:new_id AS text)], CAST(:types AS text[]))
    """
)
# The topics' locks (migration 0012), for a writer that supersedes with statements of its own afterwards.
_LOCK_TOPICS = text("SELECT lock_memory_topics(CAST(:profiles AS bigint[]), CAST(:topics AS text[]))")
# The locks of a memory's current topic and of the one an edit may give it (NULL: none), taken before the
# memory's row is locked: a writer superseding a topic holds its lock and then waits for the topic's rows,
# so the other order could deadlock.
_LOCK_TOPICS_OF = text(
    "SELECT lock_memory_topics(ARRAY[profile_id, profile_id], ARRAY[topic_key, :topic]::text[]) "
    "FROM memories WHERE profile_id = :p AND id = :id"
)
# What the profile held on a topic before a batch: superseded by the batch's first statement of it.
_SUPERSEDE_OLDER = text(
    f"""
    UPDATE memories SET superseded_by = :new_id, updated_at = now(), valid_to = now()
    WHERE profile_id = :p AND topic_key = :topic AND superseded_by IS NULL
      AND id <> ALL(CAST(:batch AS text[])) AND type IN {sql_list(SUPERSEDING_TYPES)}
    """
)
# Within a batch, each statement of a topic superseded by the next one.
_SUPERSEDE_CHAIN = text(
    """
    UPDATE memories m SET superseded_by = c.new_id, updated_at = now(), valid_to = now()
    FROM unnest(CAST(:olds AS text[]), CAST(:news AS text[])) AS c(old_id, new_id)
    WHERE m.profile_id = :p AND m.id = c.old_id
    """
)


async def insert_memories(
    db: AsyncSession, profile_id: int, memories: list[NewMemory]
) -> tuple[list[NewMemory], int]:
    """Insert those whose content is new to the profile and not forgotten (a tombstone holds it), link their
    sources, apply supersession.

    Returns the memories actually created and how many memories they superseded. A source message deleted meanwhile makes the source insert
    fail (foreign key), so a racing delete can never leave a memory pointing at nothing.
    """
    if not memories:
        return [], 0
    rows = await db.execute(
        _INSERT,
        {
            "p": profile_id,
            "ids": [m.id for m in memories],
            "types": [m.type for m in memories],
            "summaries": [m.summary for m in memories],
            "contents": [m.content for m in memories],
            "sessions": [m.session_id for m in memories],
            "topics": [m.topic_key for m in memories],
            "times": [m.event_time for m in memories],
            "hashes": [m.content_hash for m in memories],
            "metadata": [json.dumps(m.metadata) if m.metadata else None for m in memories],
            "contexts": [m.context for m in memories],
            "languages": [m.search_config for m in memories],
            "speakers": [m.speaker for m in memories],
            "speaker_roles": [m.speaker_role for m in memories],
        },
    )
    inserted = set(rows.scalars())
    created = [m for m in memories if m.id in inserted]
    # Message ids are unique per session: a source is the memory's session and the message's id in it.
    links = [
        (m.id, m.session_id, message_id)
        for m in created
        if m.session_id is not None
        for message_id in m.source_message_ids
    ]
    if links:
        await db.execute(
            _INSERT_SOURCES,
            {
                "p": profile_id,
                "memory_ids": [a for a, _, _ in links],
                "session_ids": [b for _, b, _ in links],
                "message_ids": [c for _, _, c in links],
            },
        )
    return created, await _supersede_in_order(db, profile_id, created)


async def _supersede_in_order(db: AsyncSession, profile_id: int, created: list[NewMemory]) -> int:
    """Leave exactly the newest statement of each topic active.

    The memories of one batch are in statement order: within a topic each one is superseded by the next,
    and what the profile held before by the first. Superseding "every other active one" per memory, as
    this once did, let the first of a batch supersede the later ones before they superseded it back.
    Returns how many memories it superseded (the batch's own chain included)."""
    by_topic: dict[str, list[str]] = {}
    for memory in created:
        if memory.supersedes and memory.topic_key:  # (the second test only narrows the type)
            by_topic.setdefault(memory.topic_key, []).append(memory.id)
    superseded = 0
    if by_topic:
        await db.execute(_LOCK_TOPICS, {"profiles": [profile_id] * len(by_topic), "topics": list(by_topic)})
    for topic, ids in by_topic.items():
        older = await db.execute(
            _SUPERSEDE_OLDER, {"p": profile_id, "topic": topic, "new_id": ids[0], "batch": ids}
        )
        superseded += older.rowcount  # type: ignore[attr-defined]
        if len(ids) > 1:
            await db.execute(_SUPERSEDE_CHAIN, {"p": profile_id, "olds": ids[:-1], "news": ids[1:]})
            superseded += len(ids) - 1
    return superseded


async def _supersede(db: AsyncSession, profile_id: int, topic_key: str | None, new_id: str) -> None:
    await db.execute(
        _SUPERSEDE, {"p": profile_id, "topic": topic_key, "new_id": new_id, "types": _SUPERSEDING}
    )


_INSERT_ONE = text(
    f"""
    INSERT INTO memories (profile_id, id, type, summary, content, session_id, topic_key, event_time, content_hash,
                          metadata, context, language, speaker, speaker_role)
    SELECT CAST(:p AS bigint), CAST(:id AS text), CAST(:type AS text), CAST(:summary AS text),
           CAST(:content AS text), CAST(:session_id AS text), CAST(:topic_key AS text),
           CAST(:event_time AS timestamptz), CAST(:content_hash AS text), CAST(:metadata AS jsonb),
           CAST(:context AS text), CAST(CAST(:language AS text) AS regconfig), CAST(:speaker AS text),
           CAST(:speaker_role AS text)
    WHERE NOT EXISTS (
        SELECT 1 FROM memory_tombstones
        WHERE profile_id = CAST(:p AS bigint) AND content_hash = CAST(:content_hash AS text)
    )
    ON CONFLICT (profile_id, content_hash) DO NOTHING
    RETURNING {_COLUMNS}
    """
)


async def insert_one(db: AsyncSession, profile_id: int, memory: NewMemory) -> MemoryRow | None:
    """Insert one memory without sources (remember); None when the profile already holds that content or
    forgot it (a tombstone holds it)."""
    row = (
        (
            await db.execute(
                _INSERT_ONE,
                {
                    "p": profile_id,
                    "id": memory.id,
                    "type": memory.type,
                    "summary": memory.summary,
                    "content": memory.content,
                    "session_id": memory.session_id,
                    "topic_key": memory.topic_key,
                    "event_time": memory.event_time,
                    "content_hash": memory.content_hash,
                    "metadata": json.dumps(memory.metadata or {}),
                    "context": memory.context,
                    "language": memory.search_config,
                    "speaker": memory.speaker,
                    "speaker_role": memory.speaker_role,
                },
            )
        )
        .mappings()
        .one_or_none()
    )
    if row is not None and memory.supersedes:
        await _supersede(db, profile_id, memory.topic_key, memory.id)
    return MemoryRow.of(row) if row is not None else None


# remember in one autocommit round trip: the namespace (within the key's scope) and the profile resolved
# by name, the profile created when absent (as any write does), the memory inserted unless the profile
# already holds its content or forgot it (a tombstone), and the memories of its topic superseded. Each
# part that finds nothing leaves its column NULL, and the caller takes the general path for those rare
# cases (a namespace out of reach, a profile created concurrently, content already stored or forgotten).
_REMEMBER = f"""
    WITH ns AS (
        SELECT id FROM namespaces
        WHERE name = $1 AND deleted_at IS NULL AND ($3::bigint IS NULL OR id = $3::bigint)
    ), found AS (
        SELECT p.id FROM profiles p JOIN ns ON p.namespace_id = ns.id
        WHERE p.name = $2 AND p.deleted_at IS NULL
    ), made AS (
        INSERT INTO profiles (namespace_id, name)
        SELECT ns.id, $2 FROM ns WHERE NOT EXISTS (SELECT 1 FROM found)
        ON CONFLICT (namespace_id, name) WHERE deleted_at IS NULL DO NOTHING
        RETURNING id
    ), profile AS (
        SELECT id FROM found UNION ALL SELECT id FROM made
    ), ins AS (
        INSERT INTO memories (profile_id, id, type, summary, content, session_id, topic_key, event_time,
                              content_hash, metadata, context, language, speaker, speaker_role)
        SELECT profile.id, $4, $5, $6, $7, $8, $9, $10::timestamptz, $11::text, $12::jsonb, $13,
               $16::text::regconfig, $17::text, $18::text
        FROM profile
        WHERE NOT EXISTS (
            SELECT 1 FROM memory_tombstones t WHERE t.profile_id = profile.id AND t.content_hash = $11::text
        )
        ON CONFLICT (profile_id, content_hash) DO NOTHING
        RETURNING profile_id, {_COLUMNS}
    ), superseded AS (
        SELECT supersede_memory_topics(ARRAY[ins.profile_id], ARRAY[$9::text], ARRAY[ins.id], $15::text[])
        FROM ins WHERE $14
    )
    -- `superseded` joined so that it runs (a SELECT in WITH runs only when read)
    SELECT (SELECT id FROM ns) AS namespace_id, (SELECT id FROM profile) AS resolved_profile_id, ins.*
    FROM (SELECT 1) AS one LEFT JOIN ins ON true LEFT JOIN superseded ON true
"""


@dataclass(frozen=True)
class Remembered:
    """What the one-statement remember found: the namespace and profile ids (None: not found / not
    resolved), and the new memory's row (None: not inserted)."""

    namespace_id: int | None
    profile_id: int | None
    memory: MemoryRow | None


@dataclass(frozen=True)
class RememberItem:
    """One request's remember: the key's namespace (None: an admin key), the names, the memory."""

    scope_namespace_id: int | None
    namespace: str
    profile: str
    memory: NewMemory

    @property
    def supersedes(self) -> bool:
        return self.memory.supersedes


async def remember_one(conn: Any, item: RememberItem) -> Remembered:
    """remember as one statement on the driver's connection (see `_REMEMBER`)."""
    memory = item.memory
    row = await conn.fetchrow(
        _REMEMBER,
        item.namespace,
        item.profile,
        item.scope_namespace_id,
        memory.id,
        memory.type,
        memory.summary,
        memory.content,
        memory.session_id,
        memory.topic_key,
        memory.event_time,
        memory.content_hash,
        json.dumps(memory.metadata or {}),
        memory.context,
        item.supersedes,
        _SUPERSEDING,
        memory.search_config,
        memory.speaker,
        memory.speaker_role,
    )
    return _remembered(row)


# remember for several requests at once (app.memories.batching): `_REMEMBER` over arrays, one row per item
# in item order. The new memories supersede what their topics held before, never one another (each is left
# out as a new id), so the caller never puts two items of one profile's topic in one statement.
# The one-row form above stays for a request on its own: it runs faster (p50 0.59 against 0.69 ms for
# this one with one row, interleaved on one connection).
_REMEMBER_MANY = f"""
    WITH item AS (
        SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[],
                             $7::text[], $8::text[], $9::text[], $10::timestamptz[], $11::text[], $12::jsonb[],
                             $13::text[], $14::boolean[], $16::text[], $17::text[], $18::text[]) WITH ORDINALITY
            AS t(namespace, profile, scope, id, type, summary, content, session_id, topic_key, event_time,
                 content_hash, metadata, context, supersedes, language, speaker, speaker_role, ord)
    ), ns AS (
        SELECT item.ord, n.id AS namespace_id FROM item JOIN namespaces n
            ON n.name = item.namespace AND n.deleted_at IS NULL AND (item.scope IS NULL OR n.id = item.scope)
    ), found AS (
        SELECT ns.ord, p.id FROM ns JOIN item USING (ord) JOIN profiles p
            ON p.namespace_id = ns.namespace_id AND p.name = item.profile AND p.deleted_at IS NULL
    ), made AS (
        INSERT INTO profiles (namespace_id, name)
        SELECT DISTINCT ns.namespace_id, item.profile FROM ns JOIN item USING (ord)
        WHERE NOT EXISTS (SELECT 1 FROM found WHERE found.ord = ns.ord)
        ON CONFLICT (namespace_id, name) WHERE deleted_at IS NULL DO NOTHING
        RETURNING id, namespace_id, name
    ), profile AS (
        SELECT ord, id FROM found
        UNION ALL
        SELECT ns.ord, made.id FROM ns JOIN item USING (ord)
            JOIN made ON made.namespace_id = ns.namespace_id AND made.name = item.profile
    ), ins AS (
        INSERT INTO memories (profile_id, id, type, summary, content, session_id, topic_key, event_time,
                              content_hash, metadata, context, language, speaker, speaker_role)
        SELECT profile.id, item.id, item.type, item.summary, item.content, item.session_id, item.topic_key,
               item.event_time, item.content_hash, item.metadata, item.context, item.language::regconfig,
               item.speaker, item.speaker_role
        FROM item JOIN profile USING (ord)
        WHERE NOT EXISTS (
            SELECT 1 FROM memory_tombstones t WHERE t.profile_id = profile.id AND t.content_hash = item.content_hash
        )
        ORDER BY item.ord
        ON CONFLICT (profile_id, content_hash) DO NOTHING
        RETURNING profile_id, {_COLUMNS}
    ), superseded AS (
        SELECT supersede_memory_topics(array_agg(ins.profile_id), array_agg(item.topic_key), array_agg(ins.id),
                                       $15::text[])
        FROM ins JOIN item ON item.id = ins.id
        WHERE item.supersedes
        HAVING count(*) > 0
    )
    SELECT ns.namespace_id, profile.id AS resolved_profile_id, ins.*
    FROM item LEFT JOIN ns USING (ord) LEFT JOIN profile USING (ord) LEFT JOIN ins ON ins.id = item.id
         LEFT JOIN superseded ON true
    ORDER BY item.ord
"""


async def remember_many(conn: Any, items: list[RememberItem]) -> list[Remembered]:
    """remember for several items as one statement on the driver's connection (see `_REMEMBER_MANY`),
    the results in item order; no two items that supersede may share a profile and topic."""
    # Stored in namespace order: each namespace's event counter is locked at commit in the order its first
    # memory was written (migration 0017), so two processes' batches spanning the same namespaces take
    # those locks in one order and never wait on each other in a cycle.
    order = sorted(range(len(items)), key=lambda i: items[i].namespace)
    results = await _remember_many_in_order(conn, [items[i] for i in order])
    by_item: list[Remembered | None] = [None] * len(items)
    for position, result in zip(order, results, strict=True):
        by_item[position] = result
    return [r for r in by_item if r is not None]


async def _remember_many_in_order(conn: Any, items: list[RememberItem]) -> list[Remembered]:
    memories = [item.memory for item in items]
    rows = await conn.fetch(
        _REMEMBER_MANY,
        [item.namespace for item in items],
        [item.profile for item in items],
        [item.scope_namespace_id for item in items],
        [m.id for m in memories],
        [m.type for m in memories],
        [m.summary for m in memories],
        [m.content for m in memories],
        [m.session_id for m in memories],
        [m.topic_key for m in memories],
        [m.event_time for m in memories],
        [m.content_hash for m in memories],
        [json.dumps(m.metadata or {}) for m in memories],
        [m.context for m in memories],
        [item.supersedes for item in items],
        _SUPERSEDING,
        [m.search_config for m in memories],
        [m.speaker for m in memories],
        [m.speaker_role for m in memories],
    )
    return [_remembered(row) for row in rows]


def _remembered(row: Any) -> Remembered:
    created = MemoryRow.of(row) if row["id"] is not None else None
    return Remembered(row["namespace_id"], row["resolved_profile_id"], created)


async def _one_memory(db: AsyncSession, sql: str, params: dict[str, Any]) -> MemoryRow | None:
    found = (await db.execute(text(sql), params)).mappings().one_or_none()
    return MemoryRow.of(found) if found else None


async def get_by_hash(db: AsyncSession, profile_id: int, content_hash: str) -> MemoryRow | None:
    sql = f"SELECT {_COLUMNS} FROM memories WHERE profile_id = :p AND content_hash = :h"
    return await _one_memory(db, sql, {"p": profile_id, "h": content_hash})


async def get(db: AsyncSession, profile_id: int, memory_id: str) -> MemoryRow | None:
    """The memory's current state, superseded or not (None when absent or deleted)."""
    return await _one_memory(db, _GET, {"p": profile_id, "id": memory_id})


async def get_for_edit(
    db: AsyncSession, profile_id: int, memory_id: str, new_topic_key: str | None
) -> EditableMemory | None:
    """`get`, the row locked for an edit that may move the memory to `new_topic_key`; the locks of both
    topics are taken first."""
    await db.execute(_LOCK_TOPICS_OF, {"p": profile_id, "id": memory_id, "topic": new_topic_key})
    row = await db.execute(text(_GET + " FOR UPDATE"), {"p": profile_id, "id": memory_id})
    found = row.mappings().one_or_none()
    return EditableMemory.of(found) if found else None


_GET = f"SELECT {_COLUMNS}, topic_key FROM memories WHERE profile_id = :p AND id = :id"


async def get_active(db: AsyncSession, profile_id: int, memory_id: str) -> MemoryRow | None:
    sql = f"SELECT {_COLUMNS} FROM memories WHERE profile_id = :p AND id = :id AND superseded_by IS NULL"
    return await _one_memory(db, sql, {"p": profile_id, "id": memory_id})


async def deleted_state(db: AsyncSession, profile_id: int, memory_id: str) -> MemoryRow | None:
    """The state a memory had when `DELETE /memories/{id}` removed it (its archived last version), so a
    repeated delete can answer as the first did; None if it was never deleted that way."""
    row = await db.execute(
        text(
            "SELECT memory_id AS id, type, summary, content, session_id, event_time, created_at, "
            "valid_from AS updated_at, metadata, superseded_by, version, valid_from, valid_to, speaker, "
            "speaker_role FROM memory_versions WHERE profile_id = :p AND memory_id = :id AND deleted_at IS NOT NULL "
            "ORDER BY version DESC LIMIT 1"
        ),
        {"p": profile_id, "id": memory_id},
    )
    found = row.mappings().one_or_none()
    return MemoryRow.of(found) if found else None


# The state a memory is leaving, copied into the archive; `deleted_at` is set when it leaves for good.
_ARCHIVE = text(
    """
    INSERT INTO memory_versions (profile_id, memory_id, version, change, type, summary, content, metadata,
                                 session_id, topic_key, event_time, created_at, valid_from, valid_to,
                                 superseded_by, deleted_at, speaker, speaker_role)
    SELECT profile_id, id, version, change, type, summary, content, metadata, session_id, topic_key,
           event_time, created_at, valid_from, coalesce(valid_to, now()), superseded_by,
           CASE WHEN :deleted THEN now() END, speaker, speaker_role
    FROM memories WHERE profile_id = :p AND id = :id
    ON CONFLICT DO NOTHING
    """
)


async def archive(db: AsyncSession, profile_id: int, memory_id: str, *, deleted: bool) -> None:
    await db.execute(_ARCHIVE, {"p": profile_id, "id": memory_id, "deleted": deleted})


async def revive(db: AsyncSession, profile_id: int, memory_id: str) -> None:
    """Make a superseded memory current again (remembered anew), superseding what replaced it."""
    await db.execute(_LOCK_TOPICS_OF, {"p": profile_id, "id": memory_id, "topic": None})
    await archive(db, profile_id, memory_id, deleted=False)
    topic = (
        await db.execute(
            text(
                "UPDATE memories SET superseded_by = NULL, updated_at = now(), valid_from = now(), "
                "valid_to = NULL, version = version + 1, change = 'restored' "
                "WHERE profile_id = :p AND id = :id RETURNING topic_key"
            ),
            {"p": profile_id, "id": memory_id},
        )
    ).scalar_one_or_none()
    if topic:
        await _supersede(db, profile_id, topic, memory_id)


_EDIT = text(
    f"""
    UPDATE memories SET type = :type, summary = :summary, content = :content, topic_key = :topic_key,
           language = CAST(CAST(:language AS text) AS regconfig), event_time = :event_time,
           content_hash = :content_hash, metadata = CAST(:metadata AS jsonb), updated_at = now(),
           valid_from = now(), version = version + 1, change = 'edited'
    WHERE profile_id = :p AND id = :id
    RETURNING {_COLUMNS}
    """
)


async def content_taken(db: AsyncSession, profile_id: int, memory_id: str, content_hash: str) -> str | None:
    """The id of another memory of the profile already holding this content, if any."""
    return (
        await db.execute(
            text("SELECT id FROM memories WHERE profile_id = :p AND content_hash = :h AND id <> :id"),
            {"p": profile_id, "h": content_hash, "id": memory_id},
        )
    ).scalar_one_or_none()


async def edit(
    db: AsyncSession,
    profile_id: int,
    memory_id: str,
    *,
    type: str,
    summary: str,
    content: str,
    topic_key: str | None,
    event_time: datetime | None,
    content_hash: str,
    metadata: dict[str, Any],
) -> MemoryRow:
    """Archive the current state, write the new one (version + 1) and let it supersede its topic."""
    await archive(db, profile_id, memory_id, deleted=False)
    row = (
        (
            await db.execute(
                _EDIT,
                {
                    "p": profile_id,
                    "id": memory_id,
                    "type": type,
                    "summary": summary,
                    "content": content,
                    "topic_key": topic_key,
                    "event_time": event_time,
                    "content_hash": content_hash,
                    "metadata": json.dumps(metadata),
                    "language": search_config(content),
                },
            )
        )
        .mappings()
        .one()
    )
    if _supersedes(topic_key, type):
        await _supersede(db, profile_id, topic_key, memory_id)
    return MemoryRow.of(row)


async def sources(db: AsyncSession, profile_id: int, memory_id: str) -> list[SourceMessage]:
    rows = await db.execute(
        text(
            """
            SELECT m.id AS message_id, m.role, m.text_content AS content, m.created_at AS timestamp
            FROM memory_sources s
            JOIN messages m ON m.profile_id = s.profile_id AND m.session_id = s.session_id AND m.id = s.message_id
            WHERE s.profile_id = :p AND s.memory_id = :id
            ORDER BY m.created_at, m.seq
            """
        ),
        {"p": profile_id, "id": memory_id},
    )
    return [SourceMessage(**r) for r in rows.mappings()]


_LISTED = (
    "id, type, summary, session_id, event_time, created_at, updated_at, metadata, superseded_by, version, "
    "valid_from, valid_to, speaker, speaker_role"
)


def _list_filters(
    params: dict[str, Any],
    before_id: str | None,
    session_id: str | None,
    memory_type: str | None,
    metadata: dict[str, Any] | None,
    contains: str | None = None,
) -> list[str]:
    """The list's optional filters as SQL conditions (their values put in `params`): a page's keyset
    start, one session, one type, metadata keys, a text its summary or content contains."""
    clauses: list[str] = []
    if before_id is not None:
        clauses.append("id < :before")
        params["before"] = before_id
    if session_id is not None:
        clauses.append("session_id = :sid")
        params["sid"] = session_id
    if memory_type is not None:
        clauses.append("type = :type")
        params["type"] = memory_type
    if metadata:
        clauses.append(filter_sql("metadata", metadata, params))
    if contains:
        # A substring, case folded by the database's lower() (every script it knows, not English alone);
        # strpos, not LIKE, so `%` and `_` in the text are plain characters.
        clauses.append(
            "(strpos(lower(summary), lower(:contains)) > 0 OR strpos(lower(content), lower(:contains)) > 0)"
        )
        params["contains"] = contains
    return clauses


async def list_memories(
    db: AsyncSession,
    profile_id: int,
    *,
    before_id: str | None,
    session_id: str | None,
    memory_type: str | None,
    metadata: dict[str, Any] | None,
    include_superseded: bool,
    limit: int,
    contains: str | None = None,
) -> list[ListedMemory]:
    """Newest first by ULID, keyset on id: any page costs the same."""
    params: dict[str, Any] = {"p": profile_id, "limit": limit}
    filters = _list_filters(params, before_id, session_id, memory_type, metadata, contains)
    clauses = ["profile_id = :p", *filters]
    if not include_superseded:
        clauses.append("superseded_by IS NULL")
    sql = f"SELECT {_LISTED} FROM memories WHERE {' AND '.join(clauses)} ORDER BY id DESC LIMIT :limit"
    return [ListedMemory.of(r) for r in (await db.execute(text(sql), params)).mappings()]


# A memory's state at an instant: its current row if that state had begun and not ended, else the archived
# state whose validity covers the instant. A memory created after the instant has neither.
_STATES_AT = f"""
    SELECT {_COLUMNS} FROM memories
    WHERE profile_id = :p AND valid_from <= :at AND (valid_to IS NULL OR valid_to > :at) {{extra}}
    UNION ALL
    SELECT memory_id AS id, type, summary, content, session_id, event_time, created_at,
           coalesce(deleted_at, valid_to) AS updated_at, metadata, NULL AS superseded_by, version, valid_from,
           valid_to, speaker, speaker_role
    FROM memory_versions
    WHERE profile_id = :p AND valid_from <= :at AND valid_to > :at {{extra_v}}
"""


async def list_as_of(
    db: AsyncSession,
    profile_id: int,
    at: datetime,
    *,
    before_id: str | None,
    session_id: str | None,
    memory_type: str | None,
    metadata: dict[str, Any] | None,
    limit: int,
    contains: str | None = None,
) -> list[MemoryRow]:
    """What the profile held at `at`: every memory valid then, as it read then, newest first."""
    params: dict[str, Any] = {"p": profile_id, "at": at, "limit": limit}
    clauses = _list_filters(params, before_id, session_id, memory_type, metadata, contains)
    extra = "".join(f" AND {c}" for c in clauses)
    extra_v = extra.replace("id < :before", "memory_id < :before")
    sql = f"SELECT * FROM ({_STATES_AT.format(extra=extra, extra_v=extra_v)}) s ORDER BY id DESC LIMIT :limit"
    return [MemoryRow.of(r) for r in (await db.execute(text(sql), params)).mappings()]


async def get_as_of(db: AsyncSession, profile_id: int, memory_id: str, at: datetime) -> MemoryRow | None:
    sql = _STATES_AT.format(extra="AND id = :id", extra_v="AND memory_id = :id")
    row = (await db.execute(text(sql), {"p": profile_id, "at": at, "id": memory_id})).mappings().first()
    return MemoryRow.of(row) if row else None


async def history(db: AsyncSession, profile_id: int, memory_id: str) -> list[MemoryState]:
    """Every state the memory has had, oldest first: the archived ones, then the current one if it lives."""
    rows = await db.execute(
        text(
            """
            SELECT version, change, type, summary, content, metadata, valid_from, valid_to, superseded_by,
                   deleted_at
            FROM memory_versions WHERE profile_id = :p AND memory_id = :id
            UNION ALL
            SELECT version, change, type, summary, content, metadata, valid_from, valid_to, superseded_by,
                   NULL
            FROM memories WHERE profile_id = :p AND id = :id
            ORDER BY version
            """
        ),
        {"p": profile_id, "id": memory_id},
    )
    return [MemoryState(**r) for r in rows.mappings()]


async def source_keys(db: AsyncSession, profile_id: int, memory_id: str) -> list[tuple[str, str]]:
    """(session id, message id) of each message the memory was extracted from, sessions' rows locked first
    (every writer of a session takes its row before its messages, so deleting in that order never deadlocks)."""
    rows = await db.execute(
        text(
            """
            SELECT s.session_id, s.message_id FROM memory_sources s
            JOIN sessions ss ON ss.profile_id = s.profile_id AND ss.id = s.session_id
            WHERE s.profile_id = :p AND s.memory_id = :id
            ORDER BY s.session_id, s.message_id
            FOR UPDATE OF ss
            """
        ),
        {"p": profile_id, "id": memory_id},
    )
    return [(r[0], r[1]) for r in rows]


async def shared_sources(db: AsyncSession, profile_id: int, memory_id: str) -> set[tuple[str, str]]:
    """(session id, message id) of the memory's sources that another memory (current or superseded) cites
    too: those stay when the memory is deleted."""
    rows = await db.execute(
        text(
            """
            SELECT s.session_id, s.message_id FROM memory_sources s
            WHERE s.profile_id = :p AND s.memory_id = :id
              AND EXISTS (SELECT 1 FROM memory_sources o
                          WHERE o.profile_id = s.profile_id AND o.session_id = s.session_id
                            AND o.message_id = s.message_id AND o.memory_id <> s.memory_id)
            """
        ),
        {"p": profile_id, "id": memory_id},
    )
    return {(r[0], r[1]) for r in rows}


async def delete_memory(db: AsyncSession, profile_id: int, memory_id: str) -> None:
    """Delete the memory (its source messages are deleted by the caller, re-linking their children); its
    last state stays in the archive for its history."""
    await archive(db, profile_id, memory_id, deleted=True)
    await db.execute(
        text("DELETE FROM memories WHERE profile_id = :p AND id = :id"), {"p": profile_id, "id": memory_id}
    )


async def delete_session(db: AsyncSession, profile_id: int, session_id: str) -> bool:
    """Everything of one session: its memories and their tombstones, queued jobs, messages (sources cascade)
    and the session row. Whether the session or any memory of it was there."""
    params = {"p": profile_id, "sid": session_id}
    # The session row first, as every writer of a session takes it: deleting in another order deadlocks.
    await sessions_repository.lock_session(db, profile_id, session_id)
    memories = await db.execute(
        text("DELETE FROM memories WHERE profile_id = :p AND session_id = :sid"), params
    )
    # Its tombstones too: a deleted session leaves nothing of itself, and its id may be used afresh.
    await db.execute(
        text("DELETE FROM memory_tombstones WHERE profile_id = :p AND session_id = :sid"), params
    )
    await db.execute(
        text("DELETE FROM tombstone_messages WHERE profile_id = :p AND session_id = :sid"), params
    )
    await queue.drop_queued_for_session(db, profile_id, session_id)
    had_session = await sessions_repository.delete_session(db, profile_id, session_id)
    return had_session or bool(memories.rowcount)  # type: ignore[attr-defined]


# ---------------------------------------------------------------- tombstones
# What a deleted memory leaves: its content fingerprint and its source messages' identities, no text. The
# inserts of memories above skip a content a tombstone holds; ingest skips a message a tombstone deleted.


@dataclass(frozen=True)
class TombstoneRow:
    id: str
    type: str
    session_id: str | None
    content_hash: str
    created_at: datetime
    message_ids: list[str]
    kept_message_ids: list[str]


_TOMBSTONE = text(
    """
    INSERT INTO memory_tombstones (profile_id, id, content_hash, session_id, type)
    SELECT profile_id, id, content_hash, session_id, type FROM memories WHERE profile_id = :p AND id = :id
    ON CONFLICT DO NOTHING
    """
)
_TOMBSTONE_MESSAGES = text(
    """
    INSERT INTO tombstone_messages (profile_id, tombstone_id, session_id, message_id, deleted)
    SELECT :p, :id, s.session_id, s.message_id, s.deleted
    FROM unnest(CAST(:sessions AS text[]), CAST(:messages AS text[]), CAST(:deleted AS boolean[]))
         AS s(session_id, message_id, deleted)
    ON CONFLICT DO NOTHING
    """
)


async def tombstone(
    db: AsyncSession, profile_id: int, memory_id: str, sources: list[tuple[str, str, bool]]
) -> None:
    """Leave the tombstone of a memory about to be deleted: its content fingerprint, and each source
    (session id, message id, whether it is deleted with the memory)."""
    await db.execute(_TOMBSTONE, {"p": profile_id, "id": memory_id})
    if sources:
        await db.execute(
            _TOMBSTONE_MESSAGES,
            {
                "p": profile_id,
                "id": memory_id,
                "sessions": [sid for sid, _, _ in sources],
                "messages": [mid for _, mid, _ in sources],
                "deleted": [deleted for _, _, deleted in sources],
            },
        )


async def tombstone_of(db: AsyncSession, profile_id: int, content_hash: str) -> str | None:
    """The id of a tombstone holding this content fingerprint, if the profile forgot it."""
    found = await db.execute(
        text(
            "SELECT id FROM memory_tombstones WHERE profile_id = :p AND content_hash = :h "
            "ORDER BY id DESC LIMIT 1"
        ),
        {"p": profile_id, "h": content_hash},
    )
    return found.scalar_one_or_none()


async def lift_tombstone(db: AsyncSession, profile_id: int, tombstone_id: str) -> bool:
    """Remove a tombstone (its messages cascade); whether there was one."""
    result = await db.execute(
        text("DELETE FROM memory_tombstones WHERE profile_id = :p AND id = :id RETURNING id"),
        {"p": profile_id, "id": tombstone_id},
    )
    return result.scalar_one_or_none() is not None


async def lift_tombstones_of(db: AsyncSession, profile_id: int, content_hash: str) -> list[str]:
    """Remove every tombstone holding this content fingerprint; their ids."""
    result = await db.execute(
        text("DELETE FROM memory_tombstones WHERE profile_id = :p AND content_hash = :h RETURNING id"),
        {"p": profile_id, "h": content_hash},
    )
    return list(result.scalars())


async def list_tombstones(
    db: AsyncSession, profile_id: int, *, before_id: str | None, limit: int
) -> list[TombstoneRow]:
    """The profile's tombstones, newest first (keyset on id), each with its messages."""
    rows = await db.execute(
        text(
            """
            SELECT t.id, t.type, t.session_id, t.content_hash, t.created_at,
                   coalesce(array_agg(m.message_id ORDER BY m.message_id) FILTER (WHERE m.deleted), '{}')
                       AS message_ids,
                   coalesce(array_agg(m.message_id ORDER BY m.message_id) FILTER (WHERE NOT m.deleted), '{}')
                       AS kept_message_ids
            FROM memory_tombstones t
            LEFT JOIN tombstone_messages m ON m.profile_id = t.profile_id AND m.tombstone_id = t.id
            WHERE t.profile_id = :p AND (CAST(:before AS text) IS NULL OR t.id < :before)
            GROUP BY t.profile_id, t.id
            ORDER BY t.id DESC
            LIMIT :n
            """
        ),
        {"p": profile_id, "before": before_id, "n": limit},
    )
    return [TombstoneRow(**r) for r in rows.mappings()]


async def kept_sources_of_deleted(db: AsyncSession, profile_id: int, memory_id: str) -> list[str]:
    """The source messages a deleted memory left in place because another memory cited them (while its
    tombstone stands)."""
    rows = await db.execute(
        text(
            "SELECT message_id FROM tombstone_messages WHERE profile_id = :p AND tombstone_id = :id "
            "AND NOT deleted ORDER BY message_id"
        ),
        {"p": profile_id, "id": memory_id},
    )
    return list(rows.scalars())


# ---------------------------------------------------------------- speakers of memories stored without one
# (an import of an export written before speakers were stored): each memory with its first source message.
_FIRST_SOURCES = text(
    """
    SELECT m.id, m.content, f.role, f.name, f.text_content AS said
    FROM memories m
    LEFT JOIN LATERAL (
        SELECT g.role, g.name, g.text_content FROM memory_sources s
        JOIN messages g ON g.profile_id = s.profile_id AND g.session_id = s.session_id AND g.id = s.message_id
        WHERE s.profile_id = m.profile_id AND s.memory_id = m.id
        ORDER BY g.seq LIMIT 1) f ON true
    WHERE m.profile_id = :p AND m.id = ANY(CAST(:ids AS text[]))
    """
)
_SET_SPEAKERS = text(
    """
    WITH u AS (SELECT * FROM unnest(CAST(:ids AS text[]), CAST(:speakers AS text[]), CAST(:roles AS text[]))
                             AS u(id, speaker, role)),
    archived AS (
        UPDATE memory_versions v SET speaker = u.speaker, speaker_role = u.role FROM u
        WHERE v.profile_id = :p AND v.memory_id = u.id AND v.speaker IS NULL AND v.speaker_role IS NULL)
    UPDATE memories m SET speaker = u.speaker, speaker_role = u.role FROM u
    WHERE m.profile_id = :p AND m.id = u.id AND m.speaker IS NULL AND m.speaker_role IS NULL
    """
)


@dataclass(frozen=True)
class FirstSource:
    """A memory's content and its first source message (None: remembered), to read its speaker from."""

    id: str
    content: str
    role: str | None
    name: str | None
    said: str | None


async def first_sources(db: AsyncSession, profile_id: int, memory_ids: list[str]) -> list[FirstSource]:
    rows = await db.execute(_FIRST_SOURCES, {"p": profile_id, "ids": memory_ids})
    return [FirstSource(**r) for r in rows.mappings()]


async def set_speakers(
    db: AsyncSession, profile_id: int, speakers: list[tuple[str, str | None, str | None]]
) -> None:
    """Store (memory id, speaker, role) on each memory and on its archived states that have none."""
    if speakers:
        params = {
            "p": profile_id,
            "ids": [i for i, _, _ in speakers],
            "speakers": [s for _, s, _ in speakers],
            "roles": [r for _, _, r in speakers],
        }
        await db.execute(_SET_SPEAKERS, params)


# ---------------------------------------------------------------- lines of the profile summary
# Every read is capped at `limit` rows and reads only active memories: a summary never needs more lines
# than its token budget holds, so a profile with a hundred thousand memories costs the same bounded reads.


@dataclass(frozen=True)
class MemoryLine:
    id: str
    type: str
    summary: str
    session_id: str | None
    # When the event happened: its event time, else when its first source message was said, else when it
    # was stored. Only filled for the dated types (events).
    at: datetime | None
    # The full-text configuration of its language (`app.language.detect.search_config`).
    language: str = "english"
    speaker: str | None = None  # who said it (stored at ingest)


def agent_words(memory: str) -> str:
    """SQL: whether the memory (table alias `memory`) is the agent's own words: said in an assistant
    message under no name or as "Assistant" (in a transcript between two people, the second one's turns are
    theirs, not an agent's). Recall ranks such memories below what the people said, and the summary lists
    them after the people's facts. Read from the stored speaker, never from the text."""
    m = memory
    return f"({m}.speaker_role = 'assistant' AND ({m}.speaker IS NULL OR lower({m}.speaker) = 'assistant'))"


_BY_TYPE = text(
    """
    SELECT id, type, summary, session_id, NULL::timestamptz AS at, language::text AS language, speaker
    FROM memories
    WHERE profile_id = :p AND superseded_by IS NULL AND type = :type
    ORDER BY id DESC
    LIMIT :limit
    """
)

# Of the newest facts this many times the section's lines are weighed, so that the agent's own words
# (`agent_words`, listed last) do not push the people's facts out of a bounded read.
FACTS_WALK = 4
# Facts (or another type summarised topic-keyed first) about lasting attributes (a topic key such as user.home_city) outrank loose remarks, so the
# profile's identity survives a flood of newer small facts; among the rest, statements with substance
# (six or more distinct words) come before one-liners like "Classic." from a chat.
_FACTS = text(
    f"""
    (SELECT id, type, summary, session_id, NULL::timestamptz AS at, language::text AS language, speaker,
            0 AS rank
     FROM memories
     WHERE profile_id = :p AND superseded_by IS NULL AND topic_key IS NOT NULL AND type = :type
     ORDER BY id DESC LIMIT :limit)
    UNION ALL
    (SELECT id, type, summary, session_id, NULL::timestamptz AS at, language::text AS language, speaker,
            CASE WHEN agent THEN 3 WHEN length(tsv) >= 6 THEN 1 ELSE 2 END AS rank
     FROM (SELECT m.*, {agent_words("m")} AS agent FROM memories m
           WHERE m.profile_id = :p AND m.superseded_by IS NULL AND m.topic_key IS NULL AND m.type = :type
           ORDER BY m.id DESC LIMIT :limit * {FACTS_WALK}) f
     ORDER BY rank, id DESC LIMIT :limit)
    ORDER BY rank, id DESC
    LIMIT :limit
    """
)

_EVENTS = text(
    """
    SELECT * FROM (
        SELECT m.id, m.type, m.summary, m.session_id, m.language::text AS language, m.speaker,
               COALESCE(m.event_time,
                        (SELECT min(msg.created_at) FROM memory_sources src
                         JOIN messages msg ON msg.profile_id = src.profile_id AND msg.session_id = src.session_id
                              AND msg.id = src.message_id
                         WHERE src.profile_id = m.profile_id AND src.memory_id = m.id),
                        m.created_at) AS at
        FROM memories m
        WHERE m.profile_id = :p AND m.superseded_by IS NULL AND m.type = :type
    ) e
    WHERE e.at >= :since
    ORDER BY e.at DESC, e.id DESC
    LIMIT :limit
    """
)

_SESSION_MEMORIES = text(
    f"""
    SELECT m.id, m.type, m.summary, m.session_id, m.language::text AS language, m.speaker,
           CASE WHEN m.type IN {sql_list(DATED_TYPES)} THEN
               COALESCE(m.event_time,
                        (SELECT min(msg.created_at) FROM memory_sources src
                         JOIN messages msg ON msg.profile_id = src.profile_id AND msg.session_id = src.session_id
                              AND msg.id = src.message_id
                         WHERE src.profile_id = m.profile_id AND src.memory_id = m.id),
                        m.created_at)
           END AS at
    FROM memories m
    WHERE m.profile_id = :p AND m.session_id = :sid AND m.superseded_by IS NULL
    ORDER BY m.id DESC
    LIMIT :limit
    """
)

# Sessions that memories name, by their newest memory: a session known only from remembered memories
# (no session row) is recent by them.
_MEMORY_SESSIONS = text(
    """
    SELECT session_id, max(created_at) AS last_at
    FROM memories
    WHERE profile_id = :p AND superseded_by IS NULL AND session_id IS NOT NULL
    GROUP BY session_id
    """
)


def _lines(rows: Any) -> list[MemoryLine]:
    return [
        MemoryLine(
            id=r["id"],
            type=r["type"],
            summary=r["summary"],
            session_id=r["session_id"],
            at=r["at"],
            language=r["language"],
            speaker=r["speaker"],
        )
        for r in rows.mappings()
    ]


async def topic_keyed_first(
    db: AsyncSession, profile_id: int, memory_type: MemoryType, limit: int
) -> list[MemoryLine]:
    """Active memories of one type (facts), topic-keyed ones first, each group newest first."""
    return _lines(await db.execute(_FACTS, {"p": profile_id, "type": memory_type.value, "limit": limit}))


async def dated_since(
    db: AsyncSession, profile_id: int, memory_type: MemoryType, since: datetime, limit: int
) -> list[MemoryLine]:
    """Active memories of one dated type (events) dated at or after `since` (upcoming ones included),
    latest first."""
    params = {"p": profile_id, "type": memory_type.value, "since": since, "limit": limit}
    return _lines(await db.execute(_EVENTS, params))


async def newest_of_type(
    db: AsyncSession, profile_id: int, memory_type: MemoryType, limit: int
) -> list[MemoryLine]:
    """Active memories of one type, newest first."""
    return _lines(await db.execute(_BY_TYPE, {"p": profile_id, "type": memory_type.value, "limit": limit}))


async def session_memories(
    db: AsyncSession, profile_id: int, session_id: str, limit: int
) -> list[MemoryLine]:
    """Active memories of one session (any type), newest first."""
    return _lines(await db.execute(_SESSION_MEMORIES, {"p": profile_id, "sid": session_id, "limit": limit}))


async def memory_sessions(db: AsyncSession, profile_id: int) -> list[tuple[str, datetime]]:
    """(session id, its newest active memory's time) for every session active memories name."""
    return [(r.session_id, r.last_at) for r in await db.execute(_MEMORY_SESSIONS, {"p": profile_id})]
