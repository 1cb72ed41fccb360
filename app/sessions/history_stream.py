"""getHistory over HTTP as a streamed response: the same JSON document as `service.history`, never whole in
memory.

A session's path can hold thousands of messages of up to 2 MiB each; built whole, one history read of a few
large tool outputs took a hundred megabytes. So the route first plans the answer on the request's session
(the session and leaf exist, else 404 before anything is sent; the path's ids, the overlays, the system
prompt's tokens), then streams it on a connection of its own: the messages read in batches bounded in bytes
(app.core.batches), each truncated and counted as `service.history` does, written one after the other, and
`tokenEstimate` last, once everything answered is counted. The keys keep their order
(`messages`, `pathLength`, `tokenEstimate`): a client cannot tell the stream from the document.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.models import Profile
from app.sessions import repository, service, system_prompt
from app.sessions.schemas import SessionMessage, Truncation
from app.sessions.tokens import estimate_parts_tokens, estimate_string_tokens
from app.sessions.truncation import truncate_message

# What the stream writes at once: many small messages are sent together, a large one alone.
CHUNK_BYTES = 64 * 1024


@dataclass(frozen=True)
class HistoryPlan:
    """What a history answer holds, before its messages are read."""

    profile_id: int
    session_id: str
    # Root → leaf: a stored message's id, or the synthetic message of a compaction overlay.
    items: list[str | SessionMessage]
    path_length: int
    system_tokens: int
    truncation: Truncation | None


async def plan(
    db: AsyncSession,
    profile: Profile,
    session_id: str,
    leaf_id: str | None,
    raw: bool,
    truncation: Truncation | None,
) -> HistoryPlan:
    """The answer's plan; 404 when the session (or the given leaf) does not exist."""
    session = await service.require_session(db, profile, session_id)
    if leaf_id is None:
        leaf_id = await repository.latest_leaf_id(db, profile.id, session_id)
    else:
        await service.require_message(db, profile, session_id, leaf_id)
    ids = await repository.path_ids(db, profile.id, session_id, leaf_id) if leaf_id is not None else []
    items: list[str | SessionMessage] = list(ids)
    if not raw:
        items = service.overlay_plan(ids, await repository.list_compactions(db, profile.id, session_id))
    system = await system_prompt.for_estimate(db, profile, session)
    return HistoryPlan(profile.id, session_id, items, len(ids), estimate_string_tokens(system), truncation)


async def _messages(engine: AsyncEngine, plan: HistoryPlan) -> AsyncIterator[SessionMessage]:
    """The planned messages in order, stored ones read batch by batch (one deleted meanwhile is left out)."""
    async with engine.connect() as conn:
        conn = await conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        async with conn.begin():
            run: list[str] = []
            for item in [*plan.items, None]:
                if isinstance(item, str):
                    run.append(item)
                    continue
                if run:
                    async for rows in repository.messages_in_order(
                        conn, plan.profile_id, plan.session_id, run
                    ):
                        for row in rows:
                            yield SessionMessage(
                                id=row.id,
                                role=row.role,
                                name=row.name,
                                parts=json.loads(row.parts),
                                created_at=row.created_at,
                            )
                    run = []
                if item is not None:
                    yield item


async def stream(engine: AsyncEngine, plan: HistoryPlan) -> AsyncIterator[bytes]:
    """The History document as `service.history` answers it, chunk by chunk."""
    truncation = plan.truncation
    cutoff = len(plan.items) - truncation.keep_recent if truncation is not None else 0
    tokens = plan.system_tokens
    buffer = bytearray(b'{"messages":[')
    index = 0
    async for message in _messages(engine, plan):
        if truncation is not None and index < cutoff:
            message = truncate_message(message, truncation.max_tool_output_chars, truncation.max_text_chars)
        tokens += estimate_parts_tokens(message.parts)
        if index:
            buffer += b","
        buffer += message.model_dump_json(by_alias=True).encode()
        index += 1
        if len(buffer) >= CHUNK_BYTES:
            yield bytes(buffer)
            buffer.clear()
    buffer += f'],"pathLength":{plan.path_length},"tokenEstimate":{tokens}}}'.encode()
    yield bytes(buffer)
