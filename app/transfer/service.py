"""Rules of export and import.

Export: a header line, then per live profile its `profile` record and its rows table by table (in
dependency order), then an `end` line with the number of records, so a cut-off stream is told from a
whole one. Everything is read in one REPEATABLE READ transaction (one consistent snapshot) on a connection
of its own, in keyset batches of about 1 MiB (app.core.batches): the export is never held in memory,
whatever its size, nor a batch of rows of megabytes each.

Import: line by line from the request stream; each line is parsed and checked against the target tables'
columns before it is buffered, consecutive rows of one table and profile are inserted in batches with
`ON CONFLICT DO NOTHING` (so importing the same file twice changes nothing), all in the request's one
transaction: any bad line (422 naming it) or failure rolls the whole import back. Tombstones come first in
a file; what a tombstone of the target profile keeps out (a deleted memory's content, the messages it took
with it) is not imported, and counted as `forgotten`.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.core import json_input
from app.core.errors import ValidationFailed
from app.core.memory_types import MemoryType
from app.core.metadata import check_metadata
from app.core.names import check_profile_name
from app.core.text import MESSAGE_CONTENT_BYTES, REMEMBER_CONTENT_BYTES, storable_text
from app.memories import service as memories
from app.profiles import repository as profiles_repository
from app.quotas.service import held_to_quotas
from app.transfer import repository
from app.transfer.repository import Column, Table

FORMAT = "agent-memory-export"
VERSION = 1
IMPORT_BATCH = 1000
MAX_LINE_BYTES = 8 * 1024 * 1024
PROFILE_NAME_MAX = 100

# Values the API's own types constrain, checked on import so an imported row can always be read back.
_ALLOWED: dict[tuple[str, str], frozenset[str]] = {
    ("memories", "type"): frozenset(t.value for t in MemoryType),
    ("memory_versions", "type"): frozenset(t.value for t in MemoryType),
    ("memories", "change"): frozenset({"created", "edited", "restored"}),
    ("memory_versions", "change"): frozenset({"created", "edited", "restored"}),
    ("messages", "role"): frozenset({"system", "user", "assistant"}),
}


class ImportLineInvalid(ValidationFailed):
    def __init__(self, line: int, message: str) -> None:
        detail = f"line {line}: {message}"
        super().__init__(detail, [{"loc": ["body", line], "msg": message}], code="import_line_invalid")


# ---------------------------------------------------------------------------------------------- export


async def export_stream(
    engine: AsyncEngine, namespace_id: int, namespace: str, profile: str | None
) -> AsyncIterator[bytes]:
    """The NDJSON export, chunk by chunk (one chunk per batch of rows)."""
    async with engine.connect() as conn:
        conn = await conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        async with conn.begin():
            revision = await repository.schema_revision(conn)
            tables = await repository.tables(conn)
            header = {
                "type": "header",
                "format": FORMAT,
                "version": VERSION,
                "namespace": namespace,
                "profile": profile,
                "schemaRevision": revision,
                "exportedAt": datetime.now(UTC).isoformat(),
            }
            yield (json.dumps(header) + "\n").encode()
            records = 0
            async for profile_id, name, created_at in profiles_repository.live_in_namespace(
                conn, namespace_id, profile
            ):
                line = {
                    "type": "profile",
                    "profile": name,
                    "data": {"name": name, "created_at": created_at.isoformat()},
                }
                yield (json.dumps(line) + "\n").encode()
                records += 1
                for table in tables:
                    async for lines in repository.export_lines(conn, table, profile_id, name):
                        records += len(lines)
                        yield ("\n".join(lines) + "\n").encode()
            yield (json.dumps({"type": "end", "records": records}) + "\n").encode()


# ---------------------------------------------------------------------------------------------- import


@dataclass
class ImportCounts:
    records: int = 0
    inserted: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    forgotten: dict[str, int] = field(default_factory=dict)


def _check_text(value: str, column: Column) -> str | None:
    if not storable_text(value):
        return "contains NUL or invalid text"
    if column.max_length is not None and len(value) > column.max_length:
        return f"longer than {column.max_length} characters"
    return None


def _json_storable(value: Any) -> bool:
    if isinstance(value, str):
        return storable_text(value)
    if isinstance(value, dict):
        return all(storable_text(k) and _json_storable(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_json_storable(v) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return True


def _check_value(table: str, column: Column, value: Any) -> str | None:
    """Why the value cannot go into the column, or None when it can."""
    if value is None:
        return None if column.nullable or column.has_default else "must not be null"
    kind = column.data_type
    if kind in ("text", "character varying", "character"):
        if not isinstance(value, str):
            return "must be a string"
        problem = _check_text(value, column)
        if (
            problem is None
            and (table, column.name) in _ALLOWED
            and value not in _ALLOWED[(table, column.name)]
        ):
            problem = f"must be one of {sorted(_ALLOWED[(table, column.name)])}"
        return problem
    if kind in ("bigint", "integer", "smallint"):
        ok = isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value < 2**63
        return None if ok else "must be an integer"
    if kind in ("double precision", "real", "numeric"):
        ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        return None if ok else "must be a number"
    if kind == "boolean":
        return None if isinstance(value, bool) else "must be true or false"
    if kind.startswith("timestamp"):
        if not isinstance(value, str):
            return "must be an RFC 3339 timestamp"
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            return "must be an RFC 3339 timestamp"
        return None if parsed.tzinfo is not None else "must be a timestamp with an offset"
    if kind in ("jsonb", "json"):
        return None if _json_storable(value) else "contains NUL, invalid text or a non-finite number"
    if kind == "ARRAY":
        ok = isinstance(value, list) and all(
            isinstance(v, int | float | str) and not isinstance(v, bool) and _json_storable(v) for v in value
        )
        return None if ok else "must be an array of numbers or strings"
    if kind == "USER-DEFINED":  # pgvector: its text form or an array
        ok = (isinstance(value, str) and storable_text(value)) or (
            isinstance(value, list)
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        )
        return None if ok else "must be a vector"
    return None if _json_storable(value) else "contains NUL or invalid text"


def _check_row(table: Table, data: Any) -> str | None:
    if not isinstance(data, dict):
        return "data must be an object"
    for name in data:
        if name not in table.columns:
            return f"unknown column '{name}' for {table.spec.record}"
    for column in table.columns.values():
        if column.name not in data:
            if not column.nullable and not column.has_default:
                return f"{column.name}: required"
            continue
        problem = _check_value(table.spec.table, column, data[column.name])
        if problem is None:
            problem = _check_limit(table.spec.table, column.name, data[column.name])
        if problem is not None:
            return f"{column.name}: {problem}"
    return None


def _check_limit(table: str, column: str, value: Any) -> str | None:
    """The limits /remember and the Session API enforce, enforced on what an import stores too."""
    if table == "memories" and column == "content" and isinstance(value, str):
        size = len(value.encode("utf-8"))
        if size > REMEMBER_CONTENT_BYTES:
            return f"must be at most {REMEMBER_CONTENT_BYTES} bytes of UTF-8 (got {size})"
    if table == "messages" and column == "text_content" and isinstance(value, str):
        size = len(value.encode("utf-8"))
        if size > MESSAGE_CONTENT_BYTES:
            return f"must be at most {MESSAGE_CONTENT_BYTES} bytes of UTF-8 (got {size})"
    if column == "metadata" and isinstance(value, dict):
        try:
            check_metadata(value)
        except ValueError as exc:
            return str(exc)
    return None


# What a refusal by the database means, by SQLSTATE class, in the import's words (PostgreSQL's own text
# names constraints and values: it goes to the log, not to the client).
_DATABASE_REFUSALS = {
    "23505": "duplicates a record already stored under another id",
    "23503": "refers to a record that is not in the namespace",
    "23514": "holds a value outside what the record allows",
    "23502": "lacks a value the record needs",
    "22001": "holds a value too long for the record",
    "22003": "holds a number out of range",
}


def _refusal(exc: DBAPIError) -> str:
    code = getattr(getattr(exc, "orig", None), "sqlstate", None) or ""
    return _DATABASE_REFUSALS.get(code, "cannot be stored")


def _check_profile_name(name: Any) -> str | None:
    if not isinstance(name, str) or not 1 <= len(name) <= PROFILE_NAME_MAX:
        return f"profile must be a name of 1–{PROFILE_NAME_MAX} characters"
    try:
        check_profile_name(name)
    except ValueError as exc:
        return str(exc)
    return None if storable_text(name) else "profile names contain no control characters and no '/'"


@dataclass
class _Batch:
    table: Table | None = None
    profile_id: int = 0
    columns: tuple[str, ...] = ()
    rows: list[dict[str, Any]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


class _Importer:
    def __init__(self, db: AsyncSession, namespace_id: int, tables: list[Table]) -> None:
        self.db = db
        self.namespace_id = namespace_id
        self.tables = {t.spec.record: t for t in tables}
        self.profiles: dict[str, int] = {}
        self.counts = ImportCounts()
        self.batch = _Batch()
        self.header_seen = False
        self.end_seen = False
        # Messages a tombstone kept out, by (profile id, session id, message id) → their parent: a child
        # that follows is chained to the nearest ancestor that was imported.
        self.forgotten_parents: dict[tuple[int, str, str], str | None] = {}
        # Memories of an export written before speakers were stored (no `speaker` nor `speaker_role`), by
        # profile id: given the speaker ingest gives once their sources are in (`memories.service.attribute`).
        self.unattributed: dict[int, list[str]] = {}

    async def line(self, number: int, raw: bytes) -> None:
        if self.end_seen:
            if raw.strip():
                raise ImportLineInvalid(number, "nothing may follow the end record")
            return
        try:
            record = json_input.loads(raw)
        except json_input.JsonRefused as exc:
            raise ImportLineInvalid(number, f"not JSON this API accepts: {exc}") from None
        except ValueError:
            raise ImportLineInvalid(number, "not a JSON object") from None
        if not isinstance(record, dict):
            raise ImportLineInvalid(number, "not a JSON object")
        kind = record.get("type")
        if not self.header_seen:
            if kind != "header" or record.get("format") != FORMAT:
                raise ImportLineInvalid(number, f"the first line must be the {FORMAT} header")
            version = record.get("version")
            if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
                raise ImportLineInvalid(
                    number, f"unsupported export version {version!r} (this server reads {VERSION})"
                )
            self.header_seen = True
            return
        if kind == "end":
            await self.flush()
            for profile_id, memory_ids in self.unattributed.items():
                for start in range(0, len(memory_ids), IMPORT_BATCH):
                    await memories.attribute(self.db, profile_id, memory_ids[start : start + IMPORT_BATCH])
            if record.get("records") != self.counts.records:
                raise ImportLineInvalid(
                    number,
                    f"the end record counts {record.get('records')!r} records, the file holds {self.counts.records}",
                )
            self.end_seen = True
            return
        name = record.get("profile")
        problem = _check_profile_name(name)
        if problem is not None:
            raise ImportLineInvalid(number, problem)
        assert isinstance(name, str)
        data = record.get("data")
        if kind == "profile":
            await self.flush()
            created_at = data.get("created_at") if isinstance(data, dict) else None
            if not isinstance(data, dict) or data.get("name") != name or set(data) - {"name", "created_at"}:
                raise ImportLineInvalid(number, "a profile record's data is {name, created_at}")
            try:
                at = datetime.fromisoformat(created_at) if created_at is not None else None
            except (TypeError, ValueError):
                raise ImportLineInvalid(number, "created_at: must be an RFC 3339 timestamp") from None
            if at is not None and at.tzinfo is None:
                raise ImportLineInvalid(number, "created_at: must be a timestamp with an offset")
            row, created = await profiles_repository.get_or_create(
                self.db, self.namespace_id, name, created_at=at
            )
            self.profiles[name] = row.id
            bucket = self.counts.inserted if created else self.counts.skipped
            bucket["profile"] = bucket.get("profile", 0) + 1
            self.counts.records += 1
            return
        table = self.tables.get(kind) if isinstance(kind, str) else None
        if table is None:
            raise ImportLineInvalid(number, f"unknown record type {kind!r}")
        if name not in self.profiles:
            raise ImportLineInvalid(number, f"profile '{name}' has no profile record before it")
        problem = _check_row(table, data)
        if problem is not None:
            raise ImportLineInvalid(number, problem)
        assert isinstance(data, dict)
        profile_id = self.profiles[name]
        columns = tuple(data)
        batch = self.batch
        if (
            batch.table is not table
            or batch.profile_id != profile_id
            or batch.columns != columns
            or len(batch.rows) >= IMPORT_BATCH
        ):
            await self.flush()
            self.batch = batch = _Batch(table, profile_id, columns)
        batch.rows.append({**data, "profile_id": profile_id})
        if kind == "memory" and "speaker" not in data and "speaker_role" not in data:
            self.unattributed.setdefault(profile_id, []).append(str(data.get("id")))
        batch.lines.append(number)
        self.counts.records += 1

    async def flush(self) -> None:
        batch, self.batch = self.batch, _Batch()
        if batch.table is None or not batch.rows:
            return
        table = batch.table
        self._leave_out_forgotten(batch, await repository.forgotten_rows(self.db, table, batch.rows))
        if not batch.rows:
            return
        try:
            async with self.db.begin_nested():
                inserted = await repository.insert_rows(self.db, table, list(batch.columns), batch.rows)
        except DBAPIError:
            # Find the line the database refused, so the 422 can name it.
            for number, row in zip(batch.lines, batch.rows, strict=True):
                try:
                    async with self.db.begin_nested():
                        await repository.insert_rows(self.db, table, list(batch.columns), [row])
                except DBAPIError as exc:
                    raise ImportLineInvalid(
                        number, f"the {table.spec.record} record {_refusal(exc)}"
                    ) from None
            raise ImportLineInvalid(batch.lines[0], "refused by the database") from None
        record = table.spec.record
        self.counts.inserted[record] = self.counts.inserted.get(record, 0) + inserted
        self.counts.skipped[record] = self.counts.skipped.get(record, 0) + len(batch.rows) - inserted

    def _leave_out_forgotten(self, batch: _Batch, forgotten: list[int]) -> None:
        """Take out of the batch the rows a tombstone keeps out (counted), and chain the messages that
        followed a forgotten one to its nearest imported ancestor, as deleting it did."""
        assert batch.table is not None
        record = batch.table.spec.record
        if forgotten:
            self.counts.forgotten[record] = self.counts.forgotten.get(record, 0) + len(forgotten)
            gone = set(forgotten)
            if record == "message":
                for i in forgotten:
                    row = batch.rows[i]
                    key = (batch.profile_id, str(row["session_id"]), str(row["id"]))
                    self.forgotten_parents[key] = row.get("parent_id")
            batch.rows = [r for i, r in enumerate(batch.rows) if i not in gone]
            batch.lines = [n for i, n in enumerate(batch.lines) if i not in gone]
        if record == "message" and self.forgotten_parents:
            for row in batch.rows:
                parent = row.get("parent_id")
                while (
                    parent is not None
                    and (batch.profile_id, row["session_id"], parent) in self.forgotten_parents
                ):
                    parent = self.forgotten_parents[(batch.profile_id, row["session_id"], parent)]
                if "parent_id" in row:
                    row["parent_id"] = parent

    async def finish(self, last_line: int) -> ImportCounts:
        if not self.header_seen:
            raise ImportLineInvalid(max(last_line, 1), "empty import: the header is missing")
        if not self.end_seen:
            raise ImportLineInvalid(last_line + 1, "the end record is missing: the file is incomplete")
        return self.counts


async def lines_of(chunks: AsyncIterator[bytes]) -> AsyncIterator[tuple[int, bytes]]:
    """Numbered lines of a byte stream; a line longer than MAX_LINE_BYTES is refused as it grows."""
    rest = b""
    number = 0
    async for chunk in chunks:
        if b"\n" not in chunk:
            rest += chunk
        else:
            # One split per chunk: cutting the buffer line by line would copy it once per line.
            pieces = chunk.split(b"\n")
            pieces[0] = rest + pieces[0]
            rest = pieces.pop()
            for piece in pieces:
                number += 1
                yield number, piece
        if len(rest) > MAX_LINE_BYTES:
            raise ImportLineInvalid(number + 1, f"longer than {MAX_LINE_BYTES} bytes")
    if rest.strip():
        yield number + 1, rest


async def import_stream(db: AsyncSession, namespace_id: int, chunks: AsyncIterator[bytes]) -> ImportCounts:
    importer = _Importer(db, namespace_id, await repository.tables(db))
    last = 0
    # Held to the namespace's quotas as a whole: an import that would pass one stores nothing (429).
    async with held_to_quotas(db, namespace_id, "memories", "messages", "bytes"):
        async for number, raw in lines_of(chunks):
            last = number
            if not raw.strip():
                continue  # blank lines (a trailing CRLF's, an editor's) carry nothing
            if len(raw) > MAX_LINE_BYTES:
                raise ImportLineInvalid(number, f"longer than {MAX_LINE_BYTES} bytes")
            await importer.line(number, raw)
        counts = await importer.finish(last)
    return counts


async def profile_exists(db: AsyncSession, namespace_id: int, name: str) -> bool:
    return await repository.profile_id(db, namespace_id, name) is not None
