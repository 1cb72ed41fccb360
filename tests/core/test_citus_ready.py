"""The migrated schema is ready for Citus: every table placed (app/models/distribution.py), and each keeps
the rules of its placement, read from PostgreSQL's catalogs (Citus itself cannot be installed here).

A distributed table: its distribution column NOT NULL, of one type across the tables co-located on it, in
its primary key and in every unique index and exclusion constraint; a foreign key to another distributed
table pairs the distribution columns of both (same co-location), one to a reference table is fine, one to
a coordinator table is not. A reference table's foreign keys point at reference tables only; a coordinator
table's at reference or coordinator tables. The checker is shown failing on a copy of the schema with a
table whose primary key lacks the column, a foreign key that skips it, and a table nobody placed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from app.core.migrations import upgrade_to_head
from app.core.settings import to_async_url
from app.models.distribution import TABLES, UNPLACED, Distribution, citus_statements
from tests.conftest import fresh_database

DOC = (Path(__file__).resolve().parents[2] / "docs" / "scale-out.md").read_text()


@dataclass(frozen=True)
class ForeignKey:
    name: str
    columns: tuple[str, ...]
    target: str
    target_columns: tuple[str, ...]


@dataclass
class Table:
    columns: dict[str, tuple[str, bool]]  # name → (type, NOT NULL)
    primary_key: tuple[str, ...] | None
    unique: dict[str, tuple[str, ...]]  # unique index or exclusion constraint → its columns
    foreign_keys: list[ForeignKey]


async def read_schema(conn: asyncpg.Connection, schema: str) -> dict[str, Table]:
    tables: dict[str, Table] = {}
    for row in await conn.fetch(
        """SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
           WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY c.relname, a.attnum""",
        schema,
    ):
        table = tables.setdefault(row["relname"], Table({}, None, {}, []))
        table.columns[row["attname"]] = (row["type"], row["attnotnull"])

    def names(attrs: list[str | None]) -> tuple[str, ...]:
        # An expression in an index has no column name: it can never stand for the distribution column.
        return tuple(a if a is not None else "(expression)" for a in attrs)

    for row in await conn.fetch(
        """SELECT t.relname, i.relname AS index, x.indisprimary,
                  array(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY k(attnum, o)
                        LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                        ORDER BY k.o) AS columns
           FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
           WHERE n.nspname = $1 AND (x.indisunique OR x.indisexclusion)""",
        schema,
    ):
        table = tables[row["relname"]]
        if row["indisprimary"]:
            table.primary_key = names(row["columns"])
        else:
            table.unique[row["index"]] = names(row["columns"])
    for row in await conn.fetch(
        """SELECT t.relname, con.conname, r.relname AS target,
                  array(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(attnum, o)
                        JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
                        ORDER BY k.o) AS columns,
                  array(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(attnum, o)
                        JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum
                        ORDER BY k.o) AS target_columns
           FROM pg_constraint con JOIN pg_class t ON t.oid = con.conrelid JOIN pg_class r ON r.oid = con.confrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
           WHERE n.nspname = $1 AND con.contype = 'f'""",
        schema,
    ):
        tables[row["relname"]].foreign_keys.append(
            ForeignKey(row["conname"], tuple(row["columns"]), row["target"], tuple(row["target_columns"]))
        )
    return tables


def violations(tables: dict[str, Table], placement: dict[str, Distribution]) -> list[str]:
    """What keeps this schema from being distributed as `placement` says (empty: nothing)."""
    found: list[str] = []
    group_types: dict[str, set[str]] = {}
    for name, table in sorted(tables.items()):
        if name in UNPLACED:
            continue
        where = placement.get(name)
        if where is None:
            found.append(f"{name}: not placed (add it to app/models/distribution.py TABLES)")
            continue
        column = where.column
        if column is not None:
            if column not in table.columns:
                found.append(f"{name}: no distribution column {column}")
                continue
            kind, not_null = table.columns[column]
            group_types.setdefault(column, set()).add(kind)
            if not not_null:
                found.append(f"{name}: {column} may be NULL")
            if table.primary_key is None or column not in table.primary_key:
                found.append(f"{name}: primary key {table.primary_key} lacks {column}")
            for index, columns in sorted(table.unique.items()):
                if column not in columns:
                    found.append(f"{name}: unique index {index} {columns} lacks {column}")
        for key in table.foreign_keys:
            target = placement.get(key.target)
            if target is None:
                continue  # reported as not placed
            if where.placement == "reference" and target.placement != "reference":
                found.append(
                    f"{name}: reference table's foreign key {key.name} points at {target.placement} {key.target}"
                )
            elif where.placement == "local" and target.placement == "distributed":
                found.append(
                    f"{name}: coordinator table's foreign key {key.name} points at distributed {key.target}"
                )
            elif where.placement == "distributed" and target.placement == "local":
                found.append(f"{name}: foreign key {key.name} points at coordinator table {key.target}")
            elif where.placement == "distributed" and target.placement == "distributed":
                pairs = dict(zip(key.columns, key.target_columns, strict=True))
                if target.column != column or pairs.get(column or "") != target.column:
                    found.append(
                        f"{name}: foreign key {key.name} {key.columns} → {key.target}{key.target_columns} "
                        f"does not pair {column} with {key.target}.{target.column}"
                    )
    for column, kinds in group_types.items():
        if len(kinds) > 1:
            found.append(f"tables distributed by {column} disagree on its type: {sorted(kinds)}")
    return found


@pytest.fixture(scope="module")
async def migrated() -> AsyncIterator[str]:
    async with fresh_database("am_test_citus") as url:
        engine = create_async_engine(to_async_url(url))
        try:
            await upgrade_to_head(engine)
        finally:
            await engine.dispose()
        yield url


async def test_the_migrated_schema_keeps_the_rules_of_its_distribution(migrated: str) -> None:
    conn = await asyncpg.connect(migrated)
    try:
        tables = await read_schema(conn, "public")
    finally:
        await conn.close()
    assert set(TABLES) <= set(tables), "a table placed in distribution.py is not in the schema"
    assert violations(tables, TABLES) == []


async def test_the_check_fails_on_a_broken_copy(migrated: str) -> None:
    """A copy of the schema, broken three ways: the checker names each."""
    conn = await asyncpg.connect(migrated)
    try:
        async with conn.transaction():
            await conn.execute("CREATE SCHEMA broken")
            for table in TABLES:
                await conn.execute(f"CREATE TABLE broken.{table} (LIKE public.{table} INCLUDING ALL)")
            # memories keyed by id alone, and a unique index without profile_id
            await conn.execute("ALTER TABLE broken.memories DROP CONSTRAINT memories_pkey")
            await conn.execute("ALTER TABLE broken.memories ADD PRIMARY KEY (id)")
            await conn.execute("CREATE UNIQUE INDEX ON broken.memories (content_hash)")
            # a per-profile table whose foreign key skips profile_id
            await conn.execute(
                "ALTER TABLE broken.memory_versions ADD FOREIGN KEY (memory_id) REFERENCES broken.memories (id)"
            )
            # a table nobody placed
            await conn.execute("CREATE TABLE broken.unplaced_things (id text PRIMARY KEY)")
            tables = await read_schema(conn, "broken")
            await conn.execute("DROP SCHEMA broken CASCADE")
    finally:
        await conn.close()
    found = violations(tables, TABLES)
    assert any(v.startswith("memories: primary key ('id',) lacks profile_id") for v in found), found
    assert any(v.startswith("memories: unique index") and "('content_hash',)" in v for v in found), found
    assert any(v.startswith("memory_versions: foreign key") for v in found), found
    assert any(v.startswith("unplaced_things: not placed") for v in found), found
    assert len(found) == 4, found


def test_the_docs_give_the_statements() -> None:
    assert citus_statements(), "nothing to distribute"
    for statement in citus_statements():
        assert statement in DOC, statement
