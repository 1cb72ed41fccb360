"""Token estimates of session messages, the same arithmetic as the reference Session implementation.

A message costs its framing plus its text, reasoning and tool inputs and outputs, each string counted by
the product's one estimate (`app.core.tokens`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from app.core.tokens import estimate_tokens as estimate_string_tokens
from app.core.tokens import js_round, utf16_length

__all__ = ["estimate_parts_tokens", "estimate_string_tokens", "is_tool_part", "js_round", "utf16_length"]

# The reference's framing overhead of one message (role, separators), whatever its content.
TOKENS_PER_MESSAGE = 4


def _estimate_unknown(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return estimate_string_tokens(value)
    return estimate_string_tokens(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def is_tool_part(part: Mapping[str, Any]) -> bool:
    kind = part.get("type")
    return isinstance(kind, str) and (kind.startswith("tool-") or kind == "dynamic-tool")


def estimate_parts_tokens(parts: Iterable[Mapping[str, Any]]) -> int:
    """One message: its framing overhead plus text, reasoning, and tool inputs and outputs."""
    tokens = TOKENS_PER_MESSAGE
    for part in parts:
        kind = part.get("type")
        if kind in ("text", "reasoning"):
            text = part.get("text")
            tokens += _estimate_unknown(text if text is not None else part.get("reasoning"))
        elif is_tool_part(part):
            tokens += _estimate_unknown(part.get("input"))
            output = part.get("output")
            tokens += _estimate_unknown(output if output is not None else part.get("result"))
        elif part.get("text") is not None:
            tokens += _estimate_unknown(part.get("text"))
        elif part.get("result") is not None:
            tokens += _estimate_unknown(part.get("result"))
    return tokens
