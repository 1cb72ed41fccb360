"""Compaction summarisers: Topic / Key Points / Current State / Open Items, from the LLM or deterministic.

`summarise` is the deterministic, extractive one (no LLM): it picks sentences rather than writing new ones,
so a summary only ever says what the conversation said. Given the previous summary of the overlay being
extended, it keeps that summary's topic, points and open items and adds the new ones, as the reference's
iterative update prompt asks an LLM to do.

`summarise_with_llm` has the configured LLM write (or update) the summary in the same four sections;
`write_summary` uses it when an LLM is configured and falls back to `summarise`, with a warning, on any
failure of the LLM, so compaction never fails because of it.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.extraction.chit_chat import says_nothing_in
from app.language.cues import is_question, names_a_task
from app.language.detect import Language, detect
from app.language.languages.en import lexicon as lx
from app.language.sentences import split_sentences
from app.language.speakers import speaker_label
from app.sessions.schemas import SessionMessage
from app.sessions.tokens import estimate_parts_tokens, estimate_string_tokens, is_tool_part

if TYPE_CHECKING:
    from app.llm.client import LlmClient

logger = logging.getLogger("agent_memory.sessions.summariser")

SECTIONS = ("Topic", "Key Points", "Current State", "Open Items")
# The offline summary quotes sentences: a longer one is cut, so one pasted log cannot fill the budget;
# open items past this many are older asks the summary need not carry.
MAX_SENTENCE = 300
MAX_OPEN_ITEMS = 10
# Sentences with fewer words ("Sounds good.") carry no point worth keeping; a CJK sentence's characters
# count half a word each.
MIN_INFORMATIVE_WORDS = 3
CJK_CHARS_A_WORD = 2
# Floor of the summary's size: below this a summary loses what earlier compactions had kept.
MIN_BUDGET = 400


def _clip(sentence: str) -> str:
    sentence = " ".join(sentence.split())
    return sentence if len(sentence) <= MAX_SENTENCE else sentence[: MAX_SENTENCE - 1].rstrip() + "…"


def _sentences(text: str) -> tuple[list[str], Language]:
    """A message's sentences, clipped, and its language."""
    language = detect(text)
    return [_clip(s) for s in split_sentences(text, language.code)], language


def _text(message: SessionMessage) -> str:
    return "\n".join(
        str(p["text"]) for p in message.parts if p.get("type") == "text" and isinstance(p.get("text"), str)
    )


def _tool_names(message: SessionMessage) -> list[str]:
    names: list[str] = []
    for part in message.parts:
        if is_tool_part(part):
            name = part.get("toolName") or str(part["type"]).removeprefix("tool-")
            names.append(str(name))
    return names


def _informative(sentence: str, language: Language) -> bool:
    """Whether a sentence carries a point: words enough (CJK characters count half a word each), not a
    question, not chatter (English's patterns; another language's formulas)."""
    size = len(sentence) // CJK_CHARS_A_WORD if language.unspaced else len(sentence.split())
    if size < MIN_INFORMATIVE_WORDS or is_question(sentence):
        return False
    if language.english:
        return not lx.CHATTER_RE.match(sentence)
    return not says_nothing_in(sentence, language.code)


def _leaves_open(sentence: str, language: Language) -> bool:
    """Whether a sentence leaves something to do: English's markers, or any language's task cues."""
    return lx.OPEN_MARKERS_RE.search(sentence) is not None if language.english else names_a_task(sentence)


