"""Turning a question into search terms: stemmed lexemes (OR, never AND), phrases, expansions.

Lexemes come from PostgreSQL's own `english` parser and stemmer, so they match the stored tsvectors
exactly; they are only quoted into tsquery syntax (`app.core.profiled_text.quote_lexeme`), which is why no
input can cause a tsquery syntax error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import Stemmer

from app.core.memory_types import POLICIES

# The question's terms are PostgreSQL's `english` lexemes, which are this Snowball stemmer's stems.
STEMMER = Stemmer.Stemmer("english")
_PHRASE_RE = re.compile(r'"([^"]{2,200})"')
_WORD_RE = re.compile(r"[a-z0-9]+")

# Stems that survive PostgreSQL's stopword list but carry no meaning in a question.
QUESTION_NOISE = frozenset(
    {"would", "could", "might", "also", "ever", "els", "much", "mani", "kind", "sort", "thing", "someth",
     "anyth", "realli", "actual", "tell", "rememb", "know", "recal", "mention", "said", "say", "talk"}
)  # fmt: skip


# The words questions name a type's memories by (the policy table's `asked_as`), longest first.
_TYPE_WORDS = {word: p.type.value for p in POLICIES for word in p.asked_as}
_TYPE_RE = re.compile(
    r"\b(?:"
    + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(_TYPE_WORDS, key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)


def types_asked(query: str) -> tuple[list[str], str]:
    """The memory types the question names as a kind ("What's on my to-do list?" → task), and the question
    without those words, which are not what to search for."""
    found = [_TYPE_WORDS[" ".join(m.group(0).lower().split())] for m in _TYPE_RE.finditer(query)]
    if not found:
        return [], query
    return list(dict.fromkeys(found)), _TYPE_RE.sub(" ", query)


@dataclass
class ParsedQuery:
    lexemes: list[str]
    phrases: list[str]
    expanded: list[str] = field(default_factory=list)
    words: set[str] = field(default_factory=set)


def phrases_of(query: str) -> list[str]:
    return [p.strip() for p in _PHRASE_RE.findall(query) if p.strip()]


def words_of(query: str) -> set[str]:
    """Lower-cased raw words, for matching topic keys like `melanie.favourite_color`."""
    words = set(_WORD_RE.findall(query.lower()))
    # The extractor writes British spellings in topic keys.
    aliases = {"favorite": "favourite", "color": "colour", "colors": "colour", "colour": "color"}
    return words | {aliases[w] for w in words if w in aliases}


def build(lexemes: list[str], phrases: list[str], query: str, *, related: list[str]) -> ParsedQuery:
    """`related`: lexemes of the question's related words (category instances, base forms), used lightly."""
    kept: list[str] = []
    for lexeme in lexemes:
        if lexeme not in QUESTION_NOISE and lexeme not in kept:
            kept.append(lexeme)
    extras = list(related)
    expanded: list[str] = []
    for extra in extras:
        if extra not in kept and extra not in expanded:
            expanded.append(extra)
    return ParsedQuery(lexemes=kept, phrases=phrases, expanded=expanded, words=words_of(query))
