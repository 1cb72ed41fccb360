"""The one time parser: the time a text names, in its language, resolved to a period and an instant.

Two consumers share it: the extractor, which stamps an event with the moment its statement refers to
(``resolve_event_time``), and recall, which turns "yesterday", "¿qué hice ayer?" or "上周四" in a
question into a window relative to the reference date (``time_phrase``, ``resolve_time_window``). Both go
through the same rules so that an event stored as "last week" (or "la semana pasada") falls inside the
window a question about "last week" asks for. A language's own words find the expressions (English's
patterns in `app.language.languages.en`, every other language's `TimeWords` in its module, read by
`app.language.time_words`); `app.language.time_mentions` resolves them, once for all: questions lean to
the past unless they speak of the future, a weekday without "next" or "last" is its nearest occurrence
in a statement, "next" and "last" are as said, a habit ("every Thursday", "los jueves") names no day.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache

from app.language import time_words
from app.language.detect import detect, likeliest
from app.language.languages import NO_TIME_WORDS, TIME_WORDS
from app.language.languages import en as english
from app.language.languages.en import CALENDAR_WORDS, PERIOD_WORDS, detect_tense, names_a_holiday
from app.language.time_mentions import Builder, Tense, TimeMention, at_day, in_calendar

__all__ = [
    "CALENDAR_WORDS",
    "PERIOD_WORDS",
    "TimeMention",
    "detect_tense",
    "find_time",
    "names_a_day",
    "names_a_holiday",
    "resolve_event_time",
    "resolve_time_window",
    "time_phrase",
]
RECENT_DAYS = 31
UPCOMING_DAYS = 366


def find_time(
    text: str,
    anchor: datetime,
    *,
    tense: Tense | None = None,
    language: str | None = None,
    leaning: bool = False,
    question: bool = False,
) -> TimeMention | None:
    """The first time expression in ``text`` (in `language`, an ISO 639-1 code; English when None),
    resolved against ``anchor``, or None.

    Overlapping matches keep the longest ("Monday, 8 May 2023" beats "8 May"), then the earliest in the
    text wins: statements usually lead with the time they are about. English returns at once (a few
    microseconds) on text with no time cue. `tense`: the text's, when known; otherwise English reads it
    from the text, and another language takes the nearer of the last and the next occurrence. `leaning`:
    `tense` is a question's lean, not said by its words; `question`: `text` is a recall question.
    """
    if language is None or language == "en":
        cues = english.Cues(text) if text.isascii() else None
        if not (cues.gate() if cues is not None else english.GATE_RE.search(text)):
            return None
        return _find_english(text, anchor, tense, cues is not None, leaning, question)
    return _find_in(text, anchor, tense, language, leaning, question)


def _best(found: list[TimeMention]) -> TimeMention | None:
    found = [t for t in found if in_calendar(t.start, t.end, t.point)]
    if not found:
        return None
    found.sort(key=lambda t: (t.span[0], -(t.span[1] - t.span[0])))
    best = found[0]
    for other in found[1:]:
        if other.span[0] >= best.span[1]:
            break
        if other.span[1] - other.span[0] > best.span[1] - best.span[0]:
            best = other
    return best


# The extractor asks twice about the same sentence (its time, then its summary without a relative time).
@lru_cache(maxsize=256)
def _find_english(
    text: str, anchor: datetime, tense: Tense | None, ascii_text: bool, leaning: bool, question: bool
) -> TimeMention | None:
    b = Builder(anchor, text, tense, detect_tense, leaning=leaning, question=question)
    try:
        best = _best(english.candidates(text, b, english.Cues(text) if ascii_text else None))
    except (OverflowError, ValueError):
        # Date arithmetic near year 1 or 9999 leaves Python's calendar: no time we could name.
        return None
    return None if best is None else english.with_clock(text, english.narrowed(text, best))


@lru_cache(maxsize=256)
def _find_in(
    text: str, anchor: datetime, tense: Tense | None, language: str, leaning: bool, question: bool
) -> TimeMention | None:
    words = TIME_WORDS.get(language, NO_TIME_WORDS)
    b = Builder(anchor, text, tense, leaning=leaning, question=question)
    try:
        return _best(time_words.candidates(text, b, words))
    except (OverflowError, ValueError):
        return None


def resolve_event_time(text: str, anchor: datetime, language: str | None = None) -> datetime | None:
    """The moment a statement refers to ("yesterday", "last Friday", "on 8 May", "el jueves pasado",
    "上周四"), or None."""
    mention = find_time(text, anchor, language=language)
    return mention.point if mention else None


# Whether a text names a day does not depend on the day it is read against.
_ANY_DAY = datetime(2000, 1, 1)


def names_a_day(text: str, language: str | None = None) -> bool:
    """Whether a statement in `language` (None: in any language the service has words for) names a
    time, as `find_time` reads one."""
    codes = [language] if language is not None else ["en", *TIME_WORDS]
    return any(find_time(text, _ANY_DAY, language=code) is not None for code in codes)


def resolve_time_window(query: str, reference: datetime) -> tuple[datetime, datetime] | None:
    """The period a recall question is about, as ``[start, end)``, or None when it names none.

    Questions lean to the past ("What did she do in May?" asked in March means
    last May), unless they are explicitly about the future.
    """
    found = time_phrase(query, reference)
    return found[0] if found else None


def time_phrase(
    query: str, reference: datetime, language: str | None = None
) -> tuple[tuple[datetime, datetime], tuple[int, int]] | None:
    """The period a recall question is about (``resolve_time_window``) and the span of the words that
    name it, which are not what to search for: a time ("in May", "two days ago", "hace dos semanas"), or,
    in English, "recently" (the last month) and "coming up" (the year ahead) in a question that names no
    time. `language`: the question's (detected when None)."""
    code = language or detect(query).code
    if code == "en" and find_time(query, reference) is None:
        # Read as English for want of confidence ("¿Qué hice anteayer?"): the words of the languages it is
        # likeliest to be in, most likely first; the first whose words name a time reads it.
        code = next((c for c in likeliest(query) if find_time(query, reference, language=c)), "en")
    if code != "en":
        words = TIME_WORDS.get(code, NO_TIME_WORDS)
        said = time_words.tense_said(query, words)
        mention = find_time(
            query, reference, tense=said or "past", language=code, leaning=said is None, question=True
        )
        return ((mention.start, mention.end), mention.span) if mention is not None else None
    future = english.FUTURE_RE.search(query) is not None
    said_past = not future and detect_tense(query) == "past"
    tense: Tense = "future" if future else "past"
    mention = find_time(query, reference, tense=tense, leaning=not (future or said_past), question=True)
    if mention is not None:
        return (mention.start, mention.end), mention.span
    if english.WHEN_RE.search(query):
        return None
    today = reference.date()
    try:
        if m := english.RECENT_RE.search(query):
            end = at_day(today, reference) + timedelta(days=1)
            window = (end - timedelta(days=RECENT_DAYS), end)
        elif (m := english.UPCOMING_RE.search(query)) and detect_tense(query) != "past":
            start = at_day(today, reference)
            window = (start, start + timedelta(days=UPCOMING_DAYS))
        else:
            return None
    except OverflowError:  # within a month (a year) of year 1 or past 9999
        return None
    return (window, m.span()) if in_calendar(*window) else None
