"""Schemathesis hooks for bench/fuzz_api.py (loaded through SCHEMATHESIS_HOOKS): the import's NDJSON body,
which schemathesis has no serializer for, as one JSON document a line."""

from __future__ import annotations

import json
from typing import Any

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(_ctx: Any, value: Any) -> bytes:
    lines = value if isinstance(value, list) else [value]
    return "".join(json.dumps(line) + "\n" for line in lines).encode()
