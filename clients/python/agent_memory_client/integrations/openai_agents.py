"""The OpenAI Agents SDK (`openai-agents`, the `openai-agents` extra): a `Session` kept by the Session API,
and a `recall` function tool.

`AgentMemorySession` implements the SDK's `agents.memory.session.Session` protocol on one session of a
profile: `Runner.run(agent, …, session=AgentMemorySession(…))` reads the conversation from the session's
history (root → latest leaf) and appends each new item as a message. Every item is kept whole in a
`data-openai-agents-item` part, so `get_items` gives back exactly what was added; the text of user and
assistant messages also goes in `text` parts, which the server turns into memories in the background, as it
does every session's messages. The session is the server's tree: messages are only appended after the
latest leaf, `pop_item` deletes that leaf alone, so branches other clients made stay as they are.

`recall_tool(profile)` is a `FunctionTool` the agent calls to search the profile's memories.

The adapters call the API and hold no rule of their own: what becomes a memory, how recall ranks and what a
deletion removes are the server's.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, cast

from agents import FunctionTool, function_tool
from agents.items import TResponseInputItem
from agents.memory import SessionSettings
from agents.memory.session_settings import resolve_session_limit

from agent_memory_client._async_client import AsyncMemoryClient
from agent_memory_client.errors import NotFoundError
from agent_memory_client.models import SessionMessage

ITEM_PART = "data-openai-agents-item"
# The batch route takes at most 500 messages; a run adds a handful.
_BATCH = 500
_TEXT_CONTENT = frozenset({"input_text", "output_text", "text"})


class AgentMemorySession:
    """One session of a profile as an Agents SDK `Session` (the `Session` protocol, as the SDK asks of
    third-party sessions). `client` defaults to an `AsyncMemoryClient` from AGENT_MEMORY_URL /
    AGENT_MEMORY_API_KEY / AGENT_MEMORY_NAMESPACE; `session_settings.limit` bounds `get_items` when it is
    called without a limit."""

    def __init__(
        self,
        session_id: str,
        profile: str,
        *,
        client: AsyncMemoryClient | None = None,
        namespace: str | None = None,
        session_settings: SessionSettings | None = None,
    ) -> None:
        self.session_id = session_id
        self.profile = profile
        self.namespace = namespace
        self.session_settings = session_settings
        self.client = client or AsyncMemoryClient()

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The conversation root → latest leaf (compactions applied), the latest `limit` items of it."""
        chosen = resolve_session_limit(limit, self.session_settings)
        if chosen is not None and chosen <= 0:
            return []
        try:
            history = await self.client.get_history(self.profile, self.session_id, namespace=self.namespace)
        except NotFoundError:  # no message yet: the session is made by its first one
            return []
        items = [item for item in map(to_item, history.messages) if item is not None]
        return items if chosen is None else items[-chosen:]

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Append the items in order after the latest leaf, one message each."""
        messages = [to_message(item) for item in items]
        for start in range(0, len(messages), _BATCH):
            await self.client.append_messages(
                self.profile, self.session_id, messages[start : start + _BATCH], namespace=self.namespace
            )

    async def pop_item(self) -> TResponseInputItem | None:
        """Delete the latest leaf and answer its item (None for an empty session)."""
        try:
            leaf = await self.client.get_latest_leaf(self.profile, self.session_id, namespace=self.namespace)
        except NotFoundError:
            return None
        if leaf is None:
            return None
        await self.client.delete_session_message(
            self.profile, self.session_id, leaf.id, namespace=self.namespace
        )
        return to_item(leaf)

    async def clear_session(self) -> None:
        """Delete every message of the session (the session itself stays)."""
        with contextlib.suppress(NotFoundError):  # never written to: nothing to clear
            await self.client.clear_session_messages(self.profile, self.session_id, namespace=self.namespace)


def to_message(item: TResponseInputItem) -> dict[str, Any]:
    """The Session API message of one item: the item whole in a data part, its text in text parts."""
    data = cast(Mapping[str, Any], item)
    role = data.get("role")
    parts: list[dict[str, Any]] = [{"type": "text", "text": text} for text in _texts(data) if text]
    parts.append({"type": ITEM_PART, "data": dict(data)})
    return {
        "id": f"oa-{uuid.uuid4().hex}",
        # The Session API knows user, assistant and system; tool calls and their outputs are the agent's turn.
        "role": "user" if role == "user" else "system" if role in ("system", "developer") else "assistant",
        "parts": parts,
    }


def to_item(message: SessionMessage) -> TResponseInputItem | None:
    """The item a message holds; a message another client wrote (no item part) as a plain message of its
    text, None when it has no text."""
    for part in message.parts:
        if part.type == ITEM_PART:
            return cast(TResponseInputItem, getattr(part, "data", None))
    text = "\n".join(str(getattr(part, "text", "")) for part in message.parts if part.type == "text")
    if not text:
        return None
    role = message.role if message.role in ("user", "assistant", "system") else "user"
    return cast(TResponseInputItem, {"role": role, "content": text})


def _texts(item: Mapping[str, Any]) -> Sequence[str]:
    """The text a message item says (user input, an assistant's output text); none for a tool call."""
    if item.get("type", "message") != "message" or "role" not in item:
        return []
    content = item.get("content")
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [
            str(part.get("text", ""))
            for part in content
            if isinstance(part, Mapping) and part.get("type") in _TEXT_CONTENT
        ]
    return []


def recall_tool(
    profile: str,
    *,
    client: AsyncMemoryClient | None = None,
    namespace: str | None = None,
    limit: int | None = None,
    min_score: float | None = None,
    name: str = "recall_memory",
) -> FunctionTool:
    """A function tool that answers a question from the profile's memories (the server's recall): its
    answer and the memories it drew on, or that nothing relevant is remembered."""
    memory = client or AsyncMemoryClient()

    async def recall(query: str) -> str:
        """Search long-term memory for what is known about the user: facts, preferences, instructions and
        past events.

        Args:
            query: A question about the user or past conversations, in the user's words.
        """
        result = await memory.recall(profile, query, limit=limit, min_score=min_score, namespace=namespace)
        if not result.candidates:
            return "Nothing relevant is remembered."
        lines = [result.answer, "", "Memories:"]
        lines += [f"- {c.summary} (id {c.id}, {c.type}, score {c.score:.2f})" for c in result.candidates]
        return "\n".join(lines)

    return function_tool(recall, name_override=name)
