"""Base forms of irregular verbs ("ran" → run, "bought" → buy), in each language that has a table of them
(its module's `LEMMAS`: English's).

PostgreSQL's english stemmer conflates regular forms (walked, walking → walk) but not irregular ones, so
"What race did I run?" would miss "I ran a marathon". Extraction indexes the base forms of a memory's
irregular verbs in its low-weight context, and recall adds the base forms of a question's: either side
may use the past form.
"""

from __future__ import annotations

import functools
import re

from app.language.languages import LEMMAS as TABLES


@functools.cache
def _lemmas(language: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for entry in re.split(r"[|\n]", TABLES.get(language, "")):
        words = entry.split()
        if not words:
            continue
        base, forms = words[0], words[1:]
        for form in forms:
            # "found" is also "to found", "lay" the past of "lie": the base form never maps away.
            out.setdefault(form, base)
    return out


_WORD_RE = re.compile(r"[a-z]+")


def base_forms(text: str, language: str) -> list[str]:
    """The base forms of the irregular verb forms in `text` (in `language`, ISO 639-1), each once, in order;
    none in a language without a table."""
    lemmas = _lemmas(language)
    if not lemmas:
        return []
    seen: dict[str, None] = {}
    for word in _WORD_RE.findall(text.lower()):
        base = lemmas.get(word)
        if base is not None and base != word:
            seen[base] = None
    return list(seen)
