"""The shape of a statement in a language with a module, read from its grammar rather than its topic:
whether it is a hypothetical ("si me tocara la lotería…", "要是我中了五百万…"), a request to the agent
("explícame…", "erklär mir…", "…教えて"), a standing condition ("cuando te pida…", "…的时候"), a past action
(a preterite, a perfect, "了", a clause closing on た) and whether it speaks of the speaker (first-person
pronouns, possessives, verb forms).

Each language module holds these as regular expressions on the statement's lower-cased text
(`SHAPES`: `app.language.parts`); a language without one
names it in its `LACKS`, and then no statement of it is read as having that shape (nothing is dropped for
want of a rule).
"""

from __future__ import annotations

import functools
import re

from app.language.languages import MODULES

# What may open a statement before its words: punctuation, emoji, quotes.
_LEADING_RE = re.compile(r"^[\W_]+")
# A shape is read in a statement's opening and its close, this many characters of each: a chat statement's
# shape is there, and the work of a pattern with a clause between two words ("wenn … würde") stays bounded
# however long the text (a longer one is read as its two ends, a line apart).
SHAPE_WINDOW = 300


def _window(text: str) -> str:
    text = _LEADING_RE.sub("", text.strip().lower())
    if len(text) <= 2 * SHAPE_WINDOW:
        return text
    return text[:SHAPE_WINDOW] + "\n" + text[-SHAPE_WINDOW:]


@functools.cache
def _pattern(code: str, part: str) -> re.Pattern[str] | None:
    module = MODULES.get(code)
    source = getattr(module, part, None) if module is not None else None
    return re.compile(source) if source else None


def _has(text: str, code: str, part: str) -> bool:
    pattern = _pattern(code, part)
    if pattern is None:
        return False
    return pattern.search(_window(text)) is not None


def is_hypothetical(text: str, code: str) -> bool:
    """A statement of what would be, not of what is: an if-clause of the irrealis, "imagine if…"."""
    return _has(text, code, "HYPOTHETICAL")


def is_request(text: str, code: str) -> bool:
    """A statement that asks the agent to do something (an imperative to it, "can you…", a prohibition)."""
    return _has(text, code, "REQUEST") or _has(text, code, "PROHIBITION")


def is_prohibition(text: str, code: str) -> bool:
    """A statement that tells the agent not to do something ("no me pongas emojis", "以后别…", "쓰지 마")."""
    return _has(text, code, "PROHIBITION")


def opens_with_the_world(text: str, code: str) -> bool:
    """A statement whose opening noun phrase is of the world (an article opens it: "les loyers…")."""
    return _has(text, code, "GENERIC")


def opens_a_noun_phrase(word: str, code: str) -> bool:
    """Whether `word` is itself what `opens_with_the_world` reads as opening the noun phrase (an article:
    "les", "los"), not a word before it ("Luna necesita la vacuna…")."""
    return _has(f"{word} x", code, "GENERIC")


def beside_the_request(text: str, code: str) -> str:
    """A request's statement without the words that ask ("erzähl mir", "給我", "教えて"): what it says."""
    pattern = _pattern(code, "REQUEST")
    lowered = _window(text)
    found = pattern.search(lowered) if pattern is not None else None
    return lowered if found is None else lowered[: found.start()] + " " + lowered[found.end() :]


def sets_a_condition(text: str, code: str) -> bool:
    """A statement holding a standing condition ("whenever…", "when I ask you…")."""
    return _has(text, code, "STANDING")


def tells_a_past_action(text: str, code: str) -> bool:
    """A statement in a past (perfective) tense: something that happened."""
    return _has(text, code, "PAST")


def speaks_of_oneself(text: str, code: str) -> bool:
    """A statement in the speaker's own person (a pronoun, a possessive, a first-person verb form)."""
    return _has(text, code, "SELF")


def addresses_the_partner(text: str, code: str) -> bool:
    """A statement in the second person: it speaks to the partner."""
    return _has(text, code, "PARTNER")


def asks_without_a_mark(text: str, code: str) -> bool:
    """A question written without its question mark ("wat betekent serendipiteit eigenlijk")."""
    return _has(text, code, "INTERROGATIVE")
