"""SQL of context blocks, their keyed entries (full text over search-block entries), and the copies that
sessions keep of session-scoped blocks."""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.dialects.postgresql import Insert, insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import indexed_text_fits
from app.models import ContextBlock, ContextEntry, ContextSessionBlock, ContextSessionEntry
from app.sessions.fulltext import ALL_TERMS_QUERY, split_query


async def _upsert(
    db: AsyncSession, model: Any, base: Insert, keys: list[str], replaced: list[str]
) -> tuple[Any, bool]:
    """Run `base` as an upsert on `keys` that replaces the `replaced` columns; (row, created). `xmax = 0`
    holds for a row this statement inserted, not for one it updated."""
    stmt = base.on_conflict_do_update(
        index_elements=keys,
        set_={**{column: base.excluded[column] for column in replaced}, "updated_at": func.now()},
    ).returning(model, text("(xmax = 0) AS inserted"))
    with indexed_text_fits(["body", "content"]):
        row = (await db.execute(stmt.execution_options(populate_existing=True))).one()
    return row[0], bool(row[1])


async def list_blocks(db: AsyncSession, profile_id: int) -> list[ContextBlock]:
    stmt = select(ContextBlock).where(ContextBlock.profile_id == profile_id).order_by(ContextBlock.seq)
    return list((await db.execute(stmt)).scalars())


async def get_block(db: AsyncSession, profile_id: int, label: str) -> ContextBlock | None:
    stmt = select(ContextBlock).where(ContextBlock.profile_id == profile_id, ContextBlock.label == label)
    return (await db.execute(stmt)).scalar_one_or_none()


async def upsert_block(
    db: AsyncSession,
    profile_id: int,
    label: str,
    kind: str,
    description: str | None,
    max_tokens: int | None,
    content: str,
    scope: str = "session",
) -> tuple[ContextBlock, bool]:
    """Define or redefine a block, keeping its place in the render order; (row, created)."""
    base = insert(ContextBlock).values(
        profile_id=profile_id,
        label=label,
        kind=kind,
        description=description,
        max_tokens=max_tokens,
        content=content,
        scope=scope,
    )
    replaced = ["kind", "description", "max_tokens", "content", "scope"]
    return await _upsert(db, ContextBlock, base, ["profile_id", "label"], replaced)


async def set_content(db: AsyncSession, profile_id: int, label: str, content: str) -> ContextBlock:
    stmt = (
        update(ContextBlock)
        .where(ContextBlock.profile_id == profile_id, ContextBlock.label == label)
        .values(content=content, updated_at=func.now())
        .returning(ContextBlock)
        .execution_options(synchronize_session=False, populate_existing=True)
    )
    return (await db.execute(stmt)).scalar_one()


async def delete_block(db: AsyncSession, profile_id: int, label: str) -> bool:
    result = await db.execute(
        delete(ContextBlock)
        .where(ContextBlock.profile_id == profile_id, ContextBlock.label == label)
        .returning(ContextBlock.label)
    )
    return result.scalar_one_or_none() is not None


async def delete_entries(db: AsyncSession, profile_id: int, label: str) -> None:
    await db.execute(
        delete(ContextEntry).where(ContextEntry.profile_id == profile_id, ContextEntry.label == label)
    )


# ---------------------------------------------------------------- sessions' own copies


async def get_session_block(
    db: AsyncSession, profile_id: int, session_id: str, label: str
) -> ContextSessionBlock | None:
    stmt = select(ContextSessionBlock).where(
        ContextSessionBlock.profile_id == profile_id,
        ContextSessionBlock.session_id == session_id,
        ContextSessionBlock.label == label,
    )
    return (await db.execute(stmt)).scalar_one_or_none()


_COPY_BLOCK = text(
    """
    INSERT INTO context_session_blocks (profile_id, session_id, label, content)
    SELECT profile_id, :s, label, content FROM context_blocks WHERE profile_id = :p AND label = :label
    ON CONFLICT DO NOTHING
    RETURNING label
    """
)
_COPY_ENTRIES = text(
    """
    INSERT INTO context_session_entries (profile_id, session_id, label, key, content, description)
    SELECT profile_id, :s, label, key, content, description FROM context_entries
    WHERE profile_id = :p AND label = :label
    """
)


async def ensure_session_copy(db: AsyncSession, profile_id: int, session_id: str, label: str) -> None:
    """Give the session its own copy of the block (content and entries as the definition holds them now),
    unless it has one: a session starts from the definition and diverges on its first write."""
    params = {"p": profile_id, "s": session_id, "label": label}
    created = (await db.execute(_COPY_BLOCK, params)).scalar_one_or_none()
    if created is not None:
        await db.execute(_COPY_ENTRIES, params)


