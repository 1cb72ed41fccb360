"""Request and response bodies of the Session API: sessions, messages (AI SDK UIMessage), history, search, compaction."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, field_validator

from app.core.metadata import Metadata
from app.core.names import MessageId, SessionId, SpeakerName
from app.core.schemas import ApiModel, PageModel, RequestModel
from app.core.timestamps import Timestamp
from app.sessions.parts import TypedPart
from app.sessions.row_bound import RowTooLarge, fit_row

SessionName = Annotated[str, StringConstraints(max_length=200)]
Role = Literal["user", "assistant", "system"]
# compactAfter is an INTEGER column.
MAX_COMPACT_AFTER = 2**31 - 1
# How deep a part's JSON may nest: far more than any UIMessage part needs, and safely below the depth at
# which a message can no longer be serialised back (pydantic stops near 255 levels).
MAX_PART_DEPTH = 64


def _storable_json_problem(value: Any) -> str | None:
    """Why PostgreSQL's jsonb cannot store the value, or None: non-finite numbers have no JSON form."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_PART_DEPTH:
            return f"nests deeper than {MAX_PART_DEPTH} levels"
        if isinstance(item, float) and not math.isfinite(item):
            return "holds a number that is not finite (NaN or Infinity)"
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return None


class SessionMessage(ApiModel):
    """An AI SDK `UIMessage`: parts are kept exactly as sent, unknown part types included."""

    id: MessageId
    role: Role
    name: SpeakerName | None = None
    parts: list[Annotated[dict[str, Any], TypedPart()]] = Field(
        description="UIMessage parts (`{type: 'text', text}`, `{type: 'tool-<name>', toolCallId, state, …}`, …); "
        "any other part type is kept as sent. A message is stored whole up to 2 MiB of JSON; past it, its "
        "largest tool outputs are stored as a preview and a note recommending to run the tool again, and a "
        "message still over it (its text alone) is refused with 422.",
        max_length=10_000,
    )
    created_at: datetime | None = None

    @field_validator("parts")
    @classmethod
    def _parts_have_a_type(cls, parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for index, part in enumerate(parts):
            if not isinstance(part.get("type"), str) or not part["type"]:
                raise ValueError(f"part {index} needs a string 'type'")
        return parts


class MessageIn(SessionMessage):
    model_config = RequestModel.model_config

    created_at: Timestamp | None = None
    metadata: Any = Field(
        default=None, description="Accepted so a UIMessage can be sent as is; not stored.", exclude=True
    )

    @field_validator("parts")
    @classmethod
    def _parts_are_storable(cls, parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # Checked on the way in only: messages already stored are returned as they are.
        for index, part in enumerate(parts):
            problem = _storable_json_problem(part)
            if problem is not None:
                raise ValueError(f"part {index} {problem}")
        # Stored whole up to the row bound; past it, tool outputs become previews (app.sessions.row_bound).
        try:
            parts = fit_row(parts)
        except RowTooLarge as exc:
            raise ValueError(str(exc)) from None
        return parts


class AppendMessage(RequestModel):
    message: MessageIn
    parent_id: MessageId | None = Field(
        default=None,
        description="Absent: the latest leaf. null: a new root. A message of another session: a new root.",
    )


class AppendMessages(RequestModel):
    messages: list[MessageIn] = Field(min_length=1, max_length=500)
    parent_id: MessageId | None = Field(
        default=None,
        description="Parent of the first message (same rules as a single append); the rest chain.",
    )


class MessageList(ApiModel):
    messages: list[SessionMessage]


class History(ApiModel):
    messages: list[SessionMessage]
    path_length: int = Field(description="Messages on the stored path root → leaf, before overlays.")
    token_estimate: int = Field(
        description="Estimated tokens of these messages plus the session's system prompt."
    )


class SessionCreate(RequestModel):
    id: SessionId | None = Field(default=None, description="Client-chosen id; generated when absent.")
    name: SessionName = ""
    parent_session_id: SessionId | None = None
    model: Annotated[str, StringConstraints(max_length=200)] | None = None
    source: Annotated[str, StringConstraints(max_length=200)] | None = None
    compact_after: int | None = Field(
        default=None,
        ge=1,
        le=MAX_COMPACT_AFTER,
        description="Compact automatically once the session's token estimate exceeds this.",
    )
    extract_memories: bool = Field(
        default=True,
        description="Queue appended messages for extraction into the profile's memories (false: never "
        "extract this session's messages, on append, compaction or split).",
    )
    metadata: Metadata | None = Field(default=None, description="Tags of the session.")


class SessionUpdate(RequestModel):
    name: SessionName | None = None
    compact_after: int | None = Field(default=None, ge=1, le=MAX_COMPACT_AFTER)
    extract_memories: bool | None = None
    metadata: Metadata | None = Field(default=None, description="Replaces the session's tags whole.")


class SessionInfo(ApiModel):
    id: str
    name: str
    parent_session_id: str | None
    model: str | None
    source: str | None
    end_reason: str | None
    input_tokens: int
    output_tokens: int
    estimated_cost: float
    compact_after: int | None
    extract_memories: bool
    created_at: datetime
    updated_at: datetime
    metadata: dict[str, Any] = Field(default_factory=dict, description="Tags.")


class SessionList(PageModel):
    sessions: list[SessionInfo]


class SearchHit(ApiModel):
    id: str
    session_id: str
    role: str
    content: str
    created_at: datetime
    score: float


class SearchResults(ApiModel):
    results: list[SearchHit]


class DeleteMessages(RequestModel):
    ids: list[MessageId] = Field(min_length=1, max_length=500)


class DeletedMessages(ApiModel):
    deleted: list[str] = Field(description="The ids that existed and were deleted; unknown ids are ignored.")


# Defaults of a compaction (POST /compact and the automatic one), as the reference has them: the first
# messages (the task's statement) are kept verbatim, and so is a recent tail of about this many tokens,
# never fewer than MIN_TAIL_MESSAGES messages, so the conversation can go on from where it is.
PROTECT_HEAD = 3
TAIL_TOKEN_BUDGET = 20_000
MIN_TAIL_MESSAGES = 2

# Defaults of a truncated history read, as the reference's truncateOlderMessages has them: the last
# KEEP_RECENT messages whole; older tool outputs and texts cut to these lengths (UTF-16 code units).
KEEP_RECENT = 4
MAX_TOOL_OUTPUT_CHARS = 500
MAX_TEXT_CHARS = 10_000


class Truncation(ApiModel):
    """How a truncated history read cuts older messages (the reference's truncateOlderMessages)."""

    keep_recent: int = KEEP_RECENT
    max_tool_output_chars: int = MAX_TOOL_OUTPUT_CHARS
    max_text_chars: int = MAX_TEXT_CHARS


class CompactionIn(RequestModel):
    summary: Annotated[str, StringConstraints(min_length=1, max_length=200_000)]
    from_message_id: MessageId
    to_message_id: MessageId


class CompactionOut(ApiModel):
    id: str
    summary: str
    from_message_id: str
    to_message_id: str
    created_at: datetime


class CompactionList(ApiModel):
    compactions: list[CompactionOut]


class CompactRequest(RequestModel):
    leaf_id: MessageId | None = Field(
        default=None, description="The branch to compact, by its leaf; default the latest leaf."
    )
    protect_head: int = Field(default=PROTECT_HEAD, ge=0, le=10_000)
    tail_token_budget: int = Field(default=TAIL_TOKEN_BUDGET, ge=0, le=10_000_000)
    min_tail_messages: int = Field(default=MIN_TAIL_MESSAGES, ge=0, le=10_000)


class ForkRequest(RequestModel):
    at_message_id: MessageId
    name: SessionName = ""


class SplitRequest(RequestModel):
    summary: Annotated[str, StringConstraints(max_length=200_000)]
    name: SessionName | None = None


class UsageIn(RequestModel):
    input_tokens: int = Field(default=0, ge=0, le=10**12)
    output_tokens: int = Field(default=0, ge=0, le=10**12)
    cost: float = Field(default=0.0, ge=0, le=1e9, allow_inf_nan=False)
