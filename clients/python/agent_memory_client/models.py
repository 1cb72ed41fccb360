"""Typed models of the Agent Memory API, one class per schema of `openapi/openapi.json` with the same name
and the same fields (snake_case here, camelCase on the wire). tests/clients/test_client_models.py fails when
the document and these classes disagree, in either direction.

Answers (`ResponseModel`) keep fields a newer server adds (`extra="allow"`) and read enumerations as plain
strings, so an older client still reads a newer server. Bodies (`RequestModel`) refuse unknown fields, so a
typo fails here rather than as a 422. Neither checks lengths or ranges: the server holds those rules.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Tag
from pydantic.alias_generators import to_camel


class ResponseModel(BaseModel):
    """An answer of the API: unknown fields are kept (a newer server), enumerations are plain strings."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow")


class RequestModel(BaseModel):
    """A request body: only the schema's fields (the server refuses others with 422)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


class PartModel(BaseModel):
    """One part of a session message (the AI SDK's `UIMessage` parts): extra keys belong to the part, kept."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow")

    def model_post_init(self, context: Any, /) -> None:
        # `type` counts as given even when it came from the default (`TextPart(text="hi")`): request bodies
        # are sent with only the fields set, and a part without its type is no part.
        self.model_fields_set.add("type")


# The API's enumerations: what a request may send. Answers read them as `str` (see ResponseModel).
BlockDefineScope = Literal["session", "profile"]
BlockKind = Literal["readonly", "writable", "skill", "search", "history", "summary"]
BlockOutScope = Literal["session", "profile"]
EventType = Literal[
    "memory.created",
    "memory.updated",
    "memory.superseded",
    "memory.deleted",
    "session.deleted",
    "profile.deleted",
    "ingest.completed",
]
JobStatus = Literal["queued", "running", "done", "failed"]
MemoryType = Literal["fact", "event", "instruction", "task"]
MemoryVersionChange = Literal["created", "edited", "restored", "superseded", "deleted"]
MessageRole = Literal["system", "user", "assistant"]
QuotaSource = Literal["namespace", "server"]
ResponseLength = Literal["short", "medium", "long"]
StreamState = Literal["streaming", "done"]
ThinkingLevel = Literal["low", "medium", "high"]
KeyScope = Literal["read", "write", "admin"]
ToolState = Literal[
    "input-streaming",
    "input-available",
    "approval-requested",
    "approval-responded",
    "output-available",
    "output-error",
    "output-denied",
]
WriteAction = Literal["replace", "append"]
DeliveryOutStatus = Literal["pending", "delivered", "failed"]
WebhookCreateTypes = Literal[
    "memory.created",
    "memory.updated",
    "memory.superseded",
    "memory.deleted",
    "session.deleted",
    "profile.deleted",
    "ingest.completed",
]
WebhookUpdateTypes = Literal[
    "memory.created",
    "memory.updated",
    "memory.superseded",
    "memory.deleted",
    "session.deleted",
    "profile.deleted",
    "ingest.completed",
]


class AppendMessage(RequestModel):
    message: MessageIn
    parent_id: str | None = None


class AppendMessages(RequestModel):
    messages: list[MessageIn]
    parent_id: str | None = None


class AppliedFactor(ResponseModel):
    name: str
    weight: float


class BlockDefine(RequestModel):
    content: str | None = None
    description: str | None = None
    kind: BlockKind
    max_tokens: int | None = None
    scope: BlockDefineScope | None = None


class BlockList(ResponseModel):
    blocks: list[BlockOut]


class BlockOut(ResponseModel):
    content: str
    description: str | None
    kind: str
    label: str
    max_tokens: int | None
    scope: BlockOutScope
    tokens: int


class ChannelContribution(ResponseModel):
    channel: str
    contribution: float
    rank: int
    weight: float


class CompactRequest(RequestModel):
    leaf_id: str | None = None
    min_tail_messages: int | None = None
    protect_head: int | None = None
    tail_token_budget: int | None = None


class CompactionIn(RequestModel):
    from_message_id: str
    summary: str
    to_message_id: str


class CompactionList(ResponseModel):
    compactions: list[CompactionOut]


class CompactionOut(ResponseModel):
    created_at: datetime
    from_message_id: str
    id: str
    summary: str
    to_message_id: str


class ContentWrite(RequestModel):
    action: WriteAction | None = None
    content: str


class CurrentKey(ResponseModel):
    """What the request's key may reach: everything (admin) or one namespace."""

    admin: bool
    key_id: str | None
    namespace: str | None
    scope: KeyScope


class DataPart(PartModel):
    """Application data (type `data-<name>`)."""

    data: Any
    id: str | None = None
    type: str


class DeleteMessages(RequestModel):
    ids: list[str]


class DeletedMessages(ResponseModel):
    deleted: list[str]


class DeliveryList(ResponseModel):
    cursor: str | None = None
    deliveries: list[DeliveryOut]


class DeliveryOut(ResponseModel):
    attempts: int
    created_at: datetime
    event_id: int | None
    event_type: str
    finished_at: datetime | None
    id: str
    last_error: str | None
    message_id: str
    next_attempt_at: datetime | None
    ordered: bool
    response_ms: int | None
    response_status: int | None
    status: str


class DynamicToolPart(PartModel):
    """A call of a tool not known in advance (MCP tools, user-defined tools)."""

    error_text: str | None = None
    input: Any = None
    output: Any = None
    state: str
    tool_call_id: str
    tool_name: str
    type: Literal["dynamic-tool"] = "dynamic-tool"


class EditRequest(RequestModel):
    """A correction: what is given replaces the current value; a new `content` without `summary` /
    `type` is summarised and typed again."""

    content: str | None = None
    metadata: dict[str, Any] | None = None
    summary: str | None = None
    type: MemoryType | None = None


class EntryList(ResponseModel):
    entries: list[EntryOut]


class EntryOut(ResponseModel):
    content: str
    created_at: datetime
    description: str | None
    key: str
    updated_at: datetime


class EntryWrite(RequestModel):
    content: str
    description: str | None = None


class EventOut(ResponseModel):
    data: dict[str, Any]
    id: int
    memory_id: str | None = None
    namespace: str
    profile: str | None
    session_id: str | None = None
    timestamp: datetime
    type: str


class EventPage(ResponseModel):
    cursor: int
    events: list[EventOut]
    has_more: bool


class FeatureContribution(ResponseModel):
    contribution: float
    name: str
    value: float
    weight: float


class FilePart(PartModel):
    filename: str | None = None
    media_type: str
    provider_metadata: dict[str, Any] | None = None
    type: Literal["file"] = "file"
    url: str


class ForgottenProblem(ResponseModel):
    """409 `memory_forgotten`: the content was deleted from the profile and its tombstone stands."""

    code: str
    detail: str
    status: int
    title: str
    tombstone_id: str
    type: str


class ForkRequest(RequestModel):
    at_message_id: str
    name: str | None = None


class Health(ResponseModel):
    status: str


class History(ResponseModel):
    messages: list[SessionMessage]
    path_length: int
    token_estimate: int


class ImportResult(ResponseModel):
    forgotten: dict[str, int] | None = None
    inserted: dict[str, int]
    records: int
    skipped: dict[str, int]


class IngestMessage(RequestModel):
    content: str
    metadata: dict[str, Any] | None = None
    name: str | None = None
    role: MessageRole
    timestamp: datetime | None = None


class IngestRequest(RequestModel):
    messages: list[IngestMessage]
    session_id: str | None = None


class IngestResult(ResponseModel):
    job_id: str | None
    messages_new: int
    messages_received: int
    session_id: str


class JobList(ResponseModel):
    cursor: str | None = None
    jobs: list[JobOut]


class JobOut(ResponseModel):
    attempts: int
    created_at: datetime
    error: str | None = None
    finished_at: datetime | None = None
    id: str
    kind: str
    memories_created: int
    memories_over_bound: int = 0
    memories_over_quota: int = 0
    status: str


class KeyCreate(RequestModel):
    name: str
    scope: KeyScope | None = None


class KeyCreated(ResponseModel):
    created_at: datetime
    id: str
    key: str
    name: str
    namespace: str | None
    revoked_at: datetime | None = None
    scope: KeyScope


class KeyList(ResponseModel):
    keys: list[KeyOut]


class KeyOut(ResponseModel):
    created_at: datetime
    id: str
    name: str
    namespace: str | None
    revoked_at: datetime | None = None
    scope: KeyScope


class MemoryCounts(ResponseModel):
    event: int = 0
    fact: int = 0
    instruction: int = 0
    task: int = 0


class MemoryDetail(ResponseModel):
    content: str
    created_at: datetime
    event_time: datetime | None = None
    id: str
    metadata: dict[str, Any] | None = None
    session_id: str | None
    speaker: str | None = None
    speaker_role: str | None = None
    sources: list[MemorySource]
    summary: str
    superseded_by: str | None = None
    type: str
    updated_at: datetime
    version: int = 1


class MemoryHistory(ResponseModel):
    memory_id: str
    versions: list[MemoryVersion]


class MemoryList(ResponseModel):
    cursor: str | None = None
    memories: list[MemorySummary]


class MemoryOut(ResponseModel):
    content: str
    created_at: datetime
    event_time: datetime | None = None
    id: str
    metadata: dict[str, Any] | None = None
    session_id: str | None
    speaker: str | None = None
    speaker_role: str | None = None
    summary: str
    superseded_by: str | None = None
    type: str
    updated_at: datetime
    version: int = 1


class MemorySource(ResponseModel):
    content: str
    message_id: str
    role: str
    timestamp: datetime


class MemorySummary(ResponseModel):
    """A memory as listed: everything but `content`."""

    created_at: datetime
    event_time: datetime | None = None
    id: str
    metadata: dict[str, Any] | None = None
    session_id: str | None
    speaker: str | None = None
    speaker_role: str | None = None
    summary: str
    superseded_by: str | None = None
    type: str
    updated_at: datetime
    version: int = 1


class MemoryVersion(ResponseModel):
    """One step of a memory's version chain."""

    at: datetime
    change: str
    content: str
    kept_message_ids: list[str] | None = None
    metadata: dict[str, Any]
    summary: str
    superseded_by: str | None = None
    type: str
    version: int


class MessageIn(RequestModel):
    created_at: datetime | None = None
    id: str
    metadata: Any = None
    name: str | None = None
    parts: list[Part]
    role: MessageRole


class MessageList(ResponseModel):
    messages: list[SessionMessage]


class NamespaceCreate(RequestModel):
    name: str


class NamespaceList(ResponseModel):
    cursor: str | None = None
    namespaces: list[NamespaceOut]


class NamespaceOut(ResponseModel):
    created_at: datetime
    name: str


class NamespaceQuotas(ResponseModel):
    bytes: Quota
    memories: Quota
    messages: Quota
    namespace: str
    requests_per_minute: Quota


class Problem(ResponseModel):
    """RFC 9457 problem details, as every error response carries them."""

    code: str
    detail: str
    status: int
    title: str
    type: str


class ProfileCounts(ResponseModel):
    memories: MemoryCounts
    messages: int
    pending_jobs: int
    sessions: int


class ProfileDetail(ResponseModel):
    counts: ProfileCounts
    created_at: datetime
    name: str
    namespace: str


class ProfileList(ResponseModel):
    cursor: str | None = None
    profiles: list[ProfileOut]


class ProfileOut(ResponseModel):
    created_at: datetime
    name: str
    namespace: str


class Readiness(ResponseModel):
    database: str
    embedding_model: str | None = None
    embeddings: str
    schema_revision: str | None
    status: str
    vector_store: str | None = None


class ReasoningPart(PartModel):
    """The model's reasoning, when the provider exposes it."""

    provider_metadata: dict[str, Any] | None = None
    state: str | None = None
    text: str
    type: Literal["reasoning"] = "reasoning"


class Quota(ResponseModel):
    limit: int | None
    source: QuotaSource
    usage: int


NamespaceQuotas.model_rebuild()  # it names Quota, defined after it


class QuotaProblem(ResponseModel):
    """A 429: `rate_limited` (requests per minute, or failed authentications) or `quota_exceeded` (a storage
    quota); `Retry-After` says when to come back."""

    code: str
    detail: str
    limit: int | None = None
    quota: str | None = None
    status: int
    title: str
    type: str
    usage: int | None = None


class QuotaSettings(RequestModel):
    """A namespace's own limits, all four replaced at once (a field left out is null: the server's default;
    0 is no limit)."""

    bytes: int | None = None
    memories: int | None = None
    messages: int | None = None
    requests_per_minute: int | None = None


class RecallCandidate(ResponseModel):
    event_time: datetime | None = None
    id: str
    score: float
    session_id: str | None
    speaker: str | None = None
    summary: str
    type: str


class RecallRequest(RequestModel):
    as_of: datetime | None = None
    limit: int | None = None
    metadata: dict[str, Any] | None = None
    min_score: float | None = None
    query: str
    reference_date: date | datetime | None = None
    response_length: ResponseLength | None = None
    thinking_level: ThinkingLevel | None = None
    trace: bool | None = None


class RecallResult(ResponseModel):
    answer: str
    candidates: list[RecallCandidate]
    count: int
    trace: RecallTrace | None = None


class RecallTrace(ResponseModel):
    analysis: TraceAnalysis
    candidates: list[TraceCandidate]
    timings: TraceTimings


class RememberRequest(RequestModel):
    content: str
    metadata: dict[str, Any] | None = None
    restore: bool | None = None
    session_id: str | None = None


class SearchHit(ResponseModel):
    content: str
    created_at: datetime
    id: str
    role: str
    score: float
    session_id: str


class SearchResults(ResponseModel):
    results: list[SearchHit]


class SecretRotated(ResponseModel):
    previous_secret_until: datetime | None
    secret: str


class SecretRotation(RequestModel):
    grace_seconds: float | None = None


class SessionCreate(RequestModel):
    compact_after: int | None = None
    extract_memories: bool | None = None
    id: str | None = None
    metadata: dict[str, Any] | None = None
    model: str | None = None
    name: str | None = None
    parent_session_id: str | None = None
    source: str | None = None


class SessionInfo(ResponseModel):
    compact_after: int | None
    created_at: datetime
    end_reason: str | None
    estimated_cost: float
    extract_memories: bool
    id: str
    input_tokens: int
    metadata: dict[str, Any] | None = None
    model: str | None
    name: str
    output_tokens: int
    parent_session_id: str | None
    source: str | None
    updated_at: datetime


class SessionList(ResponseModel):
    cursor: str | None = None
    sessions: list[SessionInfo]


class SessionMessage(ResponseModel):
    """An AI SDK `UIMessage`: parts are kept exactly as sent, unknown part types included."""

    created_at: datetime | None = None
    id: str
    name: str | None = None
    parts: list[Part]
    role: str


class SessionUpdate(RequestModel):
    compact_after: int | None = None
    extract_memories: bool | None = None
    metadata: dict[str, Any] | None = None
    name: str | None = None


class SourceDocumentPart(PartModel):
    filename: str | None = None
    media_type: str
    provider_metadata: dict[str, Any] | None = None
    source_id: str
    title: str
    type: Literal["source-document"] = "source-document"


class SourceUrlPart(PartModel):
    provider_metadata: dict[str, Any] | None = None
    source_id: str
    title: str | None = None
    type: Literal["source-url"] = "source-url"
    url: str


class SplitRequest(RequestModel):
    name: str | None = None
    summary: str


class StepStartPart(PartModel):
    """Marks the start of a step in a multi-step (tool-using) answer."""

    type: Literal["step-start"] = "step-start"


class SummaryOut(ResponseModel):
    summary: str


class SummaryRequest(RequestModel):
    response_length: ResponseLength | None = None
    session_id: str | None = None


class SystemPrompt(ResponseModel):
    system_prompt: str


class TextPart(PartModel):
    """Text the user typed or the model wrote."""

    provider_metadata: dict[str, Any] | None = None
    state: str | None = None
    text: str
    type: Literal["text"] = "text"


class TimeWindow(ResponseModel):
    end: datetime
    start: datetime


class Tombstone(ResponseModel):
    """What a deleted memory left: fingerprints, no text. While it stands, re-ingesting the messages,
    remembering the content or importing it does not bring the memory back."""

    content_hash: str
    created_at: datetime
    id: str
    kept_message_ids: list[str]
    message_ids: list[str]
    session_id: str | None
    type: str


class TombstoneList(ResponseModel):
    cursor: str | None = None
    tombstones: list[Tombstone]


class ToolCall(RequestModel):
    arguments: dict[str, Any] | str | None = None


class ToolDefinition(ResponseModel):
    function: ToolFunction
    type: Literal["function"] = "function"


class ToolFunction(ResponseModel):
    description: str
    name: str
    parameters: dict[str, Any]


class ToolList(ResponseModel):
    tools: list[ToolDefinition]


class ToolPart(PartModel):
    """A call of the tool `<name>` (type `tool-<name>`): its input, then its output or error."""

    error_text: str | None = None
    input: Any = None
    output: Any = None
    provider_executed: bool | None = None
    state: str
    tool_call_id: str
    type: str


class ToolResult(ResponseModel):
    result: str
    trace: RecallTrace | None = None


class TraceAnalysis(ResponseModel):
    """What the question became."""

    answerability: float = 0.0
    answerability_features: list[FeatureContribution] | None = None
    answerability_intercept: float = 0.0
    language: str
    level: str
    names: list[str]
    nearest_words: list[str]
    phrases: list[str]
    relations: list[str]
    terms: list[str]
    time_window: TimeWindow | None


class TraceCandidate(ResponseModel):
    asked_for: bool = False
    channels: list[ChannelContribution]
    factors: list[AppliedFactor]
    features: list[FeatureContribution]
    fusion_score: float
    id: str
    rank_score: float
    relevance: list[FeatureContribution]
    relevance_intercept: float
    scale: float
    score: float


class TraceTimings(ResponseModel):
    """Milliseconds spent in each stage; `total` from the question received to the answer written."""

    analysis: float
    answer: float
    channels: float
    embedding: float
    fusion: float
    rerank: float
    total: float


class UnknownPart(PartModel):
    """Any other part: stored and returned as it came."""

    type: str


class UsageIn(RequestModel):
    cost: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None


class ValidationErrorItem(ResponseModel):
    loc: list[str | int]
    msg: str


class ValidationProblem(ResponseModel):
    code: str
    detail: str
    errors: list[ValidationErrorItem]
    status: int
    title: str
    type: str


class WebhookCreate(RequestModel):
    profile: str | None = None
    types: list[WebhookCreateTypes] | None = None
    url: str


class WebhookCreated(ResponseModel):
    created_at: datetime
    cursor: int
    disabled_reason: str | None
    enabled: bool
    failing_since: datetime | None
    id: str
    previous_secret_until: datetime | None
    profile: str | None
    secret: str
    types: list[str] | None
    updated_at: datetime
    url: str


class WebhookList(ResponseModel):
    webhooks: list[WebhookOut]


class WebhookOut(ResponseModel):
    created_at: datetime
    cursor: int
    disabled_reason: str | None
    enabled: bool
    failing_since: datetime | None
    id: str
    previous_secret_until: datetime | None
    profile: str | None
    types: list[str] | None
    updated_at: datetime
    url: str


class WebhookUpdate(RequestModel):
    enabled: bool | None = None
    profile: str | None = None
    types: list[WebhookUpdateTypes] | None = None


def _part_tag(value: Any) -> str:
    """Which part class reads a part: by its `type`, as the AI SDK names them (`tool-<name>`, `data-<name>`);
    any other type is an `UnknownPart`, kept as sent."""
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    if not isinstance(kind, str):
        return "unknown"
    if kind.startswith("tool-"):
        return "tool"
    if kind.startswith("data-"):
        return "data"
    return kind if kind in _PART_TYPES else "unknown"


_PART_TYPES = {"text", "reasoning", "dynamic-tool", "source-url", "source-document", "file", "step-start"}

Part = Annotated[
    Annotated[TextPart, Tag("text")]
    | Annotated[ReasoningPart, Tag("reasoning")]
    | Annotated[DynamicToolPart, Tag("dynamic-tool")]
    | Annotated[ToolPart, Tag("tool")]
    | Annotated[SourceUrlPart, Tag("source-url")]
    | Annotated[SourceDocumentPart, Tag("source-document")]
    | Annotated[FilePart, Tag("file")]
    | Annotated[StepStartPart, Tag("step-start")]
    | Annotated[DataPart, Tag("data")]
    | Annotated[UnknownPart, Tag("unknown")],
    Discriminator(_part_tag),
]
"""A message part: the class its `type` names, `UnknownPart` for any other type."""
