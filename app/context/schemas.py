"""Request and response bodies of context blocks, entries, the system prompt and tool calls."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import Field, StringConstraints
from pydantic.json_schema import SkipJsonSchema

from app.core import names
from app.core.schemas import ApiModel, RequestModel
from app.recall.schemas import RecallTrace

LABEL_PATTERN = r"^[A-Za-z0-9_-]+$"
LabelPath = Annotated[
    str,
    Path(
        min_length=1,
        max_length=64,
        pattern=LABEL_PATTERN,
        description="Block label: 1–64 of A-Z a-z 0-9 _ -.",
    ),
]
KeyPath = names.KeyPath
BlockKind = Literal["readonly", "writable", "skill", "search", "history", "summary"]
BlockScope = Literal["session", "profile"]
Description = Annotated[str, StringConstraints(max_length=2_000)]


class BlockDefine(RequestModel):
    kind: BlockKind = Field(
        description="readonly: API writes only; writable: also set_context; skill: loadable keyed entries; "
        "search: searchable keyed entries; history: the profile's conversations, searchable (brings "
        "session_search); summary: the profile's memory summary, rendered live."
    )
    scope: BlockScope = Field(
        default="session",
        description="session: each session keeps its own content and entries, starting from this definition's "
        "(read and written at …/sessions/{sid}/context/{label}); profile: one content shared by every session.",
    )
    description: Description | None = None
    max_tokens: int | None = Field(default=None, ge=1, le=10_000_000)
    content: str | None = Field(default=None, description="Initial content of a readonly or writable block.")


class BlockOut(ApiModel):
    label: str
    kind: BlockKind
    scope: BlockScope
    description: str | None
    content: str = Field(
        description="What the block renders: its text, a skill listing, an entry count, a summary."
    )
    tokens: int
    max_tokens: int | None


class BlockList(ApiModel):
    blocks: list[BlockOut]


class ContentWrite(RequestModel):
    content: str
    action: Literal["replace", "append"] = "replace"


class EntryWrite(RequestModel):
    content: str
    description: Description | None = None


class EntryOut(ApiModel):
    key: str
    content: str
    description: str | None
    created_at: datetime
    updated_at: datetime


class EntryList(ApiModel):
    entries: list[EntryOut]


class SystemPrompt(ApiModel):
    system_prompt: str


class ToolFunction(ApiModel):
    name: str
    description: str
    parameters: dict[str, Any] = Field(description="JSON Schema of the arguments.")


class ToolDefinition(ApiModel):
    type: Literal["function"] = "function"
    function: ToolFunction


class ToolList(ApiModel):
    tools: list[ToolDefinition]


class ToolCall(RequestModel):
    arguments: dict[str, Any] | str = Field(
        default_factory=dict,
        description="The call's arguments, as an object or as the JSON string an LLM emits.",
    )


class ToolResult(ApiModel):
    result: str
    # recall_memory called with `trace: true` (absent otherwise): why it answered so.
    trace: RecallTrace | SkipJsonSchema[None] = Field(default=None, exclude_if=lambda trace: trace is None)
