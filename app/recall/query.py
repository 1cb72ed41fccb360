"""Turning a question into search terms: stemmed lexemes (OR, never AND), phrases, expansions.

Lexemes come from PostgreSQL's own `english` parser and stemmer, so they match the stored tsvectors
exactly; they are only quoted into tsquery syntax (`app.core.profiled_text.quote_lexeme`), which is why no
input can cause a tsquery syntax error.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

import Stemmer

from app.language.detect import Language
from app.language.languages import ANSWERS, QUESTION_NOISE, SPELLINGS

# An English question's terms are PostgreSQL's `english` lexemes, which are this Snowball stemmer's stems.
STEMMER = Stemmer.Stemmer("english")
_PHRASE_RE = re.compile(r'"([^"]{2,200})"')
_WORD_RE = re.compile(r"[a-z0-9]+")


@functools.cache
def _types_named(language: str) -> tuple[dict[str, str], re.Pattern[str]] | None:
    """The words questions of `language` name a memory type's memories by (`types` of its `ANSWERS`), and
    a pattern that finds them, longest first."""
    words = ANSWERS.get(language)
    if words is None or not words.types:
        return None
    named = {" ".join(w.lower().split()): kind for w, kind in words.types.items()}
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(named, key=len, reverse=True))
    return named, re.compile(alternatives if words.unspaced else rf"\b(?:{alternatives})\b", re.IGNORECASE)


def types_asked(query: str, language: str) -> tuple[list[str], str]:
    """The memory types the question (in `language`) names as a kind ("What's on my to-do list?" → task),
    and the question without those words, which are not what to search for."""
    found_types = _types_named(language)
    if found_types is None:
        return [], query
    named, pattern = found_types
    found = [named[" ".join(m.group(0).lower().split())] for m in pattern.finditer(query)]
    if not found:
        return [], query
    return list(dict.fromkeys(found)), pattern.sub(" ", query)


@dataclass
class ParsedQuery:
    lexemes: list[str]
    phrases: list[str]
    expanded: list[str] = field(default_factory=list)
    words: set[str] = field(default_factory=set)


def phrases_of(query: str) -> list[str]:
    return [p.strip() for p in _PHRASE_RE.findall(query) if p.strip()]


@functools.cache
def stemmer(config: str) -> Stemmer.Stemmer | None:
    """The Snowball stemmer whose stems are the lexemes of PostgreSQL's configuration `config` (a
    language's: `english`, `spanish`…); None for `simple`, whose lexemes are the words as written."""
    return Stemmer.Stemmer(config) if config in Stemmer.algorithms() else None


@functools.cache
def noise(language: str, config: str) -> frozenset[str]:
    """The lexemes (of `config`, the language's text-search configuration) of the words that carry no
    meaning in a question of `language` (`QUESTION_NOISE` of its module: "remember", "tell", "mention")."""
    stem = stemmer(config)
    words = QUESTION_NOISE.get(language, "").split()
    return frozenset(stem.stemWord(w) if stem else w for w in words)


def words_of(query: str, language: str) -> set[str]:
    """Lower-cased raw words, for matching topic keys like `melanie.favourite_color`, with the other
    spellings of them the language has (`SPELLINGS` of its module: the extractor writes British ones)."""
    words = set(_WORD_RE.findall(query.lower()))
    spellings = SPELLINGS.get(language, {})
    return words | {spellings[w] for w in words if w in spellings}


def build(
    lexemes: list[str], phrases: list[str], query: str, language: Language, *, related: list[str]
) -> ParsedQuery:
    """`related`: lexemes of the question's related words (category instances, base forms), used lightly;
    the question's words that carry no meaning in its `language` (`noise`) dropped."""
    dropped = noise(language.code, language.config)
    kept: list[str] = []
    for lexeme in lexemes:
        if lexeme not in dropped and lexeme not in kept:
            kept.append(lexeme)
    extras = list(related)
    expanded: list[str] = []
    for extra in extras:
        if extra not in kept and extra not in expanded:
            expanded.append(extra)
    return ParsedQuery(lexemes=kept, phrases=phrases, expanded=expanded, words=words_of(query, language.code))
