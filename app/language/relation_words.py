"""The shape of a language's relation words (`RelationWords`): the people and pets a question names by
their relation to the speaker ("her husband", "his dog"), and how a conversation gives one a name ("my
husband Sam", "Sam, my husband", "a beagle called Waffles"). Each language module that has them fills one
(`app.language.languages.<code>.RELATIONS`); `app.recall.relations` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class RelationWords:
    """One language's relation words. `relations`: a question's relation word → the words the
    conversation may use for that person or pet. The other fields are `|`-separated PostgreSQL regular
    expression alternatives: the possessives before a relation ("my|our|his"), before a name given after
    its relation ("my husband Sam") and after it ("Sam, my husband"); the words that give a name ("called|named")."""

    relations: dict[str, tuple[str, ...]] = field(default_factory=dict)
    owners: str = ""
    owners_after: str = ""
    naming: str = ""
    # Between a relation and its name: "my husband is Sam".
    copula: str = ""
    # A regular expression (case ignored) whose group `nickname` is a name its speaker says they go by
    # ("call me Bex", "I go by Bex").
    nickname: str = ""
    # The relation words whose category instances name the kind too ("my beagle Waffles"), and the
    # instances not to take ("rescue").
    kinds: tuple[str, ...] = ()
    not_kinds: tuple[str, ...] = ()
