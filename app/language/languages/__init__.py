"""The languages the service has rules for, one module each, behind one interface.

Each module holds its language's rules as data: `TIME` (its time words, `app.language.time_words`),
`FORMULAS` (greetings, thanks, agreement, reactions, wishes, guesses, first- and third-person anchors,
`app.language.formulas`), `QUESTION_WORDS` (`app.language.questions`), `RULE_CUES`, `AGENT_CUES` and
`TASK_CUES` (a standing rule for the agent, something to be done: `app.language.cues`), `CIRCUMSTANCES`
(the words that tell a lasting circumstance of a person: `app.language.circumstances`), `PRO_DROP` (whether
its sentences often leave the person unsaid: `app.extraction.chit_chat`), `ABBREVIATIONS` (the words a
full stop does not end a sentence after: `app.language.sentences`), `LEMMAS` and `CATEGORIES`
(`app.language.lemmas`, `app.language.categories`), `ANSWERS`, `RELATIONS`, `QUESTION_NOISE` and
`SPELLINGS` (what recall reads a question with: `app.recall`), and `LACKS`: the parts it has none of, each
with what happens instead. Adding a language is adding its module and its line in `MODULES`. English
(`en`) is a package of such modules: its time patterns, its extraction rules' word lists and patterns
(`lexicon`, `small_talk`), its lemmas and categories, its question words (`questions`). A language without a module is still stored and searched,
verbatim: nothing is dropped for want of its rules.
"""

from types import ModuleType

from app.language import parts
from app.language.answer_words import AnswerWords
from app.language.formula_words import FormulaWords
from app.language.languages import de, en, es, fr, it, ja, ko, nl, pl, pt, ru, sv, zh
from app.language.relation_words import RelationWords
from app.language.time_words import TimeWords

# The languages with rules of their own besides English (`en`, whose rules are its own patterns), in the
# order they were written (the order formulas are tried in for a text of no known language).
MODULES: dict[str, ModuleType] = {
    m.__name__.rsplit(".", 1)[1]: m for m in (es, pt, fr, it, de, nl, sv, zh, ja, ko, ru, pl)
}
# Each language's parts, by ISO 639-1 code.
TIME_WORDS: dict[str, TimeWords] = {code: m.TIME for code, m in MODULES.items()}
FORMULAS: dict[str, FormulaWords] = {code: m.FORMULAS for code, m in MODULES.items()}
QUESTION_WORDS: dict[str, str] = {code: m.QUESTION_WORDS for code, m in MODULES.items()}
RULE_CUES: dict[str, str] = {code: m.RULE_CUES for code, m in MODULES.items()}
AGENT_CUES: dict[str, str] = {code: m.AGENT_CUES for code, m in MODULES.items()}
TASK_CUES: dict[str, str] = {code: m.TASK_CUES for code, m in MODULES.items()}
# English's too: these parts are each language's own, English's among them.
_ALL: dict[str, ModuleType] = {"en": en, **MODULES}
CIRCUMSTANCES: dict[str, str] = {
    code: m.CIRCUMSTANCES for code, m in _ALL.items() if hasattr(m, "CIRCUMSTANCES")
}
PRO_DROP: frozenset[str] = frozenset(code for code, m in _ALL.items() if m.PRO_DROP)
# English's alone so far: base forms of irregular verbs (`app.language.lemmas`), categories and their
# instances (`app.language.categories`).
LEMMAS: dict[str, str] = {code: m.LEMMAS for code, m in _ALL.items() if hasattr(m, "LEMMAS")}
CATEGORIES: dict[str, dict[str, str]] = {
    code: m.CATEGORIES for code, m in _ALL.items() if hasattr(m, "CATEGORIES")
}
ABBREVIATIONS: dict[str, str] = {
    code: m.ABBREVIATIONS for code, m in _ALL.items() if hasattr(m, "ABBREVIATIONS")
}
SOFT_ABBREVIATIONS: dict[str, str] = {code: getattr(m, "SOFT_ABBREVIATIONS", "") for code, m in _ALL.items()}
# What recall reads a question with (`app.recall`): the kind of answer it asks for, the relations it names,
# the stems that carry no meaning in it, other spellings of its words.
ANSWERS: dict[str, AnswerWords] = {code: m.ANSWERS for code, m in _ALL.items() if hasattr(m, "ANSWERS")}
RELATIONS: dict[str, RelationWords] = {
    code: m.RELATIONS for code, m in _ALL.items() if hasattr(m, "RELATIONS")
}
QUESTION_NOISE: dict[str, str] = {
    code: m.QUESTION_NOISE for code, m in _ALL.items() if hasattr(m, "QUESTION_NOISE")
}
SPELLINGS: dict[str, dict[str, str]] = {
    code: m.SPELLINGS for code, m in _ALL.items() if hasattr(m, "SPELLINGS")
}
# The parts every language module has, or names in its `LACKS` with what happens instead (`PARTS`,
# `app.language.parts`). Shared by every language, by script rather than by language: sentence ends
# (`app.language.sentences`), question marks (`cues.is_question`), stop words (PostgreSQL's snowball
# lists, `app.language.formulas`).
PARTS = parts.PARTS
# Numbers and ISO dates only: a language without time words of its own.
NO_TIME_WORDS = TimeWords()
