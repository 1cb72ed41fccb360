"""Keyset pagination: opaque cursors (URL-safe base64 of JSON) and the shared `limit`/`cursor` query params."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Query

from app.core.errors import ValidationFailed
from app.core.text import storable_text

Limit = Annotated[int, Query(ge=1, le=500, description="Page size (1–500).")]
Cursor = Annotated[
    str | None,
    Query(max_length=512, description="Opaque cursor from the previous page; absent for the first."),
]


def encode_cursor(*values: Any) -> str:
    raw = json.dumps(list(values), separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _invalid_cursor() -> ValidationFailed:
    return ValidationFailed("cursor is not valid", [{"loc": ["query", "cursor"], "msg": "invalid cursor"}])


def decode_cursor(cursor: str, arity: int) -> list[str]:
    """The cursor's values; every cursor we issue holds `arity` strings, so anything else is forged."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        values = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise _invalid_cursor() from exc
    if not isinstance(values, list) or len(values) != arity:
        raise _invalid_cursor()
    # A value we never issued must not reach the database: NUL or a lone surrogate would fail there.
    if not all(isinstance(v, str) and storable_text(v) for v in values):
        raise _invalid_cursor()
    return values


def decode_cursor_time(value: str) -> datetime:
    """A timestamp from a cursor, in UTC; one outside the calendar once in UTC is as invalid as garbage."""
    try:
        moment = datetime.fromisoformat(value)
        return moment.astimezone(UTC) if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    except (ValueError, OverflowError) as exc:
        raise _invalid_cursor() from exc
