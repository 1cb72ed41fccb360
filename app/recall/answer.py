"""The extractive answer of recall (no LLM): the sentence(s) that answer the question, nothing else.

The best candidate always answers. Another one joins it only when it answers the same question: it is
about the same thing (it holds a word of the question that the best one holds too, other than the name of
the person asked about), or it happened inside the time window the question names, or the question asks for a list ("Which cities has Ana lived in?") and it holds a word of the
question. It must also score close to the best. Never padding from other topics. Each sentence is the
memory's summary, in the memory's own language, deduplicated, its date made absolute, within the token
budget of `responseLength`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from datetime import datetime

from app.core.dates import format_date
from app.core.tokens import estimate_tokens
from app.language.detect import detect
from app.language.languages import ANSWERS
from app.language.speakers import GENERIC_SPEAKERS
from app.llm.answers import ANSWER_TOKENS
from app.recall.repository import Candidate

# Candidates besides the best one: only those scoring at least this share of its score, and at most this
# many in all (a list question may take the budget's worth).
ANSWER_CLOSE = 0.6
ANSWER_MAX = {"short": 2, "medium": 3, "long": 8}
# The speakers every profile has, whatever the names in its memories.
_GENERIC_NAMES = frozenset(label.lower() for label in GENERIC_SPEAKERS.values())
_YEAR_RE = re.compile(r"\b(19|20)\d\d\b")
_WORD_RE = re.compile(r"\w+")


def _speakers(rows: Sequence[Candidate]) -> set[str]:
    """The lower-case names (each part) of the people speaking in these memories, and the generic ones."""
    names = {part for row in rows if (s := row.speaker) for part in s.lower().split()}
    return names | _GENERIC_NAMES


@functools.cache
def _list_question(language: str) -> re.Pattern[str] | None:
    words = ANSWERS.get(language)
    return re.compile(words.list_asked, re.IGNORECASE) if words and words.list_asked else None


def asks_for_a_list(question: str, language: str) -> bool:
    """Whether the question (in `language`) wants every item, not the best one ("Which cities…", "List…":
    `list_asked` of its language's `ANSWERS`)."""
    pattern = _list_question(language)
    return pattern is not None and pattern.search(question) is not None


def dated(row: Candidate) -> str:
    """The memory's summary with its date, when it has one the summary does not already give, written as
    the summary's language writes a date."""
    summary = row.summary.strip()
    if row.event_time is not None and not _YEAR_RE.search(summary):
        day = format_date(row.event_time, detect(summary).code)
        summary = f"{summary.rstrip('.')} ({day})"
    return summary


def _shown(terms: set[str], summary: str) -> set[str]:
    """The question terms (stems) a summary shows, not only its content or searchable context: each one a
    word of the summary starts with ("happi" for "happy")."""
    words = _WORD_RE.findall(summary.lower())
    return {t for t in terms if any(w.startswith(t.removesuffix("i") or t) for w in words)}


def _answers_too(
    row: Candidate,
    best: Candidate,
    topic_terms: set[str],
    speakers: set[str],
    window: tuple[datetime, datetime] | None,
    listing: bool,
) -> bool:
    """Whether `row` answers the question the best candidate answers."""
    shown = _shown(set(row.memory_terms), row.summary)
    if topic_terms & shown:
        return True
    if listing and any(not any(name.startswith(t) for name in speakers) for t in shown):
        return True
    if window is not None and row.event_time is not None and best.event_time is not None:
        start, end = window
        return start <= row.event_time < end and start <= best.event_time < end
    return False


def compose_answer(
    rows: Sequence[Candidate],
    length: str,
    scores: Sequence[float] | None = None,
    *,
    listing: bool = False,
    window: tuple[datetime, datetime] | None = None,
) -> str:
    """The answer from the ranked candidates (best first) and their scores (the best's is 1); `listing`:
    the question asks for a list (`asks_for_a_list`)."""
    if not rows:
        return ""
    budget = ANSWER_TOKENS[length]
    best = rows[0]
    # A question term that starts a speaker's name says who is asked about, not what.
    speakers = _speakers(rows)
    named = {t for t in best.memory_terms if any(name.startswith(t) for name in speakers)}
    topic_terms = _shown(set(best.memory_terms) - named, best.summary)
    most = ANSWER_MAX["long"] if listing else ANSWER_MAX[length]
    parts: list[str] = []
    seen: set[str] = set()
    used = 0
    for index, row in enumerate(rows):
        if parts:
            if len(parts) >= most or (scores is not None and scores[index] < ANSWER_CLOSE):
                break
            if not _answers_too(row, best, topic_terms, speakers, window, listing):
                continue
        sentence = dated(row)
        key = re.sub(r"\W+", " ", sentence.lower()).strip()
        if not key or key in seen:
            continue
        cost = estimate_tokens(sentence)
        if parts and used + cost > budget:
            break
        seen.add(key)
        parts.append(sentence if sentence.endswith((".", "!", "?", "。", "！", "？")) else sentence + ".")
        used += cost
    return " ".join(parts)
