"""Recall answers written by the LLM from the memories recall found.

`write_answer` gives the model the question, "today" (the recall's reference date) and the memories, each
with its type, summary, content and the date it happened, and asks for a short answer in the size recall
asked for (about 60 / 150 / 400 tokens for short / medium / long), built only from those memories, with
absolute dates. When the memories do not answer the question the answer is `""`. Failures raise `LlmError`;
recall keeps its extractive answer for that case.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from app.core.dates import format_date
from app.core.memory_types import DEFAULT_TYPE, MemoryType
from app.llm.client import LlmClient, LlmError

# The spec's answer sizes for short / medium / long, for the LLM's answer and the extractive one alike.
ANSWER_TOKENS = {"short": 60, "medium": 150, "long": 400}
# What the model reads: recall's best 30 (a long answer's evidence rarely sits lower), each statement cut
# at 800 characters, so the prompt stays a few thousand tokens whatever was stored.
MAX_MEMORIES = 30
MEMORY_CONTENT_CHARS = 800
# Models asked for "" still sometimes say so in words; such a reply is no answer.
_NO_ANSWER = re.compile(
    r"^(?:i (?:do not|don't) know|unknown|n/?a|none|no answer|(?:the )?memories (?:do not|don't)|"
    r"there is no (?:information|memory)|no (?:relevant )?information)\b",
    re.IGNORECASE,
)

_PROMPT_TEMPLATE = """\
You answer a question about a user for an AI agent, using only the memories given: notes the agent kept \
from earlier conversations. Each memory has a type ({types}), a summary, the full \
statement, and, for events, the date it happened or will happen.

Rules:
- Use only what the memories say. Do not guess or add outside knowledge.
- Write dates as absolute dates ("9 May 2024"), never "yesterday" or "last week"; today is {today}.
- A newer memory overrides an older one on the same subject.
- Answer in about {tokens} tokens{shape}, plain prose, no preamble, no list of sources.
- If the memories do not answer the question, the answer is the empty string.

Answer with one JSON object and nothing else: {{"answer": "…"}}."""
# The types are the policy table's; the braces left are filled per call.
SYSTEM_PROMPT = _PROMPT_TEMPLATE.replace("{types}", ", ".join(t.value for t in MemoryType))

_SHAPES = {
    "short": " (one or two sentences)",
    "medium": " (a short paragraph)",
    "long": " (a few paragraphs at most)",
}


def _day(value: object) -> str | None:
    if isinstance(value, datetime):
        return format_date(value.astimezone(UTC) if value.tzinfo else value)
    if isinstance(value, date):
        return format_date(value)
    if isinstance(value, str) and value.strip():
        try:
            return _day(datetime.fromisoformat(value.strip()))
        except ValueError:
            return value.strip()
    return None


def render_memories(memories: Sequence[Mapping[str, Any]]) -> str:
    """The memories as the model reads them: a JSON list, best first."""
    listed: list[dict[str, Any]] = []
    for number, memory in enumerate(memories[:MAX_MEMORIES], start=1):
        item: dict[str, Any] = {"n": number, "type": str(memory.get("type") or DEFAULT_TYPE.value)}
        when = _day(memory.get("event_time"))
        if when:
            item["date"] = when
        item["summary"] = str(memory.get("summary") or "")
        content = str(memory.get("content") or "")
        if content and content != item["summary"]:
            item["statement"] = content[:MEMORY_CONTENT_CHARS]
        listed.append(item)
    return json.dumps(listed, ensure_ascii=False, indent=1)


def _fit(answer: str, tokens: int, sentences: Callable[[str], list[str]]) -> str:
    """Cut an answer that runs far past its size at a sentence end (word count × 1.3 ≈ tokens); `sentences`
    splits it (the caller's: `app.language.sentences`, which this layer does not reach)."""
    words = answer.split()
    limit = int(tokens * 1.5 / 1.3)
    if len(words) <= limit:
        return answer
    kept: list[str] = []
    used = 0
    for sentence in sentences(answer):
        size = len(sentence.split())
        if kept and used + size > limit:
            break
        kept.append(sentence)
        used += size
    text = " ".join(kept)
    return text if len(text.split()) <= limit else " ".join(words[:limit]) + "…"


async def write_answer(
    client: LlmClient,
    question: str,
    memories: list[dict[str, Any]],
    response_length: str,
    reference_date: datetime,
    *,
    sentences: Callable[[str], list[str]],
) -> str:
    """The LLM's answer to `question` from `memories` (best first); "" when they do not answer it.

    `response_length` is short / medium / long (anything else counts as medium). Raises `LlmError` when the
    LLM fails or its reply is not the JSON asked for.
    """
    if not memories or not question.strip():
        return ""
    tokens = ANSWER_TOKENS.get(response_length, ANSWER_TOKENS["medium"])
    today = reference_date.astimezone(UTC) if reference_date.tzinfo else reference_date
    system = SYSTEM_PROMPT.format(
        today=f"{today.strftime('%A')} {format_date(today)}",
        tokens=tokens,
        shape=_SHAPES.get(response_length, _SHAPES["medium"]),
    )
    user = f"Question: {question.strip()}\n\nMemories:\n{render_memories(memories)}"
    reply = await client.chat_json(
        [{"role": "system", "content": system}, {"role": "user", "content": user}],
        max_tokens=tokens * 2 + 40,
    )
    answer = reply.get("answer")
    if answer is None:
        return ""
    if not isinstance(answer, str):
        raise LlmError('LLM answer has no "answer" string')
    answer = " ".join(answer.split())
    if _NO_ANSWER.match(answer):
        return ""
    return _fit(answer, tokens, sentences)
