"""SQL of export and import: the exported tables' columns read from the catalogue, keyset batches of a
profile's rows rendered as NDJSON lines by PostgreSQL (bounded in bytes, app.core.batches), and batch inserts that skip what is already there.

The columns come from the catalogue rather than from a list here, so a column another change adds is
exported and imported without touching this module; generated and identity columns are left out (they are
made again on import, identities in the order the rows arrive).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.core import batches


@dataclass(frozen=True)
class TableSpec:
    """One per-profile table as exported: its record type, its keyset order and what must exist first."""

    record: str
    table: str
    # Keyset order (after profile_id); an identity column here keeps the rows' relative order on import.
    order: tuple[str, ...] | None = None
    # A row is imported only if the memory it belongs to was (a memory skipped because the target
    # profile already holds its content takes its sources and vectors with it).
    needs_memory: bool = False
    # ... and only if the message it names is there (one forgotten by the target is not imported).
    needs_message: bool = False
    # What a tombstone of the target profile keeps out: a memory by its content fingerprint, a message by
    # its identity (one a deleted memory took with it).
    forgettable: bool = False


# In dependency order: a row's foreign keys point only at rows of tables earlier in the list.
# Tombstones first, so that what they keep out of the target profile is known before its rows arrive.
TABLES: tuple[TableSpec, ...] = (
    TableSpec("tombstone", "memory_tombstones"),
    TableSpec("tombstone_message", "tombstone_messages"),
    TableSpec("session", "sessions"),
    TableSpec("message", "messages", order=("session_id", "seq"), forgettable=True),
    TableSpec("compaction", "compactions", order=("session_id", "seq")),
    TableSpec("memory", "memories", forgettable=True),
    TableSpec("memory_source", "memory_sources", needs_memory=True, needs_message=True),
    TableSpec("memory_version", "memory_versions"),
    TableSpec("embedding", "memory_embeddings", needs_memory=True),
    TableSpec("context_block", "context_blocks", order=("seq",)),
    TableSpec("context_entry", "context_entries"),
    TableSpec("context_session_block", "context_session_blocks"),
    TableSpec("context_session_entry", "context_session_entries"),
)
BY_RECORD = {spec.record: spec for spec in TABLES}


@dataclass(frozen=True)
class Column:
    name: str
    data_type: str  # information_schema data_type ("text", "bigint", "ARRAY", "USER-DEFINED", …)
    nullable: bool
    has_default: bool
    max_length: int | None


@dataclass(frozen=True)
class Table:
    spec: TableSpec
    columns: dict[str, Column]  # exported columns (no profile_id, generated or identity ones)
    skipped: tuple[str, ...]  # generated and identity columns
    order: tuple[str, ...]


_COLUMNS = text(
    """
    SELECT c.table_name, c.column_name, c.data_type, c.is_nullable = 'YES' AS nullable,
           c.column_default IS NOT NULL AS has_default, c.character_maximum_length AS max_length,
           c.is_generated = 'ALWAYS' OR c.is_identity = 'YES' AS skipped
    FROM information_schema.columns c
    WHERE c.table_schema = current_schema() AND c.table_name = ANY(CAST(:tables AS text[]))
    ORDER BY c.table_name, c.ordinal_position
    """
)
_PRIMARY_KEYS = text(
    """
    SELECT t.relname AS table_name, a.attname AS column_name
    FROM pg_index i
    JOIN pg_class t ON t.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
    CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
    WHERE i.indisprimary AND t.relname = ANY(CAST(:tables AS text[]))
    ORDER BY t.relname, k.ord
    """
)


async def tables(conn: AsyncConnection | AsyncSession) -> list[Table]:
    """The exported tables that exist in this database (the embeddings table may not), with columns."""
    names = [spec.table for spec in TABLES]
    columns: dict[str, dict[str, Column]] = {}
    skipped: dict[str, list[str]] = {}
    for row in await conn.execute(_COLUMNS, {"tables": names}):
        if row.column_name == "profile_id":
            continue
        if row.skipped:
            skipped.setdefault(row.table_name, []).append(row.column_name)
            continue
        columns.setdefault(row.table_name, {})[row.column_name] = Column(
            row.column_name, row.data_type, row.nullable, row.has_default, row.max_length
        )
    keys: dict[str, list[str]] = {}
    for row in await conn.execute(_PRIMARY_KEYS, {"tables": names}):
        if row.column_name != "profile_id":
            keys.setdefault(row.table_name, []).append(row.column_name)
    return [
        Table(
            spec,
            columns[spec.table],
            tuple(skipped.get(spec.table, ())),
            spec.order or tuple(keys[spec.table]),
        )
        for spec in TABLES
        if spec.table in columns
    ]


async def schema_revision(conn: AsyncConnection) -> str | None:
    return (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one_or_none()


async def export_lines(
    conn: AsyncConnection, table: Table, profile_id: int, profile_name: str
) -> AsyncIterator[list[str]]:
    """The profile's rows of one table as NDJSON lines (without newline), keyset batch by batch, each
    batch about `batches.BATCH_BYTES` of lines at most (app.core.batches)."""
    order = table.order
    exported = list(table.columns)
    selected = ", ".join(f'"{c}"' for c in dict.fromkeys([*exported, *order]))
    drop = [c for c in order if c not in table.columns]
    keys = ", ".join(f'"{c}"' for c in order)
    after = ", ".join(f":k{i}" for i in range(len(order)))
    sql_first = (
        f"SELECT jsonb_build_object('type', CAST(:record AS text), 'profile', CAST(:pname AS text), "
        f"'data', to_jsonb(t) - CAST(:drop AS text[]))::text AS line, {keys} "
        f'FROM (SELECT {selected} FROM "{table.spec.table}" WHERE profile_id = :p {{after}} '
        f"ORDER BY {keys} LIMIT :n) t"
    )
    first = text(batches.bounded(sql_first.format(after=""), "octet_length(line)", keys))
    following = text(
        batches.bounded(sql_first.format(after=f"AND ({keys}) > ({after})"), "octet_length(line)", keys)
    )
    params: dict[str, Any] = {
        "record": table.spec.record,
        "pname": profile_name,
        "drop": drop,
        "p": profile_id,
        "budget": batches.BATCH_BYTES,
        "n": batches.FIRST_ROWS,
    }
    statement = first
    while True:
        rows = (await conn.execute(statement, params)).all()
        if not rows:
            return
        yield [r.line for r in rows]
        if len(rows) == rows[0].available < params["n"]:
            return  # the query's LIMIT was not reached, and every row it found fitted
        statement = following
        for i, column in enumerate(order):
            params[f"k{i}"] = getattr(rows[-1], column)
        params["n"] = batches.next_rows(rows)


# Whether a row (alias r) is kept out by a tombstone of its profile, per forgettable table.
_FORGOTTEN = {
    "memories": "EXISTS (SELECT 1 FROM memory_tombstones t "
    "WHERE t.profile_id = r.profile_id AND t.content_hash = r.content_hash)",
    "messages": "EXISTS (SELECT 1 FROM tombstone_messages t WHERE t.profile_id = r.profile_id "
    "AND t.session_id = r.session_id AND t.message_id = r.id AND t.deleted)",
}


async def forgotten_rows(db: AsyncSession, table: Table, rows: list[dict[str, Any]]) -> list[int]:
    """The positions of the rows (each with profile_id set) a tombstone of their profile keeps out."""
    if not table.spec.forgettable:
        return []
    sql = (
        "SELECT e.ord - 1 FROM jsonb_array_elements(CAST(:rows AS jsonb)) WITH ORDINALITY AS e(row, ord), "
        f'LATERAL jsonb_populate_record(NULL::"{table.spec.table}", e.row) r '
        f"WHERE {_FORGOTTEN[table.spec.table]}"
    )
    found = await db.execute(text(sql), {"rows": json.dumps(rows)})
    return [int(i) for i in found.scalars()]


async def insert_rows(db: AsyncSession, table: Table, columns: list[str], rows: list[dict[str, Any]]) -> int:
    """Insert the rows (each with profile_id set) that are not there yet; returns how many were new."""
    names = ", ".join(f'"{c}"' for c in ["profile_id", *columns])
    picked = ", ".join(f'r."{c}"' for c in ["profile_id", *columns])
    conditions = []
    if table.spec.needs_memory:
        conditions.append(
            "EXISTS (SELECT 1 FROM memories m WHERE m.profile_id = r.profile_id AND m.id = r.memory_id)"
        )
    if table.spec.needs_message:
        conditions.append(
            "EXISTS (SELECT 1 FROM messages m WHERE m.profile_id = r.profile_id "
            "AND m.session_id = r.session_id AND m.id = r.message_id)"
        )
    where = f"WHERE {' AND '.join(conditions)}" if conditions else ""
    sql = (
        f'INSERT INTO "{table.spec.table}" ({names}) '
        f'SELECT {picked} FROM jsonb_populate_recordset(NULL::"{table.spec.table}", CAST(:rows AS jsonb)) r '
        f"{where} ON CONFLICT DO NOTHING"
    )
    result = await db.execute(text(sql), {"rows": json.dumps(rows)})
    return int(getattr(result, "rowcount", 0) or 0)


async def profile_id(db: AsyncSession, namespace_id: int, name: str) -> int | None:
    found = await db.execute(
        text("SELECT id FROM profiles WHERE namespace_id = :ns AND name = :name AND deleted_at IS NULL"),
        {"ns": namespace_id, "name": name},
    )
    value = found.scalar_one_or_none()
    return int(value) if value is not None else None
