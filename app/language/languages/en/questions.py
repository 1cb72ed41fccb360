"""English: the words recall reads a question and its candidate memories with — what a question asks for
(`ANSWERS`), the people and pets it names by their relation (`RELATIONS`), the words that carry no meaning
in a question (`QUESTION_NOISE`), the spellings a topic key is written in (`SPELLINGS`), and the words
that make a text English without asking the language model (`MARKERS`)."""

from __future__ import annotations

from app.language.answer_words import AnswerWords
from app.language.relation_words import RelationWords

ANSWERS = AnswerWords(
    types={
        **dict.fromkeys(("instruction", "instructions"), "instruction"),
        **dict.fromkeys(
            (
                "task",
                "tasks",
                "to-do",
                "to-dos",
                "todo",
                "todos",
                "reminder",
                "reminders",
                "to-do list",
                "todo list",
                "task list",
            ),
            "task",
        ),
    },
    time_asked=r"when|what\s+(?:year|month|day|date|time)|which\s+(?:year|month|day|date)|how\s+long\s+ago",
    number_asked=r"how\s+(?:many|much|long|old|far|often|tall|big)",
    place_asked=(
        r"where|which\s+(?:city|country|town|place|state|island|village|restaurant|shop|store|hotel|beach|park)"
    ),
    person_asked="who|whom|whose",
    list_asked=(
        r"^\s*(?:which|what)\s+(?:\w+\s+)?\w+s\b(?<!\bis)(?<!\bwas)(?<!\bdoes)(?<!\bhas)|\b(?:list|all|every|ever)\b"
        r"|^\s*what\s+(?:are|were)\b|^\s*(?:name|how\s+many)\b"
    ),
    times="weekend yesterday today tomorrow tonight ago christmas xmas easter halloween thanksgiving eve birthday",
    relative="last next this",
    periods="week month year night morning evening weekend",
    numbers=(
        "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty"
        " hundred thousand million dozen couple half"
    ),
    places=(
        "street road lane avenue square park city town village country island beach lake river mountain cafe"
        " café restaurant shop store market hotel airport station school university college hospital clinic"
        " church museum gallery gym pub bar office library farm garden abroad"
    ),
    place_before="in at to from near around visit visited visiting",
    people=(
        "mum mom mother dad father sister brother wife husband son daughter aunt uncle cousin niece nephew"
        " gran grandma grandmother grandpa grandfather friend boss colleague coworker neighbour neighbor"
        " partner boyfriend girlfriend fiance fiancé fiancee fiancée teacher doctor coach"
    ),
    plural="s",
    ordinal=r"\d{1,2}(?:st|nd|rd|th)",
)

_FIANCES = ("fiance", "fiancee", "fiancé", "fiancée")
_PARTNERS = ("partner", "husband", "wife", "boyfriend", "girlfriend", *_FIANCES)
_CHILDREN = ("son", "daughter", "kid", "child", "baby")
_MOTHERS = ("mother", "mom", "mum", "mam")
_FATHERS = ("father", "dad")
_PETS = ("dog", "cat", "puppy", "kitten", "pet")

RELATIONS = RelationWords(
    relations={
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
    },
    owners="[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[A-Z][a-z]+'s",
    owners_after="my|our|his|her|their",
    naming="called|named",
    nickname=r"\b(?:call(?:s|ed)?\s+me|nickname\s+is|go\s+by|known\s+as)\s+(?P<nickname>[A-Z][\w'’-]*)",
    copula="is",
    kinds=("dog", "cat"),
    not_kinds=("rescue",),
)  # fmt: skip

# Words that survive PostgreSQL's English stop list but carry no meaning in a question (compared stemmed).
QUESTION_NOISE = (
    "would could might also ever else much many kind sort thing something anything really actually tell"
    " remember know recall mention said say talk"
)

# A question's American spelling → the British one the extractor writes topic keys in, and back.
SPELLINGS = {"favorite": "favourite", "color": "colour", "colors": "colour", "colour": "color"}

# Words that make a text English without asking the model, two of them at least
# (`app.language.detect`): common in English chat and not words of the other languages read here ("is",
# "of" and "we" are Dutch, "was" German, "he" Spanish, "for" Danish and Norwegian).
MARKERS = frozenset(
    ("the", "and", "you", "your", "you've", "my", "are", "that", "that's", "this", "with", "have", "what",
     "just", "to", "it", "i'm", "it's", "don't", "they", "she", "would", "will", "about", "really", "how",
     "yeah", "thanks", "been", "had", "has", "from", "when", "there", "their", "like", "know", "think",
     "got", "going", "gonna", "looks", "great", "fun", "last", "next", "we're", "can't", "didn't")
)  # fmt: skip
