"""SQL of context blocks and their keyed entries (with full-text search over search-block entries)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import indexed_text_fits
from app.models import ContextBlock, ContextEntry


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
) -> tuple[ContextBlock, bool]:
    """Define or redefine a block, keeping its place in the render order; (row, created)."""
    base = insert(ContextBlock).values(
        profile_id=profile_id,
        label=label,
        kind=kind,
        description=description,
        max_tokens=max_tokens,
        content=content,
    )
    stmt = base.on_conflict_do_update(
        index_elements=["profile_id", "label"],
        set_={
            "kind": base.excluded.kind,
            "description": base.excluded.description,
            "max_tokens": base.excluded.max_tokens,
            "content": base.excluded.content,
            "updated_at": func.now(),
        },
    ).returning(ContextBlock, text("(xmax = 0) AS inserted"))
    with indexed_text_fits(["body", "content"]):
        row = (await db.execute(stmt.execution_options(populate_existing=True))).one()
    return row[0], bool(row[1])


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


async def list_entries(db: AsyncSession, profile_id: int, label: str) -> list[ContextEntry]:
    stmt = (
        select(ContextEntry)
        .where(ContextEntry.profile_id == profile_id, ContextEntry.label == label)
        .order_by(ContextEntry.key)
    )
    return list((await db.execute(stmt)).scalars())


async def count_entries(db: AsyncSession, profile_id: int, label: str) -> int:
    stmt = select(func.count()).where(ContextEntry.profile_id == profile_id, ContextEntry.label == label)
    return int((await db.execute(stmt)).scalar_one())


async def get_entry(db: AsyncSession, profile_id: int, label: str, key: str) -> ContextEntry | None:
    stmt = select(ContextEntry).where(
        ContextEntry.profile_id == profile_id, ContextEntry.label == label, ContextEntry.key == key
    )
    return (await db.execute(stmt)).scalar_one_or_none()


async def upsert_entry(
    db: AsyncSession, profile_id: int, label: str, key: str, content: str, description: str | None
) -> tuple[ContextEntry, bool]:
    base = insert(ContextEntry).values(
        profile_id=profile_id, label=label, key=key, content=content, description=description
    )
    stmt = base.on_conflict_do_update(
        index_elements=["profile_id", "label", "key"],
        set_={
            "content": base.excluded.content,
            "description": base.excluded.description,
            "updated_at": func.now(),
        },
    ).returning(ContextEntry, text("(xmax = 0) AS inserted"))
    with indexed_text_fits(["body", "content"]):
        row = (await db.execute(stmt.execution_options(populate_existing=True))).one()
    return row[0], bool(row[1])


async def delete_entry(db: AsyncSession, profile_id: int, label: str, key: str) -> bool:
    result = await db.execute(
        delete(ContextEntry)
        .where(ContextEntry.profile_id == profile_id, ContextEntry.label == label, ContextEntry.key == key)
        .returning(ContextEntry.key)
    )
    return result.scalar_one_or_none() is not None


# The same safe OR-of-lexemes query as message search: no input can raise a tsquery syntax error.
_SEARCH = text(
    """
    WITH q AS (SELECT (SELECT to_tsquery('simple', terms) FROM (
        SELECT string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''', ' | ') AS terms
        FROM unnest(to_tsvector('english', :q))) t WHERE terms IS NOT NULL) AS query)
    SELECT e.key, e.content FROM context_entries e, q
    WHERE e.profile_id = :p AND e.label = :label AND e.tsv @@ q.query
    ORDER BY ts_rank(e.tsv, q.query) DESC, e.updated_at DESC, e.key
    LIMIT :limit
    """
)


async def search_entries(
    db: AsyncSession, profile_id: int, label: str, query: str, limit: int
) -> list[dict[str, Any]]:
    rows = await db.execute(_SEARCH, {"p": profile_id, "label": label, "q": query, "limit": limit})
    return [dict(r) for r in rows.mappings()]
