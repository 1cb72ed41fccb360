"""The AI SDK `UIMessage` part types, for the OpenAPI document only: a message's `parts` are described as a
union of these (so generated clients get typed parts), while the API keeps accepting and storing every
part exactly as sent, unknown types included (`UnknownPart`). See `TypedPart`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, GetJsonSchemaHandler, TypeAdapter
from pydantic.alias_generators import to_camel
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

ToolState = Literal[
    "input-streaming",
    "input-available",
    "approval-requested",
    "approval-responded",
    "output-available",
    "output-error",
    "output-denied",
]
StreamState = Literal["streaming", "done"]


class _Part(BaseModel):
    # Extra keys are part of a part (providers add their own): allowed, kept.
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow")


class TextPart(_Part):
    """Text the user typed or the model wrote."""

    type: Literal["text"]
    text: str
    state: StreamState | None = None
    provider_metadata: dict[str, Any] | None = None


class ReasoningPart(_Part):
    """The model's reasoning, when the provider exposes it."""

    type: Literal["reasoning"]
    text: str
    state: StreamState | None = None
    provider_metadata: dict[str, Any] | None = None


class DynamicToolPart(_Part):
    """A call of a tool not known in advance (MCP tools, user-defined tools)."""

    type: Literal["dynamic-tool"]
    tool_name: str
    tool_call_id: str
    state: ToolState
    input: Any = None
    output: Any = None
    error_text: str | None = None


class ToolPart(_Part):
    """A call of the tool `<name>` (type `tool-<name>`): its input, then its output or error."""

    type: str = Field(pattern=r"^tool-.+", description="`tool-` followed by the tool's name.")
    tool_call_id: str
    state: ToolState
    input: Any = None
    output: Any = None
    error_text: str | None = None
    provider_executed: bool | None = None


class SourceUrlPart(_Part):
    type: Literal["source-url"]
    source_id: str
    url: str
    title: str | None = None
    provider_metadata: dict[str, Any] | None = None


class SourceDocumentPart(_Part):
    type: Literal["source-document"]
    source_id: str
    media_type: str
    title: str
    filename: str | None = None
    provider_metadata: dict[str, Any] | None = None


class FilePart(_Part):
    type: Literal["file"]
    media_type: str
    url: str
    filename: str | None = None
    provider_metadata: dict[str, Any] | None = None


class StepStartPart(_Part):
    """Marks the start of a step in a multi-step (tool-using) answer."""

    type: Literal["step-start"]


class DataPart(_Part):
    """Application data (type `data-<name>`)."""

    type: str = Field(pattern=r"^data-.+", description="`data-` followed by the data's name.")
    id: str | None = None
    data: Any


class UnknownPart(_Part):
    """Any other part: stored and returned as it came."""

    type: str = Field(min_length=1)


# Most specific first: a generated client tries them in this order.
MessagePart = (
    TextPart
    | ReasoningPart
    | DynamicToolPart
    | ToolPart
    | SourceUrlPart
    | SourceDocumentPart
    | FilePart
    | StepStartPart
    | DataPart
    | UnknownPart
)
_PART_SCHEMA = TypeAdapter(MessagePart).core_schema


class TypedPart:
    """Annotation for a part held as a plain dict (kept exactly as sent) but documented as `MessagePart`:
    `Annotated[dict[str, Any], TypedPart()]`."""

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return handler(_PART_SCHEMA)


def text_of(parts: Sequence[dict[str, Any]]) -> str:
    """The searchable text of a message: its text and reasoning parts."""
    texts: list[str] = []
    for part in parts:
        if part.get("type") in ("text", "reasoning"):
            value = part.get("text")
            if value is None:
                value = part.get("reasoning")
            if isinstance(value, str) and value:
                texts.append(value)
    return "\n".join(texts)
