"""Related words for query expansion, from the question's language's category table
(`app.language.categories`): a question names a category, the conversation names the instance. These weigh
far less than the question's own words."""

from __future__ import annotations

from app.language.categories import instances_of


def related_words(words: set[str], language: str) -> str:
    """The related words of a question's raw words (in `language`), as one string for PostgreSQL to stem."""
    return instances_of(words, language)
