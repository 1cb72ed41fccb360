"""Recall's second and third round trips: `channels` runs every lexical channel in one statement and
returns the candidates with their details; `details` fetches those of the candidates only the semantic
channel found."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from app.core.db import Reads, driver_fetch
from app.core.profiled_text import (
    key_query,
    phrase_query,
    quote_lexeme,
)

if TYPE_CHECKING:
    pass
from app.recall.repository.analysis import Analysis, TableStats, Visible, _with_visible
from app.recall.repository.channel_sql import _SEMANTIC_DETAILS, Shape, _channels_sql


@dataclass(frozen=True)
class Terms:
    """A query's terms with their weights: lexemes and phrases (tsquery text)."""

    lexemes: list[tuple[str, float]]
    phrases: list[tuple[str, float]]

    def params(self) -> dict[str, Any]:
        """The lexemes as `_TERMS` takes them."""
        return {
            "lexemes": [x for x, _ in self.lexemes],
            "weights": [w for _, w in self.lexemes],
            "lexeme_queries": [quote_lexeme(x) for x, _ in self.lexemes],
        }

    def any_query(self) -> str:
        """One OR tsquery of every term, to find the rows worth scoring."""
        return _or([quote_lexeme(x) for x, _ in self.lexemes] + [f"({q})" for q, _ in self.phrases])

    def scan(self, name: str, profile_id: int, stats: TableStats) -> tuple[Shape, dict[str, Any]]:
        """The shape and parameters of one `_ranked` channel: which terms the index looks up, whether the
        common ones are matched in the newest rows, their df estimates, and N."""
        common = stats.common([x for x, _ in self.lexemes])
        rare = [key_query(profile_id, x) for x, _ in self.lexemes if x not in common]
        looked_up = _or(rare + [phrase_query(profile_id, q) for q, _ in self.phrases])
        shape = Shape(exact=stats.exact, gin=bool(looked_up), walk=bool(common))
        return shape, {
            f"{name}_gin": looked_up or None,
            f"{name}_cap": stats.cap,
            f"{name}_est": [common.get(x) for x, _ in self.lexemes],
            f"{name}_n": stats.rows,
        }


def _or(parts: list[str]) -> str:
    return " | ".join(parts)


# Not frozen: a frozen dataclass sets each field through `object.__setattr__`, eight times the cost of a
# slotted one's plain stores, for a hundred candidates a recall (≈ 0.25 ms).
@dataclass(slots=True)
class Candidate:
    """A memory some channel found, with what the fusion, the second stage and the answer read of it."""

    id: str
    type: str
    summary: str
    content: str
    session_id: str | None
    event_time: datetime | None
    created_at: datetime
    sources: list[str]  # "session/message" ids
    seq: int | None  # its first source's place in its session
    told_at: datetime | None
    memory_terms: list[str]  # query terms its own text holds
    message_terms: list[str]  # query terms its source messages hold
    by_agent: bool = False  # the agent's own words (`app.memories.repository.agent_words`)
    speaker: str | None = None  # who said it (stored at ingest; None: no name was given)


@dataclass
class Channels:
    """Each channel's memory ids, best first (topic hits with their keys), and every candidate's details
    (the semantic channel's added from `details`)."""

    memory: list[str] = field(default_factory=list)
    message: list[str] = field(default_factory=list)
    topic: list[tuple[str, str]] = field(default_factory=list)
    window: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    near: list[str] = field(default_factory=list)  # next to the best full-text hits in their sessions
    typed: list[str] = field(default_factory=list)  # of the types the question names, newest first
    df: dict[str, int] = field(default_factory=dict)  # memories of the profile holding each query term
    candidates: dict[str, Candidate] = field(default_factory=dict)
    latest_session: str | None = None  # the profile's most recently active session


async def channels(
    db: Reads,
    profile_id: int,
    terms: Terms,
    analysis: Analysis,
    words: list[str],
    window: tuple[datetime, datetime] | None,
    width: int,
    visible: Visible = Visible(),
    timeout: float | None = None,
    *,
    ahead: bool = False,
    types: list[str] | None = None,
) -> Channels:
    """Every channel's hits and the candidates' details, in one statement. `ahead`: the window lies after
    the question's today, so its events come soonest first; `types`: the types the question names."""
    params: dict[str, Any] = {
        "p": profile_id,
        **terms.params(),
        "phrases": [x for x, _ in terms.phrases],
        "phrase_weights": [w for _, w in terms.phrases],
        "anyq": terms.any_query(),
        "words": words,
        "start": window[0] if window else None,
        "end": window[1] if window else None,
        "width": width,
        "types": types or [],
    }
    mem_shape, mem_params = terms.scan("mem", profile_id, analysis.memories)
    msg_shape, msg_params = terms.scan("msg", profile_id, analysis.messages)
    params.update(mem_params)
    params.update(msg_params)
    found = Channels()
    result = await driver_fetch(
        db,
        _with_visible(
            _channels_sql(
                mem_shape, msg_shape, None if window is None else "ahead" if ahead else "behind", bool(types)
            ),
            visible,
            params,
        ),
        params,
        timeout,
    )
    hits: dict[str, list[tuple[float, str, str | None]]] = defaultdict(list)
    # Unpacked by position (the channel's columns, then the details' in Candidate's field order): a hundred
    # rows a recall, where lookups by name cost a millisecond.
    for channel, memory_id, score, topic_key, latest_session, *detail in result:
        if channel == "df":
            found.df[memory_id] = int(score)
        elif channel == "latest":
            found.latest_session = latest_session
        else:
            hits[channel].append((score, memory_id, topic_key))
            if detail[0] is not None and memory_id not in found.candidates:
                found.candidates[memory_id] = Candidate(*detail)
    # Each channel best first, as its SQL ranked it (score, then the newer id): the rows of a UNION ALL and
    # its joins come in no promised order.
    for ranked in hits.values():
        ranked.sort(reverse=True)
    found.memory = [memory_id for _, memory_id, _ in hits["memory"]]
    found.message = [memory_id for _, memory_id, _ in hits["message"]]
    found.window = [memory_id for _, memory_id, _ in hits["window"]]
    found.told = [memory_id for _, memory_id, _ in hits["told"]]
    found.near = [memory_id for _, memory_id, _ in hits["near"]]
    found.typed = [memory_id for _, memory_id, _ in hits["type"]]
    found.topic = [(memory_id, key) for _, memory_id, key in hits["topic"] if key is not None]
    return found


async def details(
    db: Reads,
    profile_id: int,
    terms: Terms,
    ids: list[str],
    visible: Visible = Visible(),
    timeout: float | None = None,
) -> dict[str, Candidate]:
    """The details of memories `channels` did not find (the semantic channel's `ids`), as it reads its own
    candidates', in one statement; a memory the visibility rules leave out has none."""
    params: dict[str, Any] = {"p": profile_id, **terms.params(), "ids": ids}
    rows = await driver_fetch(db, _with_visible(_SEMANTIC_DETAILS, visible, params), params, timeout)
    return {row[0]: Candidate(*row) for row in rows}
