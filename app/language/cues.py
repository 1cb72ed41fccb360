"""What can be read from a statement in any language without its grammar: whether it is a question, and
whether it asks the agent for a standing rule or names something to be done (where its sentences end is
`app.language.sentences`', the time it names `app.language.temporal`'s, in every language). (Whether it is only a greeting or
thanks is `app.language.formulas`' and `app.extraction.chit_chat`'s.)

The English rules (`app.language.languages.en.lexicon`) read English only; these cues are
what the extractor uses for a statement in another language (`app.extraction.verbatim`), so nothing it
cannot parse is dropped or rewritten. The word lists cover the languages the detector reads with a
stemmer of their own and Chinese, Japanese and Korean; a word they miss only leaves a statement a fact
rather than an event.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.language.folding import fold
from app.language.languages import AGENT_CUES, RULE_CUES, TASK_CUES

# A question ends at its script's question mark: Latin's, the full-width one, the Arabic, the Greek (;)
# and the Ethiopic (፧).
_QUESTION_RE = re.compile(r"[?？؟;፧]\s*[\"'”’»)\]]*\s*$")

# How the agent should behave, across languages: a statement is a rule for the agent when it names how
# the agent answers (`_AGENT_CUES`: answer, write, call me, use, the language, emoji, short…) and says it
# holds from now on, always or never, or asks it politely (`_RULE_CUES`). Matched on `fold`ed text.
_RULE_CUES = RULE_CUES

_AGENT_CUES = AGENT_CUES

# Something to be done, across languages: a reminder asked for, a first-person obligation, a to-do.
_TASK_CUES = TASK_CUES


_CJK_START = "\u1100"  # Hangul jamo, then kana, Han, Hangul syllables


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _phrase_pattern(phrases: Iterable[str], flags: int = 0) -> re.Pattern[str]:
    """Phrases in one pattern, longest first (so "esta mañana" is read before "mañana"): Latin-script ones
    as whole words (whitespace any run, an apostrophe either form), CJK ones anywhere in their run of
    text."""
    phrases = list(phrases)
    latin = [p for p in phrases if p[0] < _CJK_START]
    cjk = [p for p in phrases if p[0] >= _CJK_START]
    alternatives = [_alternation(cjk)] if cjk else []
    if latin:
        words = _alternation(latin).replace(r"\ ", r"\s+").replace("'", "['’]")
        alternatives.append(rf"(?<!\w)(?:{words})(?!\w)")
    return re.compile("|".join(alternatives), flags)


def _cue_pattern(cues: dict[str, str]) -> re.Pattern[str]:
    """Every language's cues (on `fold`ed text) in one pattern."""
    return _phrase_pattern({p for field in cues.values() for p in field.split("|")})


_WORD_RE = re.compile(r"\w+")
# A request to the agent opens its statement: at most a word before it ("Y respóndeme…", "Auch antworte…").
WORDS_BEFORE_REQUEST = 1
_RULE_RE = _cue_pattern(_RULE_CUES)
_AGENT_RE = _cue_pattern(_AGENT_CUES)
_TASK_RE = _cue_pattern(_TASK_CUES)


def asks_for_a_rule(text: str) -> bool:
    """Whether a statement asks the agent to behave a way from now on ("A partir de ahora respóndeme en
    español", "Bitte antworte immer kurz", "以后请用中文回答"). In words, the request opens the statement
    once its rule cues are set aside: "Mi hermano siempre escribe poemas" tells of the brother ("escribe"
    is also the imperative)."""
    folded = fold(text)
    if _RULE_RE.search(folded) is None:
        return False
    rest = _RULE_RE.sub(" ", folded)
    found = _AGENT_RE.search(rest)
    if found is None:
        return False
    return found[0][0] >= _CJK_START or len(_WORD_RE.findall(rest, 0, found.start())) <= WORDS_BEFORE_REQUEST


def names_a_rule(text: str) -> bool:
    """Whether a statement holds both a standing rule's cue and a cue of how the agent answers, wherever
    they stand: the agent's undertaking ("A partir de ahora siempre te responderé en español") as much as
    the user's request."""
    folded = fold(text)
    return _RULE_RE.search(folded) is not None and _AGENT_RE.search(folded) is not None


def names_how_the_agent_answers(text: str) -> bool:
    """Whether a statement names how the agent answers (its language, length, tone, format, emoji...)."""
    return _AGENT_RE.search(fold(text)) is not None


def opens_with_how_the_agent_answers(text: str) -> bool:
    """Whether a statement opens with how the agent answers ("skriv kortare svar", "답변은 세 줄 이내로")."""
    folded = fold(text).lstrip(" ,.!¡¿-")
    found = _AGENT_RE.match(folded)
    return found is not None


def names_a_standing_cue(text: str) -> bool:
    """Whether a statement holds a standing rule's cue (from now on, always, never, please...)."""
    return _RULE_RE.search(fold(text)) is not None


def names_a_task(text: str) -> bool:
    """Whether a statement names something to be done ("Tengo que renovar el pasaporte", "Erinnere mich
    an den Zahnarzt", "提醒我交房租")."""
    return _TASK_RE.search(fold(text)) is not None


def is_question(text: str) -> bool:
    return _QUESTION_RE.search(text) is not None
