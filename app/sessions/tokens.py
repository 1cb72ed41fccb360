"""Heuristic token estimates, the same arithmetic as the reference Session implementation.

Counts are estimates, not tokenizer output: `ceil(max(chars / 4, words × 1.3))` per string, where `chars`
counts UTF-16 code units as JavaScript's `length` does, so both implementations agree on the same text.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

CHARS_PER_TOKEN = 4
WORDS_TOKEN_MULTIPLIER = 1.3
TOKENS_PER_MESSAGE = 4


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def estimate_string_tokens(text: str) -> int:
    if not text:
        return 0
    chars = utf16_length(text) / CHARS_PER_TOKEN
    words = len(text.split()) * WORDS_TOKEN_MULTIPLIER
    return math.ceil(max(chars, words))


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


def js_round(value: float) -> int:
    """JavaScript's Math.round (halves go up), which the usage percentages are written with."""
    return math.floor(value + 0.5)
