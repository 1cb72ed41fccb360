"""The profile summary (getSummary): a Markdown digest of the profile's active memories on a token budget.

It is written to sit at the top of an agent's system prompt. Sections, in order, empty ones left out:
Instructions (rules for the agent come first), Key Facts (lasting circumstances of the people first),
Recent Events (the last 30 days, dated), Active Tasks, Last Session (the given session, else the most
recent one, in a few lines). The whole is about `SUMMARY_TOKENS` tokens (scaled by `responseLength`),
shared out by `SHARES`; a section that needs less than its share leaves the rest to the others. The output depends only on the stored rows (and, through the 30-day window, the time of
the profile's last message), so the same profile always summarises the same way.

"Recent" and "newer session" run on the conversation's own clock — message timestamps — rather than the
server's: a history imported from last year still has recent events and a last session, and a profile
with no messages falls back to now.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.dates import format_date
from app.core.memory_types import POLICIES, SummaryLines, TypePolicy
from app.core.tokens import estimate_tokens
from app.extraction.text import parse_message
from app.language.circumstances import tells_a_circumstance
from app.language.detect import detect
from app.language.speakers import GENERIC_SPEAKERS, speaker_label
from app.models import Profile
from app.summary import repository
from app.summary.repository import MemoryLine, MessageLine, SessionActivity

SUMMARY_TOKENS = 2000
# `responseLength` scales the whole budget (absent: medium, the spec's 2,000 tokens).
BUDGET_SCALE = {"short": 0.3, "medium": 1.0, "long": 2.0}
# Last Session says what happened in a few lines: the session's most telling memories, in the order told.
LAST_SESSION_LINES = 5
_SPECIFIC_RE = re.compile(r"\d|(?<![.!?:]\s)(?<!^)\b[A-Z][a-z]+")
# The one section that is no memory type's: the last session's memories (or, lacking any, its last
# messages). It stands last, after the tasks, with the low end of the spec's 15 %.
LAST_SESSION = "Last Session"
LAST_SESSION_POSITION = 40
LAST_SESSION_SHARE = 0.15
# Each section's share of the budget: the types' from the policy table, which with the last session's
# add up to the whole budget.
SHARES: dict[str, float] = {p.summary_section: p.summary_share for p in POLICIES} | {
    LAST_SESSION: LAST_SESSION_SHARE
}
# The spec's "Recent Events": the last 30 days of the conversation's own clock.
RECENT_DAYS = 30
# The cheapest possible bullet ("- x") is 3 tokens, so no section can ever show more lines than this.
MAX_LINES = SUMMARY_TOKENS // 3 + 1
# A last session without memories is shown as its last messages: a dozen lines of at most one summary's
# length fit well inside the section's 15 % share and still say where the conversation stood.
DIGEST_MESSAGES = 12
DIGEST_CHARS = 200


@dataclass
class _Section:
    title: str
    # Candidate lines, most important first.
    candidates: list[str]
    # Shown oldest first (a session's story, instructions as given) rather than in priority order.
    chronological: bool = False
    taken: list[str] = field(default_factory=list)
    used: int = 0

    @property
    def heading_cost(self) -> int:
        # The blank line that separates it from the section before is charged to the heading.
        return estimate_tokens(f"## {self.title}\n\n")

    def cost_of_next(self) -> int | None:
        if len(self.taken) >= len(self.candidates):
            return None
        cost = estimate_tokens(self.candidates[len(self.taken)] + "\n")
        return cost + (self.heading_cost if not self.taken else 0)

    def take_next(self, cost: int) -> None:
        self.taken.append(self.candidates[len(self.taken)])
        self.used += cost

    def render(self) -> str:
        lines = list(reversed(self.taken)) if self.chronological else self.taken
        return f"## {self.title}\n" + "\n".join(lines)


def _allocate(sections: Sequence[_Section], budget: int) -> None:
    """Each section fills up to its share, in priority order; what is left then goes round the sections
    one line at a time, so spare budget is shared rather than swallowed by the first hungry section."""
    for section in sections:
        limit = math.floor(budget * SHARES[section.title])
        while (cost := section.cost_of_next()) is not None and section.used + cost <= limit:
            section.take_next(cost)
    spare = budget - sum(s.used for s in sections)
    progressed = True
    while progressed:
        progressed = False
        for section in sections:
            cost = section.cost_of_next()
            if cost is not None and cost <= spare:
                section.take_next(cost)
                spare -= cost
                progressed = True


def _attributed(memory: MemoryLine) -> str:
    """The memory's summary, its speaker before it when the summary does not name them already (a summary
    written without the name, by an LLM or an edit): who said what is the stored speaker, not a guess."""
    summary = " ".join(memory.summary.split())
    speaker = memory.speaker
    if not speaker or speaker.lower() in GENERIC_SPEAKERS:
        return summary
    folded = summary.casefold()
    if any(part.casefold() in folded for part in speaker.split()):
        return summary
    return f"{speaker}: {summary}"


def _bullet(memory: MemoryLine) -> str:
    summary = _attributed(memory)
    if memory.at is not None:  # the repository dates only the dated types (events)
        # Written as the memory's language writes a date ("2023年4月1日" beside a Chinese memory).
        day = format_date(memory.at, "en" if memory.language == "english" else detect(summary).code)
        # The extractor may already end an event's summary with its date; the bullet leads with it instead.
        return f"- {day}: {summary.removesuffix(f' ({day})')}"
    return f"- {summary}"


def _bullets(memories: list[MemoryLine]) -> list[str]:
    return [_bullet(m) for m in memories]


def _weight(memory: MemoryLine) -> int:
    """How much a memory says about the people: a lasting circumstance counts most, a name or number
    (something specific) a little; a question asked counts against it."""
    summary = memory.summary
    # A lasting circumstance (work, home, family, health, diet, likes) is what a fact at the top of an
    # agent's prompt should be, in whatever language it was said.
    lasting = tells_a_circumstance(summary, memory.language)
    weight = 2 * lasting + bool(_SPECIFIC_RE.search(summary))
    return weight - 2 * (" asked: " in summary)


def _lasting_first(facts: list[MemoryLine]) -> list[MemoryLine]:
    """Facts about the people's lasting circumstances first; otherwise the stored order (topic-keyed
    attributes first, the agent's own words last, newest first)."""
    return sorted(facts, key=_weight, reverse=True)  # stable: equal weights keep the stored order


