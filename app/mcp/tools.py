"""The MCP tools, one method each on `McpTools` (remember, recall, ingest, the memories' list, get and
delete, the summary, the sessions' search and history), their argument types, and `run`, the unit of
work every call is: authenticate, resolve namespace and profile, call the service, commit."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import FastAPI
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.auth import authenticate
from app.core.errors import AppError, ValidationFailed
from app.core.memory_types import MemoryType
from app.core.names import NAMESPACE_PATTERN, NAMESPACE_RULE, PROFILE_MAX_CHARS, check_profile_name
from app.core.scopes import Scope as KeyScope
from app.core.unavailable import database_unavailable
from app.ingest import service as ingest_service
from app.ingest.schemas import IngestRequest
from app.mcp.results import _invalid, _ok, _problem, parse
from app.memories import service as memories
from app.memories.schemas import RememberRequest
from app.models import Profile
from app.namespaces import service as namespaces
from app.profiles import service as profiles
from app.recall.schemas import DEFAULT_MIN_SCORE, RecallRequest
from app.recall.service import RecallApp, recall_and_answer
from app.sessions import service as sessions
from app.summary import service as summary_service
from app.summary.schemas import SummaryOut

logger = logging.getLogger("agent_memory.mcp")

NAMESPACE_HEADER = "x-agent-memory-namespace"
PROFILE_HEADER = "x-agent-memory-profile"

NamespaceArg = Annotated[
    str | None,
    Field(
        description="Namespace (tenant). Leave out when the API key is scoped to one namespace or the "
        "X-Agent-Memory-Namespace header is set."
    ),
]
ProfileArg = Annotated[
    str | None,
    Field(
        description="Profile: whose memory (a user or agent id, e.g. 'alice'). Leave out when the "
        "X-Agent-Memory-Profile header is set."
    ),
]
MemoryIdArg = Annotated[str, Field(min_length=1, description="The memory's id (a ULID).")]
OnlySessionArg = Annotated[
    str | None, Field(max_length=64, description="Only this conversation's (a session id).")
]
SessionArg = Annotated[
    str | None,
    Field(max_length=64, description="Conversation id the memory belongs to (1–64 characters)."),
]


class ToolMessage(BaseModel):
    role: Literal["system", "user", "assistant"] = Field(description="Who said it.")
    content: str = Field(min_length=1, description="What was said (up to 32 KiB).")
    name: str | None = Field(
        default=None, max_length=64, description="The speaker's name, when several people take part."
    )
    timestamp: datetime | None = Field(
        default=None, description="When it was said, RFC 3339 with offset; absent → now."
    )


def _bearer(headers: Mapping[str, str] | None) -> str | None:
    value = (headers or {}).get("authorization") or ""
    scheme, _, token = value.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


class McpTools:
    """The tools, bound to the FastAPI app whose state (sessionmaker, keys, recall's parts) they use. Each
    public coroutine is one tool: its docstring is the tool's description, its parameters its arguments
    (`build_server` registers them)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    async def run(
        self,
        ctx: Context,
        namespace: str | None,
        profile: str | None,
        action: Callable[[AsyncSession, Profile], Awaitable[BaseModel | dict[str, Any] | None]],
        *,
        write: bool = False,
        needs: KeyScope = "read",
    ) -> CallToolResult:
        """One tool call as one unit of work: the key checked (its scope against `needs`, as REST checks an
        operation's: app.core.scopes), the profile resolved (created when `write`), `action` run, commit."""
        state = self.app.state
        headers = ctx.headers or {}
        try:
            async with state.sessionmaker() as db:
                try:
                    principal = await authenticate(state, _bearer(headers), db)
                    principal.require(needs, "this tool")
                    # A tool call is a request of the namespace's key (app.core.quotas).
                    await state.quotas.count_request(state.sessionmaker, principal.namespace_id)
                    namespace = (
                        namespace
                        or await namespaces.implied_name(db, principal)
                        or headers.get(NAMESPACE_HEADER)
                    )
                    profile = profile or headers.get(PROFILE_HEADER)
                    if not namespace:
                        raise ValidationFailed("namespace: required with an admin key (or set the header)")
                    if not profile:
                        raise ValidationFailed("profile: required (or set the X-Agent-Memory-Profile header)")
                    # The rules the REST paths apply: a name past them is the caller's error (422), not
                    # a database failure (a 5,000-character profile answered "unavailable").
                    if not re.fullmatch(NAMESPACE_PATTERN, namespace):
                        raise ValidationFailed(f"namespace: {NAMESPACE_RULE}")
                    if len(profile) > PROFILE_MAX_CHARS:
                        raise ValidationFailed(f"profile: at most {PROFILE_MAX_CHARS} characters")
                    try:
                        check_profile_name(profile)
                    except ValueError as exc:
                        raise ValidationFailed(f"profile: {exc}") from None
                    if write:
                        row, _ = await profiles.for_write(db, principal, namespace, profile)
                    else:
                        row = await profiles.for_read(db, principal, namespace, profile)
                    result = await action(db, row)
                    await db.commit()
                except BaseException:
                    await db.rollback()
                    raise
        except AppError as exc:
            # A 429's Retry-After rides in the result (a tool call has no headers of its own).
            retry = (exc.headers() or {}).get("Retry-After")
            extra = {**exc.extra(), **({"retryAfter": int(retry)} if retry else {})}
            return _problem(exc.status, exc.code, exc.detail, **extra)
        except ValidationError as exc:
            return _invalid(exc)
        except Exception as exc:
            # As on the REST routes: the database away (or a statement past its bound) is a 503.
            if not database_unavailable(exc) and not isinstance(exc, DBAPIError):
                raise
            logger.warning("database error in an MCP tool call: %s: %s", type(exc).__name__, exc)
            return _problem(503, "unavailable", "The database is unavailable; retry shortly.")
        return _ok(result)

    async def remember(
        self,
        ctx: Context,
        content: Annotated[str, Field(min_length=1, description="The statement to remember (≤ 32 KiB).")],
        session_id: SessionArg = None,
        namespace: NamespaceArg = None,
        profile: ProfileArg = None,
        restore: Annotated[
            bool,
            Field(description="True only when the user asks to keep again something they had deleted."),
        ] = False,
    ) -> CallToolResult:
        """Store one durable statement (a fact, preference, instruction or task) as a memory, at once.
        Write it as a short, self-contained sentence, e.g. 'Prefers answers in French.' Storing the same
        statement again returns the existing memory (created=false). A statement the user had deleted is
        not stored again (the error memory_forgotten) unless restore is true."""
        body = parse(RememberRequest, {"content": content, "sessionId": session_id, "restore": restore})
        if isinstance(body, CallToolResult):
            return body

        async def act(db: AsyncSession, row: Profile) -> dict[str, Any]:
            memory, created = await memories.remember_in_profile(
                db, row, body.content, body.session_id, restore=body.restore
            )
            return {**memory.model_dump(mode="json", by_alias=True), "created": created}

        return await self.run(ctx, namespace, profile, act, write=True, needs="write")

    async def recall(
        self,
        ctx: Context,
        query: Annotated[str, Field(min_length=1, description="The question (≤ 1 KiB).")],
        thinking_level: Annotated[
            Literal["low", "medium", "high"],
            Field(description="How widely to search: low (fast, default), medium, high."),
        ] = "low",
        response_length: Annotated[
            Literal["short", "medium", "long"], Field(description="Answer size (default medium).")
        ] = "medium",
        reference_date: Annotated[
            str | None,
            Field(description="'Today' for relative dates in the question (YYYY-MM-DD or RFC 3339)."),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="Candidates to return (1–100).")] = 10,
        min_score: Annotated[
            float,
            Field(
                ge=0,
                le=1,
                description="Leave out candidates whose score (absolute relevance, 0–1) is below this "
                f"(default {DEFAULT_MIN_SCORE}; 0 returns all).",
            ),
        ] = DEFAULT_MIN_SCORE,
        trace: Annotated[
            bool, Field(description="Also return `trace`: why each candidate ranked where it did.")
        ] = False,
        namespace: NamespaceArg = None,
        profile: ProfileArg = None,
    ) -> CallToolResult:
        """Answer a question from memory: ranks the stored memories for the question and returns an
        `answer` plus the `candidates` it drew on (id, type, summary, score). Ask in plain words, e.g.
        'Where does the user live?'. Each candidate's score is the chance (0–1) that it answers the
        question; an empty answer with no candidates means nothing relevant is stored."""
        body = parse(
            RecallRequest,
            {
                "query": query,
                "thinkingLevel": thinking_level,
                "responseLength": response_length,
                "referenceDate": reference_date,
                "limit": limit,
                "minScore": min_score,
                "trace": trace,
            },
        )
        if isinstance(body, CallToolResult):
            return body
        recall_app = RecallApp.of(self.app.state)

        async def act(db: AsyncSession, row: Profile) -> BaseModel:
            await db.commit()  # recall reads on a connection of its own: this one goes back to the pool
            return await recall_and_answer(recall_app, row, body)

        return await self.run(ctx, namespace, profile, act)

    async def ingest(
        self,
        ctx: Context,
        messages: Annotated[
            list[ToolMessage], Field(min_length=1, max_length=500, description="The conversation, in order.")
        ],
        session_id: Annotated[
            str | None,
            Field(max_length=64, description="Conversation id; absent → derived from the first message."),
        ] = None,
        namespace: NamespaceArg = None,
        profile: ProfileArg = None,
    ) -> CallToolResult:
        """Store a conversation (1–500 messages) and extract memories from it in the background. Messages
        already stored for the session are skipped, so re-sending a conversation is safe. Returns
        sessionId, jobId (null when nothing was new), messagesReceived, messagesNew."""
        body = parse(
            IngestRequest,
            {"messages": [m.model_dump(exclude_none=True) for m in messages], "sessionId": session_id},
        )
        if isinstance(body, CallToolResult):
            return body
        return await self.run(
            ctx,
            namespace,
            profile,
            lambda db, row: ingest_service.ingest(db, row, body),
            write=True,
            needs="write",
        )

    async def list_memories(
        self,
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=500, description="Page size (1–500).")] = 20,
        cursor: Annotated[str | None, Field(description="From the previous page.")] = None,
        session_id: OnlySessionArg = None,
        type: Annotated[MemoryType | None, Field(description="Only this type.")] = None,
        namespace: NamespaceArg = None,
        profile: ProfileArg = None,
    ) -> CallToolResult:
        """List stored memories, newest first, without their full content (use get_memory). Pass the
        returned `cursor` to get the next page; no cursor means the last page."""
        memory_type = type.value if type is not None else None
        return await self.run(
            ctx,
            namespace,
            profile,
            lambda db, row: memories.list_memories(
                db, row, limit=limit, cursor=cursor, session_id=session_id, memory_type=memory_type
            ),
        )

    async def get_memory(
        self, ctx: Context, memory_id: MemoryIdArg, namespace: NamespaceArg = None, profile: ProfileArg = None
    ) -> CallToolResult:
        """One memory by id, with its full content and the conversation messages it came from."""
        return await self.run(
            ctx, namespace, profile, lambda db, row: memories.get_memory(db, row, memory_id)
        )

    async def delete_memory(
        self, ctx: Context, memory_id: MemoryIdArg, namespace: NamespaceArg = None, profile: ProfileArg = None
    ) -> CallToolResult:
        """Delete a memory that is wrong or unwanted, together with the messages it was extracted from
        that no other memory cites. It stays deleted: the same conversation or statement sent again does
        not bring it back. Returns the deleted memory; an unknown id is the error memory_not_found."""
        return await self.run(
            ctx, namespace, profile, lambda db, row: memories.delete_memory(db, row, memory_id), needs="write"
        )

    async def get_summary(
        self,
        ctx: Context,
        session_id: Annotated[
            str | None, Field(max_length=64, description="Whose 'last conversation' to show.")
        ] = None,
        namespace: NamespaceArg = None,
        profile: ProfileArg = None,
    ) -> CallToolResult:
        """A Markdown digest of everything known about the profile (key facts, recent events, open tasks,
        the last conversation, instructions), about 2,000 tokens: good context at the start of a task."""

        async def act(db: AsyncSession, row: Profile) -> BaseModel:
            return SummaryOut(summary=await summary_service.build_summary(db, row, session_id))

        return await self.run(ctx, namespace, profile, act)

    async def search_sessions(
        self,
        ctx: Context,
        query: Annotated[str, Field(min_length=1, max_length=1024, description="Words to find.")],
        session_id: OnlySessionArg = None,
        limit: Annotated[int, Field(ge=1, le=100, description="Most results (1–100).")] = 20,
        namespace: NamespaceArg = None,
        profile: ProfileArg = None,
    ) -> CallToolResult:
        """Full-text search (English stemming) over the stored conversation messages of the profile, or of
        one session; best match first."""
        return await self.run(
            ctx, namespace, profile, lambda db, row: sessions.search(db, row, session_id, query, limit)
        )

    async def get_history(
        self,
        ctx: Context,
        session_id: Annotated[str, Field(min_length=1, max_length=64, description="The session's id.")],
        leaf_id: Annotated[
            str | None, Field(max_length=128, description="End at this message (default: latest).")
        ] = None,
        raw: Annotated[bool, Field(description="Without compaction overlays.")] = False,
        namespace: NamespaceArg = None,
        profile: ProfileArg = None,
    ) -> CallToolResult:
        """A conversation's messages from the root to its latest message (or to `leaf_id`), with
        compaction summaries in place of compacted ranges unless raw=true."""
        return await self.run(
            ctx, namespace, profile, lambda db, row: sessions.history(db, row, session_id, leaf_id, raw)
        )
