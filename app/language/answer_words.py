"""The shape of a language's answer words (`AnswerWords`): what a question asks for by its question words
(a time, a number, a place, a person), and what makes a memory hold one. Each language module that has
them fills one (`app.language.languages.<code>.ANSWERS`); `app.recall.answer_types` reads them.

A question's wh-word says what its answer is (classic question answering: `when` → a time, `where` → a
place, `who` → a person, `how many` → a number), and the memory that answers it holds one, whatever words
it shares with the question. The words are a language's closed classes and general nouns (number words,
place nouns, kinship words), never a conversation's.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class AnswerWords:
    """One language's answer words. The `…_asked` fields are `|`-separated phrases of its question words
    (whitespace inside a phrase matches any run), tried in the order time, number, place, person: the
    first that matches decides ("how long ago" asks for a time, "how long" for a number). The other
    fields are space-separated words, compared lower-cased with a memory's words (or, in a language
    written without spaces, found anywhere in it)."""

    time_asked: str
    number_asked: str
    place_asked: str
    person_asked: str
    # The words a question names a memory type's memories by, as a kind ("What's on my to-do list?"), each
    # with the type (`task`, `instruction`): recall searches that type's memories as a channel of their
    # own, and not those words.
    types: dict[str, str] = field(default_factory=dict)
    # A regular expression (case ignored) that finds a question wanting every item, not the best one
    # ("Which cities…", "List…", "all the…"): its answer lists more.
    list_asked: str = ""
    # Words that name a time, besides the calendar's (its weekdays, months and seasons: `TIME`).
    times: str = ""
    # "last week", "next month": a word of `relative` beside one of `periods`, before it, or after it too
    # where the language says so ("la semana pasada").
    relative: str = ""
    periods: str = ""
    relative_follows: bool = False
    numbers: str = ""
    # Nouns of places, and the words before a place's name ("in Lisbon", "visited Kyoto").
    places: str = ""
    place_before: str = ""
    # Nouns of people by their relation or role.
    people: str = ""
    # The ending of the plurals of its place and people nouns, where one ending makes most of them.
    plural: str = ""
    # A regular expression of an ordinal day ("15th", "3."), and whether a capitalised word inside a
    # sentence is a name (in German every noun is capitalised; in Chinese no word is).
    ordinal: str = ""
    names_capitalised: bool = True
    # Written without spaces between words (Chinese, Japanese): its words are found anywhere in a text.
    unspaced: bool = False
