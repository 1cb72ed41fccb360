"""The people and pets a question names by their relation to the speaker, and the names the profile uses.

An agent asks its memory about "the user's husband", "her daughter", "his dog", while the conversation
names them: "Sam doesn't do fish", "Lina starts Year 3", "Waffles needs a walk". The profile itself says
who is who, somewhere ("my husband Sam", "Lina, my daughter", "a beagle called Waffles"): recall reads
those names from the profile's memories holding the relation's words (one small, indexed look-up, only
for a question that names a relation) and searches them with the question's words. The relation's other
words are searched too ("mother" finds "Mum"). The vocabulary is general English kinship, partners and
pets, plus the category table's instances ("dog" → beagle, labrador…), never a conversation's words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.language.languages.en.categories import CATEGORIES
from app.recall.query import STEMMER

_FIANCES = ("fiance", "fiancee", "fiancé", "fiancée")
_PARTNERS = ("partner", "husband", "wife", "boyfriend", "girlfriend", *_FIANCES)
_CHILDREN = ("son", "daughter", "kid", "child", "baby")
_MOTHERS = ("mother", "mom", "mum", "mam")
_FATHERS = ("father", "dad")
_PETS = ("dog", "cat", "puppy", "kitten", "pet")

# A question's relation word → the words the conversation may use for that person or pet.
RELATIONS: dict[str, tuple[str, ...]] = {
    "husband": ("husband",), "wife": ("wife",), "spouse": ("husband", "wife"), "partner": _PARTNERS,
    "boyfriend": ("boyfriend",), "girlfriend": ("girlfriend",),
    **dict.fromkeys(_FIANCES, _FIANCES),
    "son": ("son",), "daughter": ("daughter",),
    **dict.fromkeys(("kid", "kids", "child", "children"), _CHILDREN),
    **dict.fromkeys(("mother", "mom", "mum"), _MOTHERS), **dict.fromkeys(("father", "dad"), _FATHERS),
    "parents": _MOTHERS + _FATHERS,
    "sister": ("sister",), "brother": ("brother",),
    "grandmother": ("grandmother", "grandma", "gran", "nan"), "grandfather": ("grandfather", "grandpa"),
    "boss": ("boss", "manager"), "manager": ("manager", "boss"),
    "dog": ("dog", "puppy"), "cat": ("cat", "kitten"), **dict.fromkeys(("pet", "pets"), _PETS),
}  # fmt: skip

_WORD_RE = re.compile(r"[a-zà-ÿ]+")
# A name as a memory writes it: capitalised, not a word that starts sentences.
_NAME = r"([A-Z][a-z]{1,30})"
_OWNER = r"(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[A-Z][a-z]+'s)"


@dataclass(frozen=True)
class Relations:
    """What a question's relation words bring: the relation's words (searched too), their lexemes, and a
    PostgreSQL regular expression whose one non-empty group is a name given with one of them."""

    words: list[str]
    lexemes: list[str]
    pattern: str


def relations_of(question: str) -> Relations | None:
    """The relations the question names, or None."""
    asked = [RELATIONS[w] for w in dict.fromkeys(_WORD_RE.findall(question.lower())) if w in RELATIONS]
    if not asked:
        return None
    words = list(dict.fromkeys(w for group in asked for w in group))
    # "my beagle Waffles": a pet is often named by its kind.
    kinds = [k for w in words if w in ("dog", "cat") for k in CATEGORIES.get(w, "").split() if k != "rescue"]
    said = "|".join(sorted({re.escape(w) for w in words + kinds}, key=len, reverse=True))
    either = f"(?:{said})"
    pattern = "|".join(
        (
            rf"\m{_OWNER}\s+{either}(?:,)?\s+(?:is\s+)?(?:called\s+|named\s+)?{_NAME}\M",  # my husband Sam
            rf"\m{_NAME},\s+(?:my|our|his|her|their)\s+{either}\M",  # Sam, my husband
            rf"\m{either}\s+(?:called|named)\s+{_NAME}\M",  # a beagle called Waffles
        )
    )
    lexemes = list(dict.fromkeys(STEMMER.stemWord(w) for w in words + kinds))
    return Relations(words, lexemes, pattern)
