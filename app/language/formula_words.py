"""The shape of a language's chat formulas (`FormulaWords`): the closed classes a message uses when it
greets, takes leave, thanks, apologises, agrees, reacts or wishes well, the markers of a guess about the
partner's news, the words that say nothing on their own. Each language module fills one
(`app.language.languages.<code>.FORMULAS`); `app.language.formulas` compiles them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FormulaWords:
    """One language's classes, `|`-separated phrases (whitespace inside a phrase matches any run)."""

    greetings: str
    farewells: str
    thanks: str
    apologies: str
    # Yes, okay, sure, of course, exactly; laughter and interjections.
    agreement: str
    # Evaluative exclamations and sympathy: "¡Qué bien!", "Wahnsinn", "太棒了".
    reactions: str
    # How a wish opens (a congratulation is one): "mucha suerte…", "viel Spaß…", "祝你…".
    well_wishes: str
    # What marks a guess or a verdict on the partner's news: "suena…", "klingt…", "一定很…".
    guesses: str
    # What opens an exclamation ("¡Qué frío!", "Wie schön!", "Quelle journée !"): a verdict, not news.
    exclaims: str = ""
    # Single words that carry nothing alone, beyond the stop list: evaluatives, intensifiers, fillers
    # (not comparatives: "Sí, está peor" tells how someone is).
    words: str = ""
    # The preposition of "thanks for…" / "sorry for…": the clause it opens belongs to the formula.
    cause: str = ""
    # Pronouns of the first and third person: a guess that holds one tells something of someone.
    anchors: str = ""
    # The inflectional endings of its adjectives and nouns (gender, number, case), longest first.
    endings: str = ""
    # Whether a wish opens its sentence ("祝你…", "Viel Glück…"). Where the verb comes last (Japanese,
    # Korean) the wish's words also open a statement that tells ("頑張って合格した": I worked hard and
    # passed) and close one that tells something before them: only a statement that is the wish alone
    # ("頑張ってね！") is one.
    wish_opens: bool = True
