"""Keyset pagination: opaque cursors (URL-safe base64 of JSON) and the shared `limit`/`cursor` query params."""

from __future__ import annotations

import base64
import json
from typing import Annotated, Any

from fastapi import Query

from app.core.errors import ValidationFailed

Limit = Annotated[int, Query(ge=1, le=500, description="Page size (1–500).")]
Cursor = Annotated[
    str | None,
    Query(max_length=512, description="Opaque cursor from the previous page; absent for the first."),
]


def encode_cursor(*values: Any) -> str:
    raw = json.dumps(list(values), separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, arity: int) -> list[Any]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        values = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidationFailed(
            "cursor is not valid", [{"loc": ["query", "cursor"], "msg": "invalid cursor"}]
        ) from exc
    if not isinstance(values, list) or len(values) != arity:
        raise ValidationFailed("cursor is not valid", [{"loc": ["query", "cursor"], "msg": "invalid cursor"}])
    return values
