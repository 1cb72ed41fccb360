"""What kind of answer a question asks for, and whether a memory holds one: a feature of the second stage.

A question's wh-word says what its answer is (classic question answering: `when` → a time, `where` → a
place, `who` → a person, `how many` → a number), and the memory that answers it holds one, whatever words
it shares with the question: "When do you start?" — "First of February"; "Where is the shop?" — "a little
unit on Harlow Street". Among candidates that match the question equally, the one holding the kind of
thing asked for is likelier the answer. The patterns are general English (month and day names, number
words, place nouns, kinship words), not words of any conversation.
"""

from __future__ import annotations

import re
from enum import Enum

from app.recall.repository import Candidate


class AnswerType(Enum):
    TIME = "time"
    NUMBER = "number"
    PLACE = "place"
    PERSON = "person"


_I = re.IGNORECASE

# The first that matches decides: "how long ago" asks for a time, "how long" for a number.
_ASKS: list[tuple[AnswerType, re.Pattern[str]]] = [
    (
        AnswerType.TIME,
        re.compile(
            r"\b(?:when|what\s+(?:year|month|day|date|time)|which\s+(?:year|month|day|date)|how\s+long\s+ago)\b",
            _I,
        ),
    ),
    (AnswerType.NUMBER, re.compile(r"\bhow\s+(?:many|much|long|old|far|often|tall|big)\b", _I)),
    (
        AnswerType.PLACE,
        re.compile(
            r"\b(?:where|which\s+(?:city|country|town|place|state|island|village|restaurant|shop|store|hotel"
            r"|beach|park))\b",
            _I,
        ),
    ),
    (AnswerType.PERSON, re.compile(r"\b(?:who|whom|whose)\b", _I)),
]

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
    "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|yesterday|today|tomorrow|tonight"
_HOLDS: dict[AnswerType, re.Pattern[str]] = {
    AnswerType.TIME: re.compile(
        rf"\b(?:{_MONTHS}|{_DAYS}|(?:19|20)\d\d|\d{{1,2}}(?:st|nd|rd|th)|ago|last\s+(?:week|month|year|night)"
        r"|next\s+(?:week|month|year)|this\s+(?:week|month|year|morning|evening)|christmas|easter|birthday"
        r"|summer|winter|spring|autumn|fall)\b",
        _I,
    ),
    AnswerType.NUMBER: re.compile(
        r"\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty"
        r"|forty|fifty|hundred|thousand|million|dozen|couple|half)\b",
        _I,
    ),
    # A capitalised name after a preposition of place, or a place noun.
    AnswerType.PLACE: re.compile(
        r"(?:\b(?i:in|at|to|from|near|around|visit(?:ed|ing)?|moved\s+to)\s+(?:the\s+)?[A-Z][a-z]+)"
        r"|\b(?i:street|road|lane|avenue|square|park|city|town|village|country|island|beach|lake|river|mountain"
        r"|cafe|café|restaurant|shop|store|market|hotel|airport|station|school|university|college|hospital"
        r"|clinic|church|museum|gallery|gym|pub|bar|office|library|farm|garden|abroad)s?\b"
    ),
    # A capitalised word inside a sentence (a name), or a word for a person by their relation.
    AnswerType.PERSON: re.compile(
        r"(?<![.!?:]\s)(?<!^)\b[A-Z][a-z]{2,}\b|\b(?i:mum|mom|mother|dad|father|sister|brother|wife|husband|son"
        r"|daughter|aunt|uncle|cousin|niece|nephew|gran|grandma|grandmother|grandpa|grandfather|friend|boss"
        r"|colleague|coworker|neighbou?r|partner|boyfriend|girlfriend|fianc[eé]e?|teacher|doctor|coach)s?\b"
    ),
}
_SPEAKER_PREFIX = re.compile(r"^[^:]{1,40}:\s")


def asked_for(question: str) -> AnswerType | None:
    """The kind of answer the question asks for, if its wh-word says."""
    for kind, pattern in _ASKS:
        if pattern.search(question):
            return kind
    return None


def holds(kind: AnswerType, memory: Candidate) -> bool:
    """Whether the memory holds an answer of that kind (a dated memory holds a time)."""
    if kind is AnswerType.TIME and memory.event_time is not None:
        return True
    # The speaker's name before the statement ("Owen: …") is who said it, not a person it names.
    return bool(_HOLDS[kind].search(_SPEAKER_PREFIX.sub("", memory.content, count=1)))
