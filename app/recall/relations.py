"""The people and pets a question names by their relation to the speaker, and the names the profile uses.

An agent asks its memory about "the user's husband", "her daughter", "his dog", while the conversation
names them: "Sam doesn't do fish", "Lina starts Year 3", "Waffles needs a walk". The profile itself says
who is who, somewhere ("my husband Sam", "Lina, my daughter", "a beagle called Waffles"): recall reads
those names from the profile's memories holding the relation's words (one small, indexed look-up, only
for a question that names a relation) and searches them with the question's words. The relation's other
words are searched too ("mother" finds "Mum"). The words are the question's language's (`RELATIONS` of its
module, `app.language.relation_words`: kinship, partners and pets, plus its category table's instances,
"dog" → beagle, labrador…), never a conversation's; a language without them names no relation here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.language.languages import CATEGORIES, RELATIONS
from app.language.relation_words import RelationWords
from app.language.speakers import CAPITAL, SMALL
from app.recall.query import stemmer as stemmer_of

_WORD_RE = re.compile(r"[^\W\d_]+")
# A name as a memory writes it: capitalised, not a word that starts sentences.
_NAME = rf"({CAPITAL}{SMALL}{{1,30}})"


def _either_case(alternatives: list[str]) -> str:
    """PostgreSQL alternatives matching each of `alternatives` with its first letter in either case: a
    sentence starts with "My husband…", and German writes its nouns capitalised ("mein Mann")."""
    return "|".join(
        f"[{a[0].upper()}{a[0]}]{re.escape(a[1:])}" if a[:1].isalpha() and a[0].upper() != a[0] else a
        for a in alternatives
    )


@dataclass(frozen=True)
class Relations:
    """What a question's relation words bring: the relation's words (searched too), their lexemes, and a
    PostgreSQL regular expression whose one non-empty group is a name given with one of them."""

    words: list[str]
    lexemes: list[str]
    pattern: str


def relations_of(question: str, language: str, config: str) -> Relations | None:
    """The relations the question (in `language`, read with the text-search configuration `config`) names,
    or None."""
    table: RelationWords | None = RELATIONS.get(language)
    if table is None:
        return None
    named = table.relations
    asked = [named[w] for w in dict.fromkeys(_WORD_RE.findall(question.lower())) if w in named]
    if not asked:
        return None
    words = list(dict.fromkeys(w for group in asked for w in group))
    # "my beagle Waffles": a pet is often named by its kind.
    categories = CATEGORIES.get(language, {})
    kinds = [
        k
        for w in words
        if w in table.kinds
        for k in categories.get(w, "").split()
        if k not in table.not_kinds
    ]
    either = f"(?:{_either_case(sorted(set(words + kinds), key=len, reverse=True))})"
    copula = rf"(?:(?:{table.copula})\s+)?" if table.copula else ""
    naming = rf"(?:(?:{table.naming})\s+)?" if table.naming else ""
    shapes = [
        rf"\m(?:{_either_case(table.owners.split('|'))})\s+{either}(?:,)?\s+{copula}{naming}{_NAME}\M"
    ]  # my husband Sam
    if table.owners_after:
        shapes.append(rf"\m{_NAME},\s+(?:{table.owners_after})\s+{either}\M")  # Sam, my husband
    if table.naming:
        shapes.append(rf"\m{either}\s+(?:{table.naming})\s+{_NAME}\M")  # a beagle called Waffles
    stemmer = stemmer_of(config)
    stems = (stemmer.stemWord(w) if stemmer else w for w in words + kinds)
    return Relations(words, list(dict.fromkeys(stems)), "|".join(shapes))
