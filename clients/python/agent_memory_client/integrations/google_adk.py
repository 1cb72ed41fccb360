"""Google's Agent Development Kit (`google-adk`, the `google-adk` extra): a `BaseMemoryService` over the API.

`AgentMemoryService` is what ADK's `Runner(memory_service=…)` and its memory tools (`load_memory`,
`PreloadMemoryTool`) search: `add_session_to_memory(session)` sends the session's text events to ingest
(sent again as the session grows, only new messages are added: ingest keeps one copy), and the worker
extracts memories from them; `search_memory` answers with recall's candidates, best first. ADK's `user_id`
is the profile; the namespace is the one given, else the client's, else ADK's `app_name` made into a
namespace name (`My_App` → `my-app`).

The adapter calls the API and holds no rule of its own: what becomes a memory and how recall ranks are the
server's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from google.adk.events.event import Event
from google.adk.memory import BaseMemoryService
from google.adk.memory.base_memory_service import SearchMemoryResponse
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.sessions.session import Session
from google.genai import types

from agent_memory_client._async_client import AsyncMemoryClient
from agent_memory_client.errors import NotFoundError

# Ingest takes at most 500 messages a request; a longer session goes in several, under the same session id.
_BATCH = 500


class AgentMemoryService(BaseMemoryService):
    """ADK's memory service on agent-memory. `limit` / `min_score`: recall's, for every search (the
    server's defaults otherwise). `wait_for_extraction`: `add_session_to_memory` returns once the worker has
    extracted the session's memories (for scripts and tests; an agent need not wait)."""

    def __init__(
        self,
        client: AsyncMemoryClient | None = None,
        *,
        namespace: str | None = None,
        limit: int | None = None,
        min_score: float | None = None,
        wait_for_extraction: bool = False,
        extraction_timeout: float = 60.0,
    ) -> None:
        self.client = client or AsyncMemoryClient()
        self.namespace = namespace
        self.limit = limit
        self.min_score = min_score
        self.wait_for_extraction = wait_for_extraction
        self.extraction_timeout = extraction_timeout

    def namespace_for(self, app_name: str) -> str:
        """The namespace of an ADK app: the one given, else the client's, else the app's name as one."""
        chosen = self.namespace or self.client.namespace or app_namespace(app_name)
        return chosen

    async def add_session_to_memory(self, session: Session) -> None:
        """Ingest the session's text events (each a message: the user's as `user`, the agents' as
        `assistant`, with the event's time) under the session's id."""
        await self._ingest(session.app_name, session.user_id, session.events, session.id)

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Ingest some events (a turn): into `session_id`, or a session the server derives from the first
        message. `custom_metadata` is not used."""
        await self._ingest(app_name, user_id, events, session_id)

    async def add_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        memories: Sequence[MemoryEntry],
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Remember each entry's text as a memory now (`custom_metadata` of the entry as its metadata)."""
        namespace = self.namespace_for(app_name)
        for entry in memories:
            text = _text(entry.content)
            if text:
                metadata = dict(entry.custom_metadata) or None
                await self.client.remember(user_id, text, metadata=metadata, namespace=namespace)

    async def search_memory(self, *, app_name: str, user_id: str, query: str) -> SearchMemoryResponse:
        """Recall's candidates as memory entries, best first: the memory's summary as the text, its event
        time (else none) as the timestamp, its type, score and session in `custom_metadata`. A user with no
        memories yet has none."""
        try:
            result = await self.client.recall(
                user_id,
                query,
                limit=self.limit,
                min_score=self.min_score,
                namespace=self.namespace_for(app_name),
            )
        except NotFoundError:  # a profile never written to
            return SearchMemoryResponse()
        return SearchMemoryResponse(
            memories=[
                MemoryEntry(
                    id=candidate.id,
                    content=types.Content(role="user", parts=[types.Part(text=candidate.summary)]),
                    timestamp=candidate.event_time.isoformat() if candidate.event_time else None,
                    custom_metadata={
                        "type": candidate.type,
                        "score": candidate.score,
                        "session_id": candidate.session_id,
                    },
                )
                for candidate in result.candidates
            ]
        )

    async def delete_memory(self, *, app_name: str, user_id: str, memory_id: str | None = None) -> None:
        """Delete a memory by the id `search_memory` gave (it stays deleted: re-adding the session does not
        bring it back)."""
        if memory_id is None:
            raise ValueError("delete_memory needs the memory_id search_memory gave")
        await self.client.delete(user_id, memory_id, namespace=self.namespace_for(app_name))

    async def _ingest(
        self, app_name: str, user_id: str, events: Iterable[Event], session_id: str | None
    ) -> None:
        namespace = self.namespace_for(app_name)
        messages = list(_messages(events))
        for start in range(0, len(messages), _BATCH):
            result = await self.client.ingest(
                user_id, messages[start : start + _BATCH], session_id=session_id, namespace=namespace
            )
            if self.wait_for_extraction and result.job_id:
                await self.client.wait_for_job(
                    user_id, result.job_id, timeout=self.extraction_timeout, namespace=namespace
                )


def app_namespace(app_name: str) -> str:
    """An ADK app name as a namespace name: lower case, runs of other characters as one '-', 32 at most."""
    name = re.sub(r"[^a-z0-9]+", "-", app_name.lower()).strip("-")[:32].strip("-")
    if not name:
        raise ValueError(
            f"app name {app_name!r} gives no namespace name: pass namespace= to AgentMemoryService"
        )
    return name


def _messages(events: Iterable[Event]) -> Iterable[dict[str, Any]]:
    """The ingest messages of events with text (a function call or its response has none)."""
    for event in events:
        text = _text(event.content)
        if not text:
            continue
        yield {
            "role": "user" if event.author == "user" else "assistant",
            "content": text,
            "timestamp": datetime.fromtimestamp(event.timestamp, tz=UTC) if event.timestamp else None,
        }


def _text(content: types.Content | None) -> str:
    """The visible text of a content: its text parts, not the model's thoughts."""
    if content is None or not content.parts:
        return ""
    return "\n".join(part.text for part in content.parts if part.text and not part.thought)
