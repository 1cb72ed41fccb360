"""What kind of answer a question asks for, and whether a memory holds one: a feature of the second stage.

A question's wh-word says what its answer is (classic question answering: `when` → a time, `where` → a
place, `who` → a person, `how many` → a number), and the memory that answers it holds one, whatever words
it shares with the question: "When do you start?" — "First of February"; "Where is the shop?" — "a little
unit on Harlow Street". Among candidates that match the question equally, the one holding the kind of
thing asked for is likelier the answer. The words are each language's (`ANSWERS` of its module,
`app.language.answer_words`), read in the question's language; a language without them asks for nothing
this feature sees, and its candidates are ranked by the others.
"""

from __future__ import annotations

import functools
import re
import string
from dataclasses import dataclass
from enum import Enum

from app.language.answer_words import AnswerWords
from app.language.languages import ANSWERS, TIME_WORDS
from app.language.languages import en as english
from app.language.speakers import CAPITAL, SMALL
from app.recall.repository import Candidate


class AnswerType(Enum):
    TIME = "time"
    NUMBER = "number"
    PLACE = "place"
    PERSON = "person"


_YEAR = re.compile(r"(?:19|20)\d\d")
_DIGIT = re.compile(r"\d")
# Punctuation to spaces (apostrophes kept: "There's" stays one word), then words split on spaces: one pass
# of C string methods, several times cheaper than the word-list regular expressions it replaces.
_PUNCTUATION = str.maketrans({c: " " for c in string.punctuation if c != "'"})


@dataclass(frozen=True)
class _Compiled:
    asks: list[tuple[AnswerType, re.Pattern[str]]]
    times: frozenset[str]
    relative: frozenset[str]
    periods: frozenset[str]
    relative_follows: bool
    numbers: frozenset[str]
    places: frozenset[str]
    place_before: frozenset[str]
    people: frozenset[str]
    ordinal: re.Pattern[str] | None
    # A capitalised word inside a sentence: a name (sentence starts and the speaker's prefix excluded).
    name: re.Pattern[str] | None
    # Unspaced languages: each class's words found anywhere.
    anywhere: dict[AnswerType, re.Pattern[str]]


def _set(text: str) -> frozenset[str]:
    return frozenset(text.lower().split())


def _plural(words: frozenset[str], ending: str) -> frozenset[str]:
    return words | {w + ending for w in words} if ending else words


def _calendar(code: str) -> frozenset[str]:
    """The calendar's words of the language: its weekdays, months and seasons (English's its own)."""
    if code == "en":
        return english.CALENDAR_WORDS
    time = TIME_WORDS[code]
    entries = ";".join(filter(None, (time.weekdays, time.weekdays_short, time.months, time.seasons)))
    return frozenset(w for entry in entries.split(";") for w in entry.lower().split("|") if " " not in w)


@functools.cache
def _compiled(code: str) -> _Compiled | None:
    words: AnswerWords | None = ANSWERS.get(code)
    if words is None:
        return None
    flags = re.IGNORECASE
    edge = (lambda p: p) if words.unspaced else (lambda p: rf"\b(?:{p})\b")
    asks = [
        (kind, re.compile(edge(phrases.replace(" ", r"\s+")), flags))
        for kind, phrases in (
            (AnswerType.TIME, words.time_asked),
            (AnswerType.NUMBER, words.number_asked),
            (AnswerType.PLACE, words.place_asked),
            (AnswerType.PERSON, words.person_asked),
        )
        if phrases
    ]
    times = _calendar(code) | _set(words.times)
    anywhere: dict[AnswerType, re.Pattern[str]] = {}
    if words.unspaced:
        for kind, found in (
            (AnswerType.TIME, times),
            (AnswerType.NUMBER, _set(words.numbers)),
            (AnswerType.PLACE, _set(words.places)),
            (AnswerType.PERSON, _set(words.people)),
        ):
            if found:
                anywhere[kind] = re.compile("|".join(map(re.escape, sorted(found, key=len, reverse=True))))
    return _Compiled(
        asks=asks,
        times=times,
        relative=_set(words.relative),
        periods=_set(words.periods),
        relative_follows=words.relative_follows,
        numbers=_set(words.numbers),
        places=_plural(_set(words.places), words.plural),
        place_before=_set(words.place_before),
        people=_plural(_set(words.people), words.plural),
        ordinal=re.compile(words.ordinal) if words.ordinal else None,
        name=re.compile(rf"[^.!?:\s]\s+{CAPITAL}{SMALL}{{2,}}") if words.names_capitalised else None,
        anywhere=anywhere,
    )


def _relative_period(tokens: list[str], compiled: _Compiled) -> bool:
    """Whether a relative word stands before a period ("last week"), or after it where the language puts
    it there ("semana pasada")."""
    relative, periods = compiled.relative, compiled.periods
    for a, b in zip(tokens, tokens[1:], strict=False):
        if (a in relative and b in periods) or (compiled.relative_follows and a in periods and b in relative):
            return True
    return False


def asked_for(question: str, language: str) -> AnswerType | None:
    """The kind of answer the question (in `language`, ISO 639-1) asks for, if its question word says."""
    compiled = _compiled(language)
    if compiled is None:
        return None
    for kind, pattern in compiled.asks:
        if pattern.search(question):
            return kind
    return None


def holds(kind: AnswerType, memory: Candidate, language: str) -> bool:
    """Whether the memory holds an answer of that kind (a dated memory holds a time), read with the words
    of `language`, the question's."""
    if kind is AnswerType.TIME and memory.event_time is not None:
        return True
    compiled = _compiled(language)
    if compiled is None:
        return False
    # The speaker's name before the statement ("Owen: …") is who said it, not a person it names.
    body = memory.content
    if memory.speaker and body.startswith(memory.speaker):
        rest = body[len(memory.speaker) :].lstrip()
        body = rest[1:] if rest[:1] in (":", "：") else body
    digits = _DIGIT.search(body) is not None
    if (pattern := compiled.anywhere.get(kind)) is not None and pattern.search(body):
        return True
    if kind is AnswerType.NUMBER and digits:
        return True
    tokens = body.lower().translate(_PUNCTUATION).split()
    present = set(tokens)
    if kind is AnswerType.TIME:
        ordinal = compiled.ordinal
        return bool(
            present & compiled.times
            or (
                digits
                and any(
                    t[0].isdigit() and (_YEAR.fullmatch(t) or (ordinal is not None and ordinal.fullmatch(t)))
                    for t in tokens
                )
            )
            or (present & compiled.relative and _relative_period(tokens, compiled))
        )
    if kind is AnswerType.NUMBER:
        return bool(present & compiled.numbers)
    if kind is AnswerType.PLACE:
        if present & compiled.places:
            return True
        if not present & compiled.place_before:
            return False
        cased = body.translate(_PUNCTUATION).split()
        return any(
            a.lower() in compiled.place_before and b[0].isupper() and b != "I"
            for a, b in zip(cased, cased[1:], strict=False)
        )
    return bool(present & compiled.people) or (
        compiled.name is not None and compiled.name.search(body) is not None
    )