def _normal(line: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", line.lower()).strip()


def parse_sections(summary: str) -> dict[str, list[str]]:
    """The four sections of a summary written by this module (other text is kept under Key Points)."""
    sections: dict[str, list[str]] = {name: [] for name in SECTIONS}
    current = "Key Points"
    for line in summary.splitlines():
        stripped = line.strip()
        if stripped.startswith("## "):
            heading = stripped[3:].strip()
            current = heading if heading in sections else "Key Points"
            continue
        if stripped:
            sections[current].append(stripped.removeprefix("- ").strip())
    return sections


def _dedupe(lines: Sequence[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for line in lines:
        key = _normal(line)
        if key and key not in seen:
            seen.add(key)
            out.append(line)
    return out


def summarise(messages: Sequence[SessionMessage], previous_summary: str | None = None) -> str:
    """A Markdown summary of these messages, updating `previous_summary` when given."""
    previous = parse_sections(previous_summary) if previous_summary else {name: [] for name in SECTIONS}
    # About a fifth of what is being replaced, the earlier summary included (the reference's budget).
    replaced = sum(estimate_parts_tokens(m.parts) for m in messages) + estimate_string_tokens(
        previous_summary or ""
    )
    budget = max(MIN_BUDGET, replaced // 5)

    topic = previous["Topic"][0] if previous["Topic"] else ""
    if not topic:
        first = next((m for m in messages if m.role == "user" and _text(m).strip()), None)
        first = first or next((m for m in messages if _text(m).strip()), None)
        topic = _sentences(_text(first))[0][0] if first is not None else "Earlier conversation"

    new_points: list[str] = []
    open_items: list[str] = []
    for message in messages:
        speaker = speaker_label(message.role, message.name)
        sentences, language = _sentences(_text(message))
        for sentence in sentences:
            if is_question(sentence) and message.role == "user":
                open_items.append(f"{speaker} asked: {sentence}")
            elif _informative(sentence, language):
                new_points.append(f"{speaker}: {sentence}")
                if _leaves_open(sentence, language):
                    open_items.append(f"{speaker}: {sentence}")
        for name in _tool_names(message):
            new_points.append(f"{speaker} used the tool `{name}`.")

    # Newest points are kept when the budget runs out: they describe where the conversation went.
    points = _dedupe([*previous["Key Points"], *new_points])
    kept: list[str] = []
    used = estimate_string_tokens(topic)
    for point in reversed(points):
        cost = estimate_string_tokens(point) + 1
        if kept and used + cost > budget:
            break
        kept.append(point)
        used += cost
    kept.reverse()

    last = next((m for m in reversed(messages) if m.role == "assistant" and _text(m).strip()), None)
    last = last or next((m for m in reversed(messages) if _text(m).strip()), None)
    state = (
        f"{speaker_label(last.role, last.name)}: {' '.join(_sentences(_text(last))[0][:2])}"
        if last is not None
        else (previous["Current State"][0] if previous["Current State"] else "Nothing recorded.")
    )
    items = _dedupe([*previous["Open Items"], *open_items])[-MAX_OPEN_ITEMS:]

    lines = ["## Topic", topic, "", "## Key Points"]
    lines += [f"- {p}" for p in kept] or ["- None recorded."]
    lines += ["", "## Current State", state, "", "## Open Items"]
    lines += [f"- {i}" for i in items if _normal(i) != "none noted"] or ["- None noted."]
    return "\n".join(lines)


# ---------------------------------------------------------------- LLM summariser

# Transcript characters per LLM call; a longer range is folded in chunks, each updating the summary so far.
LLM_CHUNK_CHARS = 48_000
LLM_PART_CHARS = 1_500  # one tool input or output in the transcript
# One attempt: compaction runs inside a request, which must not wait through retries (the fallback is there).
LLM_RETRIES = 0

LLM_SYSTEM_PROMPT = """\
You compact the history of a conversation between a user and an AI assistant, so the assistant can carry \
on without the original messages. Write a Markdown summary with exactly these four sections, in this \
order, each heading on its own line:

## Topic
One line: what the conversation is about.

## Key Points
Bullet points ("- ") with every fact, decision, preference, name, number, date, file, command and tool \
result that matters later. Attribute statements to who made them (User / Assistant). Write dates as \
absolute dates.

## Current State
A short paragraph: where the work stands at the end of these messages.

## Open Items
Bullet points of unanswered questions, pending tasks and next steps; "- None noted." if there are none.

Say only what the messages (or the earlier summary) say; invent nothing. Be dense: aim for at most \
{budget} tokens. Answer with the summary only, no preamble and no code fence."""

LLM_UPDATE_PROMPT = """\
Here is the existing summary of the earlier part of the conversation:

<summary>
{previous}
</summary>

Update it with the new messages below: keep everything from it that still matters, add what is new, \
rewrite Current State for where things stand now, drop Open Items that have been resolved. Keep the \
same four sections.

<messages>
{transcript}
</messages>"""

LLM_FIRST_PROMPT = """\
Summarise these messages:

<messages>
{transcript}
</messages>"""


def _clip_part(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= LLM_PART_CHARS else text[: LLM_PART_CHARS - 1] + "…"


def render_transcript(message: SessionMessage) -> str:
    """One message as the LLM reads it: `[role] text` (`[role: Name]` when its speaker is named), tool calls with their (clipped) input and output."""
    lines: list[str] = []
    for part in message.parts:
        if part.get("type") == "text" and isinstance(part.get("text"), str) and part["text"].strip():
            lines.append(part["text"].strip())
        elif is_tool_part(part):
            name = part.get("toolName") or str(part["type"]).removeprefix("tool-")
            call = f"(tool {name}"
            if part.get("input") is not None:
                call += f" input: {_clip_part(part['input'])}"
            if part.get("output") is not None:
                call += f" → output: {_clip_part(part['output'])}"
            if part.get("errorText") is not None:
                call += f" → error: {_clip_part(part['errorText'])}"
            lines.append(call + ")")
    if not lines:
        return ""
    label = f"{message.role}: {message.name}" if message.name else message.role
    return f"[{label}] " + "\n".join(lines)


def _chunks(messages: Sequence[SessionMessage]) -> list[str]:
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for message in messages:
        rendered = render_transcript(message)
        if not rendered:
            continue
        rendered = rendered[:LLM_CHUNK_CHARS]
        if current and size + len(rendered) > LLM_CHUNK_CHARS:
            chunks.append("\n\n".join(current))
            current, size = [], 0
        current.append(rendered)
        size += len(rendered) + 2
    if current:
        chunks.append("\n\n".join(current))
    return chunks


def check_sections(summary: str) -> str:
    """The summary, fence stripped, if it has the four sections in order; `LlmError` otherwise."""
    from app.llm.client import LlmError

    text = summary.strip()
    fenced = re.match(r"^```(?:markdown|md)?\s*\n(.*?)\n?```$", text, re.DOTALL)
    if fenced:
        text = fenced.group(1).strip()
    headings = [line.strip()[3:].strip() for line in text.splitlines() if line.strip().startswith("## ")]
    if [h for h in headings if h in SECTIONS] != list(SECTIONS):
        raise LlmError(f"LLM summary lacks the sections {', '.join(SECTIONS)} in order")
    first = re.search(r"^\s*##\s+Topic\s*$", text, re.MULTILINE)
    return text[first.start() :].strip() if first else text  # drop any preamble before the first section


async def summarise_with_llm(
    client: LlmClient, messages: Sequence[SessionMessage], previous_summary: str | None = None
) -> str:
    """The LLM's summary of these messages, updating `previous_summary` when given (`LlmError` on failure)."""
    replaced = sum(estimate_parts_tokens(m.parts) for m in messages) + estimate_string_tokens(
        previous_summary or ""
    )
    budget = max(MIN_BUDGET, replaced // 5)
    system = LLM_SYSTEM_PROMPT.format(budget=budget)
    chunks = _chunks(messages)
    if not chunks:  # nothing but empty messages: nothing for the LLM to read
        return summarise(messages, previous_summary)
    summary = previous_summary.strip() if previous_summary and previous_summary.strip() else None
    for transcript in chunks:
        prompt = (
            LLM_UPDATE_PROMPT.format(previous=summary, transcript=transcript)
            if summary is not None
            else LLM_FIRST_PROMPT.format(transcript=transcript)
        )
        reply = await client.chat(
            [{"role": "system", "content": system}, {"role": "user", "content": prompt}],
            max_tokens=max(1024, budget * 2),
            max_retries=LLM_RETRIES,
        )
        summary = check_sections(reply)
    assert summary is not None
    return summary


async def write_summary(
    llm: LlmClient | None, messages: Sequence[SessionMessage], previous_summary: str | None = None
) -> str:
    """The LLM's summary when one is configured, else (or if it fails in any way) the deterministic one."""
    if llm is not None:
        try:
            return await summarise_with_llm(llm, messages, previous_summary)
        except Exception as exc:
            logger.warning("LLM compaction summary failed, using the extractive summariser: %s", exc)
    return summarise(messages, previous_summary)
