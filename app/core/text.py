"""Text limits shared by request schemas: a UTF-8 byte cap with a message that states it, and what text
PostgreSQL can store at all."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

KIB = 1024
MESSAGE_CONTENT_BYTES = 32 * KIB
REMEMBER_CONTENT_BYTES = 32 * KIB
RECALL_QUERY_BYTES = 1 * KIB


def max_utf8_bytes(limit: int) -> AfterValidator:
    def check(value: str) -> str:
        size = len(value.encode("utf-8"))
        if size > limit:
            raise ValueError(f"must be at most {limit} bytes of UTF-8 (got {size})")
        return value

    return AfterValidator(check)


MessageContent = Annotated[
    str,
    Field(min_length=1, description=f"Message text, at most {MESSAGE_CONTENT_BYTES} bytes of UTF-8."),
    max_utf8_bytes(MESSAGE_CONTENT_BYTES),
]
RememberContent = Annotated[
    str,
    Field(
        min_length=1,
        description=f"The statement to remember, at most {REMEMBER_CONTENT_BYTES} bytes of UTF-8.",
    ),
    max_utf8_bytes(REMEMBER_CONTENT_BYTES),
]
RecallQuery = Annotated[
    str,
    Field(min_length=1, description=f"The question, at most {RECALL_QUERY_BYTES} bytes of UTF-8."),
    max_utf8_bytes(RECALL_QUERY_BYTES),
]


def storable_text(value: str) -> bool:
    """Whether PostgreSQL can store the text: no NUL, and no lone surrogate (JSON's `"\\ud800"` decodes to
    one, and it has no UTF-8 form)."""
    if "\x00" in value:
        return False
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
