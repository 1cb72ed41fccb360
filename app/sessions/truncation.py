"""Read-time truncation of older messages, as the reference's `truncateOlderMessages` does.

Stored messages are never changed: a history read with `truncate=true` gets copies in which every message
but the last `keep_recent` has tool outputs cut to `max_tool_output_chars` and text parts to
`max_text_chars`, each followed by `... [truncated N chars]` (N the original length). Lengths count UTF-16
code units, as JavaScript's `length` does, so both implementations cut at the same place.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from app.sessions.schemas import KEEP_RECENT, MAX_TEXT_CHARS, MAX_TOOL_OUTPUT_CHARS, SessionMessage
from app.sessions.tokens import is_tool_part, utf16_length


def _utf16_prefix(text: str, units: int) -> str:
    """The first `units` UTF-16 code units of the text (a surrogate pair cut in half is dropped whole)."""
    encoded = text.encode("utf-16-le", "surrogatepass")[: units * 2]
    return encoded.decode("utf-16-le", "ignore")


def _cut(text: str, limit: int) -> str | None:
    length = utf16_length(text)
    if length <= limit:
        return None
    return f"{_utf16_prefix(text, limit)}... [truncated {length} chars]"


def _truncate_part(part: dict[str, Any], max_tool_output: int, max_text: int) -> dict[str, Any]:
    if is_tool_part(part) and part.get("output") is not None:
        output = part["output"]
        serialised = (
            output
            if isinstance(output, str)
            else json.dumps(output, ensure_ascii=False, separators=(",", ":"))
        )
        cut = _cut(serialised, max_tool_output)
        if cut is not None:
            return {**part, "output": cut}
    if part.get("type") == "text" and isinstance(part.get("text"), str):
        cut = _cut(part["text"], max_text)
        if cut is not None:
            return {**part, "text": cut}
    return part


def truncate_older(
    messages: Sequence[SessionMessage],
    keep_recent: int = KEEP_RECENT,
    max_tool_output_chars: int = MAX_TOOL_OUTPUT_CHARS,
    max_text_chars: int = MAX_TEXT_CHARS,
) -> list[SessionMessage]:
    if len(messages) <= keep_recent:
        return list(messages)
    cutoff = len(messages) - keep_recent
    out: list[SessionMessage] = []
    for index, message in enumerate(messages):
        if index >= cutoff:
            out.append(message)
            continue
        out.append(truncate_message(message, max_tool_output_chars, max_text_chars))
    return out


def truncate_message(
    message: SessionMessage, max_tool_output_chars: int, max_text_chars: int
) -> SessionMessage:
    """One older message as `truncate_older` answers it."""
    parts = [_truncate_part(p, max_tool_output_chars, max_text_chars) for p in message.parts]
    return message.model_copy(update={"parts": parts})
