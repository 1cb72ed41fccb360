"""The LLM extractor: an OpenAI-compatible model turns a window of a session into typed memories.

One prompt per window (the new messages, a few earlier ones as context, long jobs cut into several windows)
asks for `{"memories": [{type, summary, content, topicKey, eventTime, sourceMessageIds}]}` under the rules of
extraction. The reply is validated strictly: an answer that is not that shape raises `LlmError`, so the job
is retried (and ends `failed`, the error kept, after its last attempt); within a well-formed answer, items of
an unknown type, without text, or citing no new message are dropped, text is clipped to the stored limits,
topic keys normalised and event times parsed time-zone-aware. Nothing is stored until every window of the
job has answered, so a failed attempt leaves nothing half-extracted.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime, time
from typing import Any

from app.core.memory_types import POLICIES, SUPERSEDING_TYPES, MemoryType, policy
from app.extraction.types import (
    CONTENT_MAX_CHARS,
    SUMMARY_MAX_CHARS,
    ExtractedMemory,
    InputMessage,
    content_hash,
)
from app.language.temporal import resolve_event_time
from app.llm.client import LlmClient, LlmError

TYPES: frozenset[str] = frozenset(t.value for t in MemoryType)
# A window: at most this many new messages or characters of new text, plus CONTEXT_MESSAGES before it.
WINDOW_MESSAGES = 40
WINDOW_CHARS = 24_000
CONTEXT_MESSAGES = 6
MESSAGE_CHARS = 4_000  # one message's text in the prompt
MAX_MEMORIES_PER_WINDOW = 100
TOPIC_KEY_MAX = 200
_TOPIC_KEY = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")
_TOPIC_JUNK = re.compile(r"[^a-z0-9_.]+")

_PROMPT_TEMPLATE = """\
You extract long-term memories for an AI agent from a conversation. You get a JSON list of messages, each \
with an id, a timestamp (ISO 8601, UTC) and its weekday, a role (user / assistant / system), an optional \
speaker name and the text. Messages with "new": false are context only: use them to understand the new \
ones, never extract from them or cite them.

Keep what carries information, whoever said it: facts about the speakers (home, work, family, pets, \
health, likes), plans, preferences, dated happenings, instructions to the agent, commitments. Drop \
chit-chat: greetings, thanks, small talk, bare questions, filler, and anything already said in context. \
One memory per distinct piece of information; do not invent anything the messages do not say.

Each memory has a type:
{types}

