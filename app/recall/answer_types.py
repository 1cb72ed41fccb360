"""What kind of answer a question asks for, and whether a memory holds one: a feature of the second stage.

A question's wh-word says what its answer is (classic question answering: `when` → a time, `where` → a
place, `who` → a person, `how many` → a number), and the memory that answers it holds one, whatever words
it shares with the question: "When do you start?" — "First of February"; "Where is the shop?" — "a little
unit on Harlow Street". Among candidates that match the question equally, the one holding the kind of
thing asked for is likelier the answer. The patterns are general English (the calendar's words, number
words, place nouns, kinship words), not words of any conversation.
"""

from __future__ import annotations

import re
import string
from enum import Enum

from app.language.languages.en.lexicon import words
from app.language.temporal import CALENDAR_WORDS
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

_TIME_WORDS = CALENDAR_WORDS | words(
    "weekend yesterday today tomorrow tonight ago christmas xmas easter halloween thanksgiving eve birthday"
)
_RELATIVE = words("last next this")
_PERIODS = words("week month year night morning evening weekend")
_NUMBER_WORDS = words(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred"
    " thousand million dozen couple half"
)
_PLACE_PREPOSITIONS = words("in at to from near around visit visited visiting")
_PLACE_NOUNS = words(
    "street road lane avenue square park city town village country island beach lake river mountain cafe café"
    " restaurant shop store market hotel airport station school university college hospital clinic church"
    " museum gallery gym pub bar office library farm garden abroad"
)
_PEOPLE_NOUNS = words(
    "mum mom mother dad father sister brother wife husband son daughter aunt uncle cousin niece nephew gran"
    " grandma grandmother grandpa grandfather friend boss colleague coworker neighbour neighbor partner"
    " boyfriend girlfriend fiance fiancé fiancee fiancée teacher doctor coach"
)
_ORDINAL = re.compile(r"\d{1,2}(?:st|nd|rd|th)")
_YEAR = re.compile(r"(?:19|20)\d\d")
# A capitalised word inside a sentence: a name (sentence starts and the speaker's prefix excluded).
_NAME = re.compile(r"[^.!?:\s]\s+[A-Z][a-z]{2,}")
# Punctuation to spaces (apostrophes kept: "There's" stays one word), then words split on spaces: one pass
# of C string methods, several times cheaper than the word-list regular expressions it replaces.
_PUNCTUATION = str.maketrans({c: " " for c in string.punctuation if c != "'"})


def asked_for(question: str) -> AnswerType | None:
    """The kind of answer the question asks for, if its wh-word says."""
    for kind, pattern in _ASKS:
        if pattern.search(question):
            return kind
    return None


def _with_plurals(words: frozenset[str]) -> frozenset[str]:
    return words | {w + "s" for w in words}


_PLACES = _with_plurals(_PLACE_NOUNS)
_PEOPLE = _with_plurals(_PEOPLE_NOUNS)
_DIGIT = re.compile(r"\d")


def holds(kind: AnswerType, memory: Candidate) -> bool:
    """Whether the memory holds an answer of that kind (a dated memory holds a time)."""
    if kind is AnswerType.TIME and memory.event_time is not None:
        return True
    # The speaker's name before the statement ("Owen: …") is who said it, not a person it names.
    body = memory.content
    if memory.speaker and body.startswith(memory.speaker):
        rest = body[len(memory.speaker) :].lstrip()
        body = rest[1:] if rest[:1] in (":", "：") else body
    tokens = body.lower().translate(_PUNCTUATION).split()
    present = set(tokens)
    digits = _DIGIT.search(body) is not None
    if kind is AnswerType.TIME:
        return bool(
            present & _TIME_WORDS
            or (
                digits
                and any(t[0].isdigit() and (_YEAR.fullmatch(t) or _ORDINAL.fullmatch(t)) for t in tokens)
            )
            or (
                present & _RELATIVE
                and any(a in _RELATIVE and b in _PERIODS for a, b in zip(tokens, tokens[1:], strict=False))
            )
        )
    if kind is AnswerType.NUMBER:
        return digits or bool(present & _NUMBER_WORDS)
    if kind is AnswerType.PLACE:
        if present & _PLACES:
            return True
        if not present & _PLACE_PREPOSITIONS:
            return False
        cased = body.translate(_PUNCTUATION).split()
        return any(
            a.lower() in _PLACE_PREPOSITIONS and b[0].isupper() and b != "I"
            for a, b in zip(cased, cased[1:], strict=False)
        )
    return bool(present & _PEOPLE) or _NAME.search(body) is not None
