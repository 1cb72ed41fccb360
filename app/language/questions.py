"""How a question asks what was done or is planned, in each language: its interrogatives and light verbs
(`app.language.languages.<code>.QUESTION_WORDS`). Recall lets a question that is only these and a time be
answered by that time's memories."""

from __future__ import annotations

import re

from app.language.folding import fold
from app.language.formulas import formulas_of
from app.language.languages import QUESTION_WORDS, TIME_WORDS


def _question_words(field: str, unspaced: bool) -> re.Pattern[str]:
    words = sorted({fold(w) for w in field.split("|")}, key=len, reverse=True)
    body = "|".join(re.escape(w).replace(r"\ ", r"\s+").replace("'", "['’]") for w in words)
    return re.compile(f"(?:{body})" if unspaced else rf"(?<!\w)(?:{body})(?!\w)")


_QUESTION_WORDS = {
    code: _question_words(words, TIME_WORDS[code].unspaced) for code, words in QUESTION_WORDS.items()
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
