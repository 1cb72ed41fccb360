"""Compaction, following the reference algorithm: protect a head and a token-budgeted tail, keep tool calls
with their results, summarise the middle, and extend the existing overlay instead of stacking a new one.

Three steps, so no connection is held while the summary is written (the LLM may write it): `plan_compaction`
reads in one short transaction, `summarise_plan` calls with no connection, `apply` re-checks the range and
writes in a new transaction. The summary is stored as an overlay; the original messages are never deleted. Before a range is summarised,
its messages are queued for memory extraction, so nothing the conversation taught is lost to the summary.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Profile
from app.sessions import repository, service, system_prompt
from app.sessions.schemas import (
    MIN_TAIL_MESSAGES,
    PROTECT_HEAD,
    TAIL_TOKEN_BUDGET,
    CompactionOut,
    SessionMessage,
)
from app.sessions.summariser import write_summary
from app.sessions.tokens import estimate_parts_tokens, is_tool_part
from app.worker.queue import enqueue_extraction

if TYPE_CHECKING:
    from app.llm.client import LlmClient

logger = logging.getLogger("agent_memory.sessions")


def _tool_call_ids(message: SessionMessage) -> set[str]:
    return {
        str(part["toolCallId"])
        for part in message.parts
        if is_tool_part(part) and part.get("toolCallId") is not None
    }


def _has_tool_calls(message: SessionMessage) -> bool:
    return any(is_tool_part(part) for part in message.parts)


def _is_result_for(message: SessionMessage, call_ids: set[str]) -> bool:
    return any(
        is_tool_part(part) and part.get("toolCallId") is not None and str(part["toolCallId"]) in call_ids
        for part in message.parts
    )


def align_forward(messages: Sequence[SessionMessage], idx: int) -> int:
    """Move a start boundary past the results of a tool call made just before it."""
    if idx <= 0 or idx >= len(messages):
        return idx
    prev = messages[idx - 1]
    if prev.role == "assistant" and _has_tool_calls(prev):
        calls = _tool_call_ids(prev)
        while idx < len(messages) and _is_result_for(messages[idx], calls):
            idx += 1
    return idx


def align_backward(messages: Sequence[SessionMessage], idx: int) -> int:
    """Move an end boundary back so a tool result stays with the call that produced it.

    The result test comes first (the reference checks "is this a call?" first): a result stored as its own
    assistant message carries tool parts too, and must still follow its call rather than be cut from it.
    """
    if idx <= 0 or idx >= len(messages):
        return idx
    while idx > 0:
        current = messages[idx]
        prev = messages[idx - 1]
        if (
            prev.role == "assistant"
            and _has_tool_calls(prev)
            and _is_result_for(current, _tool_call_ids(prev))
        ):
            idx -= 1
            continue
        break
    return idx


def find_tail_cut(
    messages: Sequence[SessionMessage], head_end: int, tail_token_budget: int, min_tail_messages: int
) -> int:
    """Index where the protected tail starts: up to the token budget (at least one message), and at least
    `min_tail_messages`, whichever protects more, then aligned to tool groups."""
    n = len(messages)
    accumulated = 0
    token_cut = n
    for i in range(n - 1, head_end - 1, -1):
        tokens = estimate_parts_tokens(messages[i].parts)
        if accumulated + tokens > tail_token_budget and token_cut < n:
            break
        accumulated += tokens
        token_cut = i
    min_cut = n - min_tail_messages
    cut = min(token_cut, min_cut) if min_cut >= head_end else token_cut
    return align_backward(messages, cut)


def plan(
    history: Sequence[SessionMessage], protect_head: int, tail_token_budget: int, min_tail_messages: int
) -> list[SessionMessage] | None:
    """The messages to summarise (overlay messages excluded), or None when there is nothing to compact."""
    if len(history) <= protect_head + min_tail_messages:
        return None
    start = align_forward(history, protect_head)
    end = find_tail_cut(history, start, tail_token_budget, min_tail_messages)
    if end <= start:
        return None
    middle = [m for m in history[start:end] if not m.id.startswith(service.COMPACTION_PREFIX)]
    return middle or None


@dataclass(frozen=True)
class CompactionPlan:
    """What a compaction will summarise, read in one short transaction: the summary is written (maybe by
    an LLM) with no connection held, then stored by `apply` after re-checking the range."""

    session_id: str
    middle: list[SessionMessage]
    from_id: str  # the overlay's range: the existing overlay's start when it is extended
    previous_summary: str | None
    existing_overlay_id: str | None
    leaf_id: str | None = None  # the branch compacted (None: the latest leaf's)

    @property
    def to_id(self) -> str:
        return self.middle[-1].id


async def plan_compaction(
    db: AsyncSession,
    profile: Profile,
    session_id: str,
    protect_head: int = PROTECT_HEAD,
    tail_token_budget: int = TAIL_TOKEN_BUDGET,
    min_tail_messages: int = MIN_TAIL_MESSAGES,
    *,
    leaf_id: str | None = None,
) -> CompactionPlan | None:
    """Read what to compact (None when there is nothing); writes nothing. `leaf_id` picks the branch
    (default the latest leaf): the range summarised, and so the overlay, lies on that branch's path and
    applies to it only."""
    await service.require_session(db, profile, session_id)
    if leaf_id is not None:
        await service.require_message(db, profile, session_id, leaf_id)
    history, _ = await service.history_messages(db, profile, session_id, leaf_id)
    middle = plan(history, protect_head, tail_token_budget, min_tail_messages)
    if middle is None:
        return None
    # Iterative compaction: the overlay already in this history is extended, and its summary updated.
    existing = next((m for m in history if m.id.startswith(service.COMPACTION_PREFIX)), None)
    previous_summary: str | None = None
    overlay_id: str | None = None
    from_id = middle[0].id
    if existing is not None:
        previous_summary = "\n".join(
            str(p.get("text", "")) for p in existing.parts if p.get("type") == "text"
        )
        overlays = await repository.list_compactions(db, profile.id, session_id)
        overlay_id = existing.id.removeprefix(service.COMPACTION_PREFIX)
        from_id = next((c.from_message_id for c in overlays if c.id == overlay_id), from_id)
    return CompactionPlan(session_id, middle, from_id, previous_summary, overlay_id, leaf_id)


async def summarise_plan(llm: LlmClient | None, compaction_plan: CompactionPlan) -> str:
    """The summary of the planned range. Call it with no database connection held: it may call the LLM."""
    return await write_summary(llm, compaction_plan.middle, compaction_plan.previous_summary)


async def apply(
    db: AsyncSession, profile: Profile, compaction_plan: CompactionPlan, summary: str
) -> CompactionOut | None:
    """Store the overlay, unless the history changed since the plan was read (a message of the range
    deleted, another compaction stored meanwhile): then nothing is stored and None is returned."""
    if not summary.strip():
        return None
    session = await service.require_session(db, profile, compaction_plan.session_id, lock=True)
    try:
        history, _ = await service.history_messages(
            db, profile, compaction_plan.session_id, compaction_plan.leaf_id
        )
    except service.MessageNotFound:
        logger.info("compaction of session %s skipped: its leaf is gone", compaction_plan.session_id)
        return None
    on_path = {m.id for m in history}
    current = next((m for m in history if m.id.startswith(service.COMPACTION_PREFIX)), None)
    current_overlay = current.id.removeprefix(service.COMPACTION_PREFIX) if current is not None else None
    if current_overlay != compaction_plan.existing_overlay_id or not all(
        m.id in on_path for m in compaction_plan.middle
    ):
        logger.info("compaction of session %s skipped: its history changed", compaction_plan.session_id)
        return None

    session_id = compaction_plan.session_id
    if session.extract_memories:
        await enqueue_extraction(db, profile.id, session_id, [m.id for m in compaction_plan.middle])
    row = await repository.insert_compaction(
        db,
        profile.id,
        session_id,
        service.new_compaction_id(),
        summary,
        compaction_plan.from_id,
        compaction_plan.to_id,
    )
    # As the reference does: the prompt is re-rendered once the history has been rewritten.
    await system_prompt.refresh(db, profile, session_id)
    await repository.touch(db, profile.id, session_id)
    return service.to_compaction(row)
