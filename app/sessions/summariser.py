"""The deterministic, extractive compaction summariser (no LLM): Topic / Key Points / Current State / Open Items.

It picks sentences rather than writing new ones, so a summary only ever says what the conversation said.
Given the previous summary of the overlay being extended, it keeps that summary's topic, points and open
items and adds the new ones, as the reference's iterative update prompt asks an LLM to do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.sessions.schemas import SessionMessage
from app.sessions.tokens import estimate_parts_tokens, estimate_string_tokens, is_tool_part

SECTIONS = ("Topic", "Key Points", "Current State", "Open Items")
MAX_SENTENCE = 300
MAX_OPEN_ITEMS = 10
# Floor of the summary's size: below this a summary loses what earlier compactions had kept.
MIN_BUDGET = 400

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_CHATTER = re.compile(
    r"^(hi|hello|hey|thanks|thank you|ok|okay|sure|great|cool|got it|sounds good|you're welcome|bye)\b[\s!.,]*$",
    re.IGNORECASE,
)
_OPEN_MARKERS = re.compile(
    r"\b(todo|to do|need to|needs to|have to|must|should|next step|next|remind|pending|follow up|later|"
    r"not yet|still)\b",
    re.IGNORECASE,
)


def _clip(sentence: str) -> str:
    sentence = " ".join(sentence.split())
    return sentence if len(sentence) <= MAX_SENTENCE else sentence[: MAX_SENTENCE - 1].rstrip() + "…"


def _sentences(text: str) -> list[str]:
    return [_clip(s) for s in _SENTENCE_SPLIT.split(text) if s and s.strip()]


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


def _speaker(role: str) -> str:
    return {"user": "User", "assistant": "Assistant", "system": "System"}.get(role, role.capitalize())


def _informative(sentence: str) -> bool:
    return len(sentence.split()) >= 3 and not _CHATTER.match(sentence) and not sentence.endswith("?")


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
    replaced = sum(estimate_parts_tokens(m.parts) for m in messages) + estimate_string_tokens(previous_summary or "")
    budget = max(MIN_BUDGET, replaced // 5)

    topic = previous["Topic"][0] if previous["Topic"] else ""
    if not topic:
        first = next((m for m in messages if m.role == "user" and _text(m).strip()), None)
        first = first or next((m for m in messages if _text(m).strip()), None)
        topic = _sentences(_text(first))[0] if first is not None else "Earlier conversation"

    new_points: list[str] = []
    open_items: list[str] = []
    for message in messages:
        speaker = _speaker(message.role)
        for sentence in _sentences(_text(message)):
            if sentence.endswith("?") and message.role == "user":
                open_items.append(f"{speaker} asked: {sentence}")
            elif _informative(sentence):
                new_points.append(f"{speaker}: {sentence}")
                if _OPEN_MARKERS.search(sentence):
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
        f"{_speaker(last.role)}: {' '.join(_sentences(_text(last))[:2])}"
        if last is not None
        else (previous["Current State"][0] if previous["Current State"] else "Nothing recorded.")
    )
    items = _dedupe([*previous["Open Items"], *open_items])[-MAX_OPEN_ITEMS:]

    lines = ["## Topic", topic, "", "## Key Points"]
    lines += [f"- {p}" for p in kept] or ["- None recorded."]
    lines += ["", "## Current State", state, "", "## Open Items"]
    lines += [f"- {i}" for i in items if _normal(i) != "none noted"] or ["- None noted."]
    return "\n".join(lines)
