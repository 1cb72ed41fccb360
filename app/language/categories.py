"""Categories and their instances, in each language that has a table of them (its module's `CATEGORIES`:
English's): a question names a category ("what race", "which dessert", "do for a living"), the
conversation names an instance ("a half marathon", "a lemon tart", "I'm a nurse").

Both sides use it. Recall adds a question's category words' instances to the query, lightly
(`instances_of`); extraction adds a memory's instances' categories to its low-weight context
(`categories_of`), so "What race did I run?" finds "I ran my first half marathon" without the
conversation ever saying "race". A language without a table adds nothing: its words are searched as said.
"""

from __future__ import annotations

import functools
import re

from app.language.languages import CATEGORIES

_WORD_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@functools.cache
def _index(language: str) -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
    """A language's instances → their categories, and the first halves of its hyphenated instances ("half"
    of "half-marathon": only after one of them is the next word worth joining, so a text is scanned once)."""
    out: dict[str, list[str]] = {}
    for category, instances in CATEGORIES.get(language, {}).items():
        for instance in instances.split():
            if instance != category:
                out.setdefault(instance, []).append(category)
    index = {k: tuple(dict.fromkeys(v)) for k, v in out.items()}
    # Plurals resolve in the same single lookup ("tarts" → tart's categories).
    for k, v in list(index.items()):
        index.setdefault(k + "s", v)
    return index, frozenset(k.split("-")[0] for k in index if "-" in k)


def _singular(word: str) -> str | None:
    return word[:-1] if word.endswith("s") and len(word) > 3 else None


def instances_of(words: set[str], language: str) -> str:
    """The instances of a question's category words (in `language`, ISO 639-1), as one string for
    PostgreSQL to stem."""
    table = CATEGORIES.get(language, {})
    out: list[str] = []
    for word in sorted(words):
        singular = _singular(word)
        found = table.get(word) or (table.get(singular) if singular else None)
        if found:
            out.append(found)
    return " ".join(out)


def categories_of(text: str, language: str) -> list[str]:
    """The categories of the instances a text (in `language`) names ("half marathon" → race, sport…), each
    once."""
    index, join_first = _index(language)
    if not index:
        return []
    words = _WORD_RE.findall(text.lower())
    found: dict[str, None] = {}
    for i, word in enumerate(words):
        hit = index.get(word)
        if hit:
            found.update(dict.fromkeys(hit))
        # Hyphenated instances ("half-marathon") also match their spaced form ("half marathon").
        if word in join_first and i + 1 < len(words):
            hit = index.get(f"{word}-{words[i + 1]}")
            if hit:
                found.update(dict.fromkeys(hit))
    return list(found)
