"""What an English sentence says, read before it is typed: chit-chat and bare remarks, questions that tell
something of the asker, requests, thanks before the news, and sentences that only lean on the one before."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from app.extraction import chit_chat as cc
from app.extraction.statements import (
    _APOSTROPHES,
    _CAPITALISED_RE,
    _QUOTE_RE,
    FEW_WORDS,
    FRAGMENT_TOKENS,
    QUESTION_CONTENT_WORDS,
    SHORT_REMARK_TOKENS,
    SHORT_REPLY_TOKENS,
    _tokens,
)
from app.extraction.text import (
    strip_emoji,
)
from app.extraction.typing_rules import _person_topic
from app.language.languages.en import lexicon as lx
from app.language.temporal import find_time, names_a_day

# ---------------------------------------------------------------- sentence analysis


def _is_specific(sentence: str, names: frozenset[str]) -> bool:
    """Digits, quoted titles or proper nouns (other than the people talking) make a sentence specific."""
    if any(c.isdigit() for c in sentence) or _QUOTE_RE.search(sentence):
        return True
    return any(m.group(0).lower() not in names for m in _CAPITALISED_RE.finditer(sentence))


def _formulas_only(core: str, tokens: Sequence[str], names: frozenset[str]) -> bool:
    """A chit-chat phrase, a short greeting, or no word but filler and names ("ok cool", "lol")."""
    return (
        " ".join(tokens) in lx.CHIT_PHRASES
        or (lx.GREETING_RE.match(core) is not None and len(tokens) <= SHORT_REMARK_TOKENS)
        or all(t in lx.FILLER or t in names for t in tokens)
    )


def _is_chitchat(sentence: str, names: frozenset[str]) -> bool:
    core = strip_emoji(sentence)
    tokens = _tokens(core)
    if not tokens or _formulas_only(core, tokens, names):
        return True
    return bool(
        lx.REACTION_START_RE.match(core)
        and len(tokens) <= SHORT_REMARK_TOKENS
        and not _is_specific(core, names)
    )


def says_nothing(text: str, code: str) -> bool:
    """Whether a message in language `code` (`detect(text).code`), read on its own, tells and asks nothing
    that a memory could answer: a greeting, thanks, a well-wish, words that are all filler ("ok cool",
    "lol"), by the formulas that drop such statements at extraction (`chit_chat.says_nothing_in` where it
    is not English). Recall reads its question with it; a few keywords ("favourite colour") are a question,
    so the rules for short remarks and reactions, which would take them for chit-chat, are not applied."""
    if code != "en":
        return cc.says_nothing_in(text, code)
    core = strip_emoji(text)
    tokens = _tokens(core)
    if not tokens:
        # Emoji or symbols alone: searched for as they are ("🦄"), as memories keep them.
        return not text.strip()
    return _formulas_only(core, tokens, frozenset()) or cc.is_well_wish(core)


def _informative_question(text: str, names: frozenset[str]) -> bool:
    """A question that tells something of the asker's own ("Is it weird that I'm still on an iPhone 8?",
    "Couldn't we stay in town?"). A question about the other person ("Are you still in Porto?") is kept
    only as the context of the answer; a request for facts ("How do I boil an egg?") tells nothing."""
    content = [t for t in _tokens(strip_emoji(text)) if t not in lx.FILLER and t not in names]
    return len(content) >= QUESTION_CONTENT_WORDS and cc.tells_in_question(text)


def _english(tokens: Sequence[str]) -> bool:
    """Whether the English rules of what is chit-chat may judge this text: an English function word, or
    mostly English filler. A text in another language is never dropped for lacking English words."""
    return not lx.ENGLISH_WORDS.isdisjoint(tokens) or 2 * sum(t in lx.FILLER for t in tokens) >= len(tokens)


def _says_nothing(text: str, names: frozenset[str], anchor: datetime, agent: bool) -> bool:
    """English that tells nothing lasting though it is no formula: a well-wish ("Good luck with the
    deploy"), a guess about the partner's news ("The water must be freezing"), a remark anchored to nobody
    with nothing specific in it ("weddings are so expensive these days"), a bare word or two
    ("Long time!", "lmaooo"), or an assistant's general knowledge ("Python lists are mutable")."""
    core = strip_emoji(text)
    tokens = _tokens(core)
    if cc.is_bare_remark(core):
        return True
    if not tokens:
        return False
    if not _english(tokens):
        # Read as English for want of confidence, with no English word in it: another language's formulas
        # may judge it, never the English rules.
        return cc.says_nothing_in_some_language(core, dated=names_a_day(core))
    if cc.is_well_wish(core):
        return not any(c.isdigit() for c in core)
    if agent:
        return not cc.concerns_the_user(core)
    if _is_specific(core, names):
        return False
    if cc.is_guess(core):
        return True
    if _asks_for_action(core) or _person_topic(core.translate(_APOSTROPHES), "user") is not None:
        return False
    if cc.is_anchored(core) or cc.has_link(core) or find_time(core.translate(_APOSTROPHES), anchor):
        return False
    # Anchored to nobody, nothing specific, no time: a short verdict ("physio is the worst lol"), or a
    # remark of a few words, or of one word of substance ("here's where it's at"), that does not start
    # with what someone did ("just got home", but not "moving to denver!").
    if len(tokens) <= SHORT_REPLY_TOKENS and cc.is_verdict(core):
        return True
    content = [t for t in tokens if t not in lx.FILLER and t not in names]
    few = len(tokens) <= FEW_WORDS or len(content) <= 1
    return few and not (content and content[0].endswith(("ed", "ing")))


def _asks_for_action(text: str) -> bool:
    """An instruction or a task, which need no one named ("always answer in Spanish", "todo: call the
    landlord")."""
    return bool(
        lx.IMPERATIVE_START_RE.match(text)
        or lx.FROM_NOW_ON_RE.match(text)
        or lx.PREFER_YOU_RE.search(text)
        or lx.TASK_RE.search(text)
        or cc.asks_for_something(text)
    )


def _strip_thanks(sentence: str) -> str:
    """Drop a leading "Thanks!"/"Thank you for X," and return what follows (maybe nothing)."""
    m = lx.THANKS_PREFIX_RE.match(sentence)
    if not m:
        return sentence
    return sentence[m.end() :].strip()


def _is_dependent(sentence: str) -> bool:
    tokens = _tokens(sentence)
    if not tokens:
        return False
    return len(tokens) <= FRAGMENT_TOKENS or (
        len(tokens) <= SHORT_REPLY_TOKENS and tokens[0] in lx.DEPENDENT_START
    )