Fields of each memory:
- "type": one of the types above.
- "summary": one short line, at most 200 characters, in the third person. Resolve first and second \
person to who is meant: "I" / "my" of the user becomes "User" / "User's" (or the speaker's name when \
one is given), "you" said by the user to the assistant becomes "the assistant", and the other way round. \
Example: the user says "I moved to Lisbon" → summary "User moved to Lisbon".
- "content": the full statement as said, with enough context to stand alone (at most 2000 characters).
- "topicKey": for {superseding} that a later statement could replace, a dotted lower-case key \
naming the subject and attribute, e.g. "user.home_city", "user.job", "user.partner", \
"user.favorite_food", "agent.tone", "agent.language"; null otherwise.
- "eventTime": for events (and tasks with a deadline), the absolute date and time in ISO 8601 with a \
time zone (e.g. "2024-05-09T00:00:00Z"), computed from the timestamp of the message that says it \
("yesterday" in a message of 2024-05-10 is 2024-05-09); null when no time is given or implied.
- "sourceMessageIds": the ids of the new messages the memory comes from (at least one).

Answer with one JSON object and nothing else: {"memories": [...]}. An empty list is a fine answer when \
nothing is worth keeping."""


def _system_prompt() -> str:
    """The prompt with the types, what each means and which supersede, all from the type policy table."""
    types = ";\n".join(f'- "{p.type.value}": {p.llm_description}' for p in POLICIES) + "."
    superseding = " and ".join(policy(t).plural for t in SUPERSEDING_TYPES)
    return _PROMPT_TEMPLATE.replace("{types}", types).replace("{superseding}", superseding)


SYSTEM_PROMPT = _system_prompt()


class LlmExtractor:
    """`Extractor` on an OpenAI-compatible model (see the module docstring for the rules it enforces)."""

    def __init__(self, client: LlmClient) -> None:
        self.client = client

    async def extract(
        self,
        messages: Sequence[InputMessage],
        *,
        new_from: int = 0,
        earlier: Sequence[InputMessage] | None = None,
    ) -> list[ExtractedMemory]:
        # `earlier` is not sent: the model resolves what a session's opening refers to from the window.
        windows = list(_windows(messages, new_from))
        answers = await asyncio.gather(*(self._extract_window(context, new) for context, new in windows))
        seen: set[str] = set()
        out: list[ExtractedMemory] = []
        for memories in answers:
            for memory in memories:
                digest = content_hash(memory.content)
                if digest not in seen:
                    seen.add(digest)
                    out.append(memory)
        return out

    async def _extract_window(
        self, context: Sequence[InputMessage], new: Sequence[InputMessage]
    ) -> list[ExtractedMemory]:
        if not any(m.content.strip() for m in new):
            return []
        reply = await self.client.chat_json(
            [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": render_window(context, new)},
            ]
        )
        return parse_memories(reply, new)


def _windows(
    messages: Sequence[InputMessage], new_from: int
) -> list[tuple[Sequence[InputMessage], Sequence[InputMessage]]]:
    """Cut the new messages into windows, each with the messages just before it as context."""
    out: list[tuple[Sequence[InputMessage], Sequence[InputMessage]]] = []
    start = max(new_from, 0)
    while start < len(messages):
        end, chars = start, 0
        while end < len(messages) and end - start < WINDOW_MESSAGES:
            size = min(len(messages[end].content), MESSAGE_CHARS)
            if end > start and chars + size > WINDOW_CHARS:
                break
            chars += size
            end += 1
        out.append((messages[max(0, start - CONTEXT_MESSAGES) : start], messages[start:end]))
        start = end
    return out


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def render_window(context: Sequence[InputMessage], new: Sequence[InputMessage]) -> str:
    """The user turn of the prompt: the window's messages as a JSON list."""

    def one(message: InputMessage, is_new: bool) -> dict[str, Any]:
        stamp = message.timestamp.astimezone(UTC)
        item: dict[str, Any] = {
            "id": message.id,
            "new": is_new,
            "timestamp": stamp.isoformat().replace("+00:00", "Z"),
            "weekday": stamp.strftime("%A"),
            "role": message.role,
        }
        if message.speaker:
            item["speaker"] = message.speaker
        item["text"] = _clip(message.content, MESSAGE_CHARS)
        return item

    listed = [one(m, False) for m in context] + [one(m, True) for m in new]
    return "Messages:\n" + json.dumps(listed, ensure_ascii=False, indent=1)


def parse_memories(reply: dict[str, Any], new: Sequence[InputMessage]) -> list[ExtractedMemory]:
    """Validate a model's answer against the window it was asked about (see the module docstring)."""
    items = reply.get("memories")
    if not isinstance(items, list):
        raise LlmError('LLM extraction answer has no "memories" list')
    timestamps = {m.id: m.timestamp for m in new}
    out: list[ExtractedMemory] = []
    for item in items:
        if not isinstance(item, dict):
            raise LlmError("LLM extraction answer lists something that is not an object")
        memory = _memory(item, timestamps)
        if memory is not None:
            out.append(memory)
            if len(out) == MAX_MEMORIES_PER_WINDOW:  # a runaway answer stops here
                break
    return out


def _memory(item: dict[str, Any], timestamps: dict[str, datetime]) -> ExtractedMemory | None:
    kind = item.get("type")
    if not isinstance(kind, str) or kind.strip().lower() not in TYPES:
        return None
    memory_type = MemoryType(kind.strip().lower())
    raw_sources = item.get("sourceMessageIds")
    if isinstance(raw_sources, str):
        raw_sources = [raw_sources]
    if not isinstance(raw_sources, list):
        return None
    sources = tuple(dict.fromkeys(str(s) for s in raw_sources if str(s) in timestamps))
    if not sources:
        return None  # cites only context messages, or nothing the window holds
    summary = _text(item.get("summary"))
    content = _text(item.get("content"), keep_lines=True)
    if not summary and not content:
        return None
    summary = _clip(summary or " ".join(content.split()), SUMMARY_MAX_CHARS)
    content = _clip(content or summary, CONTENT_MAX_CHARS)
    anchor = timestamps[sources[0]]
    event_time = _event_time(item.get("eventTime"))
    if event_time is None and policy(memory_type).dated:
        event_time = resolve_event_time(content, anchor)  # what the offline extractor would have said
    return ExtractedMemory(
        type=memory_type,
        summary=summary,
        content=content,
        topic_key=_topic_key(item.get("topicKey")),
        event_time=event_time,
        source_message_ids=sources,
    )


def _text(value: object, *, keep_lines: bool = False) -> str:
    if not isinstance(value, str):
        return ""
    if keep_lines:
        return "\n".join(" ".join(line.split()) for line in value.strip().splitlines()).strip()
    return " ".join(value.split())


def _topic_key(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    key = _TOPIC_JUNK.sub("_", value.strip().lower().replace(" ", "_")).strip("._")
    key = re.sub(r"_+", "_", re.sub(r"\.+", ".", key))
    if len(key) > TOPIC_KEY_MAX or not _TOPIC_KEY.match(key):
        return None
    return key


def _event_time(value: object) -> datetime | None:
    """An ISO 8601 date or date-time; no zone means UTC. Anything else (or an absurd year) is None."""
    if not isinstance(value, str) or not value.strip():
        return None
    raw = value.strip()
    try:
        parsed = datetime.fromisoformat(raw)
    except ValueError:
        try:
            parsed = datetime.combine(datetime.fromisoformat(raw[:10]).date(), time())
        except ValueError:
            return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    if not 1900 <= parsed.year <= 2200:
        return None
    return parsed.astimezone(UTC)
