"""The row bound of a stored session message, as the reference enforces it, and the text extraction reads.

A message is stored whole up to `MESSAGE_ROW_BYTES` of JSON (its parts): a 200 KB user message round-trips
intact. A message over the bound has its tool outputs, largest first, replaced by a preview and a note
recommending to run the tool again, until it fits (the reference's "row size enforcement": an assistant
message with a 19 MB tool output is stored as a preview, not refused, and not stored whole either). What
still does not fit (text, reasoning, other parts) is refused with 422: text is never cut on the way in.

Extraction and full-text search read a bounded prefix of each message's text (`indexed_text`): the
hostile-input bounds of extraction hold for every message whatever its length.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

from app.core.text import MESSAGE_CONTENT_BYTES
from app.sessions.parts import text_of
from app.sessions.tokens import is_tool_part

MIB = 1024 * 1024
# One stored message, its parts as JSON: at least the 1 MB the reference cases need, well under the request
# body's 20 MiB and an import line's 8 MiB.
MESSAGE_ROW_BYTES = 2 * MIB
# What a replaced tool output keeps of its start.
PREVIEW_CHARS = 2_000
# What extraction and search read of a message's text (text and reasoning parts): ingest's message bound.
INDEXED_TEXT_BYTES = MESSAGE_CONTENT_BYTES


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))


def truncation_note(size: int) -> str:
    return (
        f"[Tool output truncated: {size:,} bytes is over the {MESSAGE_ROW_BYTES:,}-byte limit of a stored "
        "message. Run the tool again to see its full output.]"
    )


def preview_of(output: Any, size: int) -> str:
    """The start of a tool output (as text) and the note that says what happened to the rest."""
    text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
    return f"{text[:PREVIEW_CHARS]}\n\n{truncation_note(size)}"


class RowTooLarge(ValueError):
    pass


def fit_row(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`parts` as stored: unchanged when they fit the row bound; else a copy whose largest tool outputs
    are previews. Raises `RowTooLarge` when what is left still does not fit."""
    total = _size(parts)
    if total <= MESSAGE_ROW_BYTES:
        return parts
    text = len(text_of(parts).encode("utf-8", "surrogatepass"))
    if text > MESSAGE_ROW_BYTES:
        raise RowTooLarge(
            f"the text and reasoning parts must hold at most {MESSAGE_ROW_BYTES} bytes of UTF-8 (got {text})"
        )
    fitted = copy.copy(parts)
    outputs = sorted(
        (
            (_size(part["output"]), index)
            for index, part in enumerate(parts)
            if is_tool_part(part) and "output" in part
        ),
        reverse=True,
    )
    for size, index in outputs:
        if total <= MESSAGE_ROW_BYTES:
            break
        part = dict(fitted[index])
        part["output"] = preview_of(part["output"], size)
        total += _size(part["output"]) - size
        fitted[index] = part
    if total > MESSAGE_ROW_BYTES:
        raise RowTooLarge(
            f"the message is {total} bytes of JSON with its tool outputs cut to previews, over the "
            f"{MESSAGE_ROW_BYTES}-byte limit of a stored message"
        )
    return fitted


def indexed_text(parts: Sequence[dict[str, Any]]) -> str:
    """The message's text as extraction and search read it: its first `INDEXED_TEXT_BYTES` bytes of UTF-8
    (a character cut in half is left out)."""
    text = text_of(parts)
    encoded = text.encode("utf-8", "surrogatepass")
    if len(encoded) <= INDEXED_TEXT_BYTES:
        return text
    return encoded[:INDEXED_TEXT_BYTES].decode("utf-8", "ignore")
