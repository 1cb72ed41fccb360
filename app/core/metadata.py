"""Metadata: the free-form JSON object a client tags memories, messages and sessions with, its limits, and
the filter form `GET /memories?metadata=` takes (one JSON-encoded object in a query parameter)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from app.core import json_input
from app.core.text import storable_text

METADATA_MAX_BYTES = 8 * 1024
METADATA_KEY_MAX_CHARS = 64


def _check_value(value: Any, path: str) -> None:
    if isinstance(value, str):
        if not storable_text(value):
            raise ValueError(f"metadata value at {path} contains NUL or invalid text")
    elif isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or not key or len(key) > METADATA_KEY_MAX_CHARS:
                raise ValueError(f"metadata keys must be 1–{METADATA_KEY_MAX_CHARS} characters (got {key!r})")
            if not storable_text(key):
                raise ValueError(f"metadata key {key!r} contains NUL or invalid text")
            _check_value(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_value(item, f"{path}[{index}]")


def check_metadata(value: dict[str, Any]) -> dict[str, Any]:
    """Keys 1–64 characters (at every depth), no NUL anywhere, at most 8 KiB serialised."""
    _check_value(value, "$")
    size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    if size > METADATA_MAX_BYTES:
        raise ValueError(f"metadata must be at most {METADATA_MAX_BYTES} bytes serialised (got {size})")
    return value


Metadata = Annotated[
    dict[str, Any],
    Field(
        description=f"A JSON object of tags: keys 1–{METADATA_KEY_MAX_CHARS} characters, "
        f"at most {METADATA_MAX_BYTES} bytes serialised, no NUL.",
        examples=[{"project": "apollo"}],
    ),
    AfterValidator(check_metadata),
]
MetadataFilter = Annotated[
    dict[str, Any],
    Field(
        description="Only memories whose metadata has every given key with exactly the given value.",
        examples=[{"project": "apollo"}],
    ),
    AfterValidator(check_metadata),
]


def parse_filter(raw: str) -> dict[str, Any]:
    """The `metadata` query parameter: a JSON-encoded object, checked as metadata is."""
    try:
        value = json_input.loads(raw)
    except ValueError as exc:
        raise ValueError(f"metadata must be a JSON-encoded object: {exc}") from None
    if not isinstance(value, dict):
        raise ValueError("metadata must be a JSON-encoded object")
    return check_metadata(value)


def filter_sql(column: str, filters: dict[str, Any], params: dict[str, Any], prefix: str = "mf") -> str:
    """SQL matching every given key exactly: containment finds rows through the GIN index, and an equality
    per key makes the match exact (containment alone would accept a nested object with extra keys)."""
    if not filters:
        return "TRUE"
    params[f"{prefix}_all"] = json.dumps(filters)
    clauses = [f"{column} @> CAST(:{prefix}_all AS jsonb)"]
    for index, (key, value) in enumerate(filters.items()):
        params[f"{prefix}_k{index}"] = key
        params[f"{prefix}_v{index}"] = json.dumps(value)
        clauses.append(f"{column} -> CAST(:{prefix}_k{index} AS text) = CAST(:{prefix}_v{index} AS jsonb)")
    return " AND ".join(clauses)