def _telling(memories: list[MemoryLine], count: int) -> list[MemoryLine]:
    """The `count` memories of a session that tell most of what happened (events first, then by weight),
    in their stored order."""
    chosen = sorted(
        range(len(memories)), key=lambda i: (memories[i].at is not None, _weight(memories[i])), reverse=True
    )
    return [memories[i] for i in sorted(chosen[:count])]


def _digest_line(message: MessageLine) -> str:
    """A message as `- Speaker: text`: its speaker's name (given at ingest or as a `Name:` prefix), else
    User / Assistant."""
    parsed = parse_message(message.text)
    speaker = speaker_label(message.role, message.name or parsed.speaker)
    flat = " ".join(parsed.body.split()) if parsed.speaker else " ".join(message.text.split())
    if len(flat) > DIGEST_CHARS:
        flat = flat[: DIGEST_CHARS - 1].rstrip() + "…"
    return f"- {speaker}: {flat}"


def _rank_by_session(tasks: list[MemoryLine], sessions: list[SessionActivity]) -> list[MemoryLine]:
    """Tasks (a type that ranks lower after its session) of the newest session first, then each older
    session's, newest task first within one.

    A task remembered outside any session belongs to no session a newer one could outdate, so it ranks
    with the newest session's.
    """
    order = {s.id: i for i, s in enumerate(sessions)}
    # sorted() is stable and the input is newest first, so tasks of one session keep that order.
    return sorted(tasks, key=lambda t: order.get(t.session_id, 0) if t.session_id is not None else 0)


async def _type_lines(
    db: AsyncSession, profile_id: int, rules: TypePolicy, anchor: datetime, sessions: list[SessionActivity]
) -> list[MemoryLine]:
    """The candidate memories of one type's section, most important first."""
    if rules.summary_lines is SummaryLines.TOPIC_KEYED_FIRST:
        lines = _lasting_first(await repository.topic_keyed_first(db, profile_id, rules.type, MAX_LINES))
    elif rules.summary_lines is SummaryLines.RECENT_DATED:
        since = anchor - timedelta(days=RECENT_DAYS)
        lines = await repository.dated_since(db, profile_id, rules.type, since, MAX_LINES)
    else:
        lines = await repository.newest_of_type(db, profile_id, rules.type, MAX_LINES)
    return _rank_by_session(lines, sessions) if rules.ranks_lower_after_its_session else lines


async def _last_session_lines(db: AsyncSession, profile_id: int, session_id: str | None) -> list[str]:
    if session_id is None:
        return []
    memories = await repository.session_memories(db, profile_id, session_id, MAX_LINES)
    if memories:
        return [_bullet(m) for m in _telling(memories, LAST_SESSION_LINES)]
    messages = await repository.last_messages(db, profile_id, session_id, DIGEST_MESSAGES)
    return [_digest_line(m) for m in messages]


async def build_summary(
    db: AsyncSession, profile: Profile, session_id: str | None = None, response_length: str = "medium"
) -> str:
    """The profile's Markdown summary; `""` when it holds nothing to summarise. `response_length` scales
    its budget."""
    sessions = await repository.sessions_by_recency(db, profile.id)
    anchor = sessions[0].last_at if sessions else datetime.now(UTC)
    last_session = session_id if session_id is not None else (sessions[0].id if sessions else None)

    placed: list[tuple[int, _Section]] = []
    for rules in POLICIES:
        lines = await _type_lines(db, profile.id, rules, anchor, sessions)
        section = _Section(rules.summary_section, _bullets(lines), chronological=rules.summary_chronological)
        placed.append((rules.summary_position, section))
    last_lines = await _last_session_lines(db, profile.id, last_session)
    placed.append((LAST_SESSION_POSITION, _Section(LAST_SESSION, last_lines, chronological=True)))
    sections = [section for _, section in sorted(placed, key=lambda item: item[0])]
    _allocate(sections, round(SUMMARY_TOKENS * BUDGET_SCALE[response_length]))
    return "\n\n".join(s.render() for s in sections if s.taken)
