"""The names of the parts of a language's rules, in one place: the registry checks every module against
them (`app.language.languages.PARTS`), the shape engine reads its own (`SHAPES`, `app.language.shapes`),
and English's package names those it holds as patterns of its own (`app.language.languages.en.LACKS`)."""

from __future__ import annotations

# The shape of a statement (`app.language.shapes`): a hypothetical, a request to the agent, a prohibition,
# a standing condition, a past action, the speaker's own person, the partner, a noun phrase of the world, a
# question without its mark.
SHAPES = (
    "HYPOTHETICAL",
    "REQUEST",
    "PROHIBITION",
    "STANDING",
    "PAST",
    "SELF",
    "PARTNER",
    "GENERIC",
    "INTERROGATIVE",
)
# A chat's formulas, the cues of a rule, an instruction and a task, how a question asks what was done, the
# persons and negation: English holds these as patterns applied by its extraction rules.
CUES = (
    "FORMULAS",
    "QUESTION_WORDS",
    "RULE_CUES",
    "AGENT_CUES",
    "TASK_CUES",
    "NEGATION",
    "SECOND_PERSON",
)
# Every part a language module has, or names in its `LACKS` with what happens instead.
PARTS = (
    "TIME",
    *CUES,
    "CIRCUMSTANCES",
    "PRO_DROP",
    "ABBREVIATIONS",
    "LEMMAS",
    "CATEGORIES",
    *SHAPES,
    # What recall reads a question with: `app.recall.answer_types`, `relations`, `query`.
    "ANSWERS",
    "RELATIONS",
    "QUESTION_NOISE",
    "SPELLINGS",
)
