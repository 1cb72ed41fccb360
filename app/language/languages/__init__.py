"""The languages the service has rules for, one module each, behind one interface.

English (`en`) has its own time patterns; every other language describes its time expressions as data
(`app.language.time_words.TimeWords`, read by one engine). A language without a module here is still
stored and searched, verbatim: nothing is dropped for want of its rules.
"""

import re
from types import ModuleType

from app.language.formulas import fold, formulas_of
from app.language.languages import de, es, fr, it, ja, ko, nl, pt, sv, zh
from app.language.time_words import TimeWords

_MODULES = (es, de, fr, it, pt, nl, sv, zh, ja, ko)
# Each language's time words, by ISO 639-1 code.
TIME_WORDS: dict[str, TimeWords] = {module.__name__.rsplit(".", 1)[1]: module.TIME for module in _MODULES}
# Numbers and ISO dates only: a language without time words of its own.
NO_TIME_WORDS = TimeWords()


def _question_words(module: ModuleType, unspaced: bool) -> re.Pattern[str]:
    words = sorted({fold(w) for w in str(module.QUESTION_WORDS).split("|")}, key=len, reverse=True)
    body = "|".join(re.escape(w).replace(r"\ ", r"\s+").replace("'", "['’]") for w in words)
    return re.compile(f"(?:{body})" if unspaced else rf"(?<!\w)(?:{body})(?!\w)")


_QUESTION_WORDS = {
    code: _question_words(module, TIME_WORDS[code].unspaced)
    for module in _MODULES
    if (code := module.__name__.rsplit(".", 1)[1])
}
_WORD_RE = re.compile(r"\w+")


def asks_only_what_was_done(text: str, language: str) -> bool:
    """Whether a question, its time phrase taken out, is only its language's interrogatives and light
    verbs ("¿Qué hice?", "我干了啥", "뭐 했어?"): it asks for the memories of the time it names. False for
    a language without question words (English's stop words already leave such a question empty)."""
    pattern = _QUESTION_WORDS.get(language)
    if pattern is None:
        return False
    rest = pattern.sub(" ", fold(text))
    # What else is left may be its function words ("¿Qué hice en mayo?" leaves "en").
    formulas = formulas_of(language)
    if formulas is not None and formulas.empty is not None:
        rest = formulas.empty.sub(" ", rest)
    return all(formulas is not None and formulas.says_nothing(w) for w in _WORD_RE.findall(rest))