async def set_session_content(
    db: AsyncSession, profile_id: int, session_id: str, label: str, content: str
) -> None:
    with indexed_text_fits(["body", "content"]):
        await db.execute(
            update(ContextSessionBlock)
            .where(
                ContextSessionBlock.profile_id == profile_id,
                ContextSessionBlock.session_id == session_id,
                ContextSessionBlock.label == label,
            )
            .values(content=content, updated_at=func.now())
            .execution_options(synchronize_session=False)
        )


async def delete_session_copies(db: AsyncSession, profile_id: int, label: str) -> None:
    """Every session's copy of the block (their entries cascade): used when its kind or scope changes."""
    await db.execute(
        delete(ContextSessionBlock).where(
            ContextSessionBlock.profile_id == profile_id, ContextSessionBlock.label == label
        )
    )


# ---------------------------------------------------------------- entries (definition's or a session's)
# `session_id` None: the definition's entries (shared, or where sessions start); else that session's copy.

EntryRow = ContextEntry | ContextSessionEntry


def _entries(profile_id: int, label: str, session_id: str | None) -> tuple[Any, list[Any]]:
    if session_id is None:
        return ContextEntry, [ContextEntry.profile_id == profile_id, ContextEntry.label == label]
    model = ContextSessionEntry
    return model, [model.profile_id == profile_id, model.session_id == session_id, model.label == label]


async def list_entries(
    db: AsyncSession, profile_id: int, label: str, session_id: str | None = None
) -> list[EntryRow]:
    model, where = _entries(profile_id, label, session_id)
    return list((await db.execute(select(model).where(*where).order_by(model.key))).scalars())


async def count_entries(db: AsyncSession, profile_id: int, label: str, session_id: str | None = None) -> int:
    model, where = _entries(profile_id, label, session_id)
    return int((await db.execute(select(func.count()).select_from(model).where(*where))).scalar_one())


async def get_entry(
    db: AsyncSession, profile_id: int, label: str, key: str, session_id: str | None = None
) -> EntryRow | None:
    model, where = _entries(profile_id, label, session_id)
    result: EntryRow | None = (
        await db.execute(select(model).where(*where, model.key == key))
    ).scalar_one_or_none()
    return result


async def upsert_entry(
    db: AsyncSession,
    profile_id: int,
    label: str,
    key: str,
    content: str,
    description: str | None,
    session_id: str | None = None,
) -> tuple[EntryRow, bool]:
    model, _ = _entries(profile_id, label, session_id)
    values: dict[str, Any] = {
        "profile_id": profile_id,
        "label": label,
        "key": key,
        "content": content,
        "description": description,
    }
    keys = ["profile_id", "label", "key"]
    if session_id is not None:
        values["session_id"] = session_id
        keys = ["profile_id", "session_id", "label", "key"]
    base = insert(model).values(**values)
    return await _upsert(db, model, base, keys, ["content", "description"])


async def delete_entry(
    db: AsyncSession, profile_id: int, label: str, key: str, session_id: str | None = None
) -> bool:
    model, where = _entries(profile_id, label, session_id)
    result = await db.execute(delete(model).where(*where, model.key == key).returning(model.key))
    return result.scalar_one_or_none() is not None


_SEARCH = text(
    f"""
    WITH q AS (SELECT {ALL_TERMS_QUERY} AS query)
    SELECT e.key, e.content FROM context_entries e, q
    WHERE e.profile_id = :p AND e.label = :label AND e.tsv @@ q.query
    ORDER BY ts_rank(e.tsv, q.query) DESC, e.updated_at DESC, e.key
    LIMIT :limit
    """
)
_SEARCH_SESSION = text(
    f"""
    WITH q AS (SELECT {ALL_TERMS_QUERY} AS query)
    SELECT e.key, e.content FROM context_session_entries e, q
    WHERE e.profile_id = :p AND e.session_id = :s AND e.label = :label AND e.tsv @@ q.query
    ORDER BY ts_rank(e.tsv, q.query) DESC, e.updated_at DESC, e.key
    LIMIT :limit
    """
)


class FoundEntry(NamedTuple):
    """An entry a search found."""

    key: str
    content: str


async def search_entries(
    db: AsyncSession, profile_id: int, label: str, query: str, limit: int, session_id: str | None = None
) -> list[FoundEntry]:
    """Entries holding every term of the query (quoted parts as phrases), best first."""
    words, phrases = split_query(query)
    params = {
        "p": profile_id,
        "s": session_id,
        "label": label,
        "words": words,
        "phrases": phrases,
        "limit": limit,
    }
    rows = await db.execute(_SEARCH if session_id is None else _SEARCH_SESSION, params)
    return [FoundEntry(r.key, r.content) for r in rows]
