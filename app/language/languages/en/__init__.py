"""English: its rules, one package. `time` finds its time expressions ("yesterday", "last Friday", "the
3rd of May", "two weeks ago", "at Christmas"); `lexicon` holds the word lists and patterns the English
extraction rules decide with (persons, tasks, instructions, topics, negation, the offline summary's chatter);
`small_talk` its well-wishes, guesses, verdicts and the shapes of its questions; `lemmas` the base
forms of its irregular verbs; `categories` its categories and their instances; `questions` the words
recall reads a question with. The parts every language module has are named here, as in every other
language's module.
"""

from __future__ import annotations

from app.language.languages.en.categories import CATEGORIES
from app.language.languages.en.lemmas import LEMMAS
from app.language.languages.en.questions import ANSWERS, QUESTION_NOISE, RELATIONS, SPELLINGS
from app.language.languages.en.time import (
    CALENDAR_WORDS,
    FUTURE_RE,
    GATE_RE,
    PERIOD_WORDS,
    RECENT_RE,
    UPCOMING_RE,
    WHEN_RE,
    Cues,
    candidates,
    detect_tense,
    names_a_holiday,
    narrowed,
    with_clock,
)
from app.language.parts import CUES, SHAPES

__all__ = [
    "ABBREVIATIONS",
    "ANSWERS",
    "CALENDAR_WORDS",
    "CATEGORIES",
    "CIRCUMSTANCES",
    "FUTURE_RE",
    "GATE_RE",
    "LACKS",
    "LEMMAS",
    "PERIOD_WORDS",
    "PRO_DROP",
    "QUESTION_NOISE",
    "RECENT_RE",
    "RELATIONS",
    "SOFT_ABBREVIATIONS",
    "SPELLINGS",
    "UPCOMING_RE",
    "WHEN_RE",
    "Cues",
    "candidates",
    "detect_tense",
    "names_a_holiday",
    "narrowed",
    "with_clock",
]

# Words a full stop does not end a sentence after (`app.language.sentences`): they always lead into more
# words ("Dr. Lee", "e.g. pasta"); and those after which it ends one only before a capital ("last Tues.
# I'm…" ends, "at 9 a.m. sharp" does not).
ABBREVIATIONS = (
    "mr|mrs|ms|dr|prof|sr|jr|st|mt|ft|vs|e.g|eg|i.e|ie|u.s|u.k|no|nos|vol|approx|fig|ave|blvd|gen|col|lt|"
    "sgt|capt|cf|ph.d|b.a|m.a|b.sc|m.sc"
)
SOFT_ABBREVIATIONS = (
    "etc|a.m|p.m|am|pm|inc|ltd|co|corp|dept|est|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|mon|tue|"
    "tues|wed|thu|thurs|fri|sat|sun|al|phd|rd"
)

# Whether its sentences often leave the person unsaid: English says its subject.
PRO_DROP = False

# A lasting circumstance of a person (`app.language.circumstances`), on `fold`ed text: work and studies |
# home | family and pets | health and diet | likes, age and birthday; whole words.
CIRCUMSTANCES = (
    r"(?:work(?:s|ing)?\s+(?:at|for|as)|job|career|engineer|developer|teacher|nurse|doctor|manager|"
    r"company|employ\w*|hired|promot\w*|studies|studying|student|universit\w*|degree|"
    r"lives?\b|living\s+in|moved\s+to|home|flat|apartment|house|city|from\s+[a-z]|grew\s+up|"
    r"sister|brother|mum|mom|mother|dad|father|parents?|wife|husband|partner|boyfriend|girlfriend|fianc\w*|"
    r"married|son|daughter|kids?|children|baby|grand\w+|aunt|uncle|cousin|dog|cat|pet|"
    r"allerg\w*|intoleran\w*|asthma|diabet\w*|diagnos\w*|surgery|injur\w*|pregnan\w*|medication|"
    r"vegetarian|vegan|halal|kosher|gluten|"
    r"loves?|hates?|prefers?|favou?rite|can't\s+stand|enjoys?|fan\s+of|birthday|years?\s+old)\b"
)

# English's other parts are patterns, not tables the shared engines read: its formulas, persons, negation,
# tasks and instructions are `lexicon`'s, which the English extraction rules (`app.extraction`: remarks,
# typing_rules, summaries, chit_chat) apply; its question words are PostgreSQL's English stop list.
LACKS = {
    part: "English's own patterns (en.lexicon, en.small_talk), applied by the English extraction rules"
    for part in (*CUES, *SHAPES)
}
