"""Compaction, following the reference algorithm: protect a head and a token-budgeted tail, keep tool calls
with their results, summarise the middle, and extend the existing overlay instead of stacking a new one.

The summary is stored as an overlay; the original messages are never deleted. Before a range is summarised,
its messages are queued for memory extraction, so nothing the conversation taught is lost to the summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Profile
from app.sessions import repository, service
from app.sessions.schemas import CompactionOut, SessionMessage
from app.sessions.summariser import write_summary
from app.sessions.tokens import estimate_parts_tokens, is_tool_part

if TYPE_CHECKING:
    from app.llm.client import LlmClient


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


async def compact(
    db: AsyncSession,
    profile: Profile,
    session_id: str,
    protect_head: int = 3,
    tail_token_budget: int = 20_000,
    min_tail_messages: int = 2,
    *,
    leaf_id: str | None = None,
    llm: LlmClient | None = None,
) -> CompactionOut | None:
    """compact(): store (and return) the overlay covering the summarised range, or None.

    `leaf_id` picks the branch (default the latest leaf): the range summarised, and so the overlay, lies on
    that branch's path and applies to it only.

    With `llm`, the LLM writes the summary (the extractive summariser if it fails). Its call is made while
    the request's transaction is open: the request's session has read the history and holds its connection
    until the dependency commits, so the call is kept to one attempt bounded by the LLM timeout.
    """
    from app.context import prompt
    from app.worker.queue import enqueue_extraction

    session = await service.require_session(db, profile, session_id, lock=True)
    history, _ = await service.history_messages(db, profile, session_id, leaf_id)
    middle = plan(history, protect_head, tail_token_budget, min_tail_messages)
    if middle is None:
        return None

    # Iterative compaction: the overlay already in this history is extended, and its summary updated.
    existing = next((m for m in history if m.id.startswith(service.COMPACTION_PREFIX)), None)
    previous_summary: str | None = None
    from_id = middle[0].id
    if existing is not None:
        previous_summary = "\n".join(
            str(p.get("text", "")) for p in existing.parts if p.get("type") == "text"
        )
        overlays = await repository.list_compactions(db, profile.id, session_id)
        overlay_id = existing.id.removeprefix(service.COMPACTION_PREFIX)
        from_id = next((c.from_message_id for c in overlays if c.id == overlay_id), from_id)

    summary = await write_summary(llm, middle, previous_summary)
    if not summary.strip():
        return None

    if session.extract_memories:
        await enqueue_extraction(db, profile.id, session_id, [m.id for m in middle])
    row = await repository.insert_compaction(
        db, profile.id, session_id, service.new_compaction_id(), summary, from_id, middle[-1].id
    )
    # As the reference does: the prompt is re-rendered once the history has been rewritten.
    await prompt.refresh(db, profile, session_id)
    await repository.touch(db, profile.id, session_id)
    return service.to_compaction(row)
