"""The default extractor: offline, deterministic, rule-based.

A message is split into sentences; chit-chat and bare questions are dropped;
what is left is typed (instruction, task, event, fact), given a topic key when
it states a replaceable attribute (home city, job, favourite colour, the
agent's tone…), dated against the message timestamp, and summarised with
first and second person resolved to names. It needs nothing outside the
process and runs thousands of messages a second, so the worker can use it on
every ingest and ``/remember`` can call it inline.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import lru_cache

from app.core.memory_types import DEFAULT_TYPE, MemoryType
from app.core.timestamps import earlier_by
from app.extraction import chit_chat as cc
from app.extraction import verbatim
from app.extraction.text import (
    ParsedMessage,
    collapse_spaces,
    parse_message,
    slug,
    split_sentences,
    strip_emoji,
    truncate,
)
from app.extraction.types import (
    CONTENT_MAX_CHARS,
    CONTEXT_MAX_CHARS,
    SUMMARY_MAX_CHARS,
    ExtractedMemory,
    InputMessage,
)
from app.language import lexicon as lx
from app.language.categories import categories_of
from app.language.detect import Language, detect
from app.language.lemmas import base_forms
from app.language.temporal import TimeMention, detect_tense, find_time, names_a_day, names_a_holiday

# The rules' thresholds: each number says where a rule stops applying.
# A greeting or a reaction this short ("Wow, that's amazing!") is chit-chat; longer ones say something.
SHORT_REMARK_TOKENS = 6
# Content words (not filler, not names) a question needs before it tells something about someone.
QUESTION_CONTENT_WORDS = 2
# ... and before a short reply to it means something ("Yep, still here" to "Are you still in Porto?").
ANSWERED_QUESTION_CONTENT_WORDS = 1
# "My X is Y" names an attribute only in a short statement; in a long one "my X" is rarely the point.
ATTRIBUTE_STATEMENT_TOKENS = 16
# A reply this short ("Yes, twice!", "And?") means nothing without the question before it.
BARE_REPLY_TOKENS = 3
# A sentence this short leans on the one before ("So cool."), and one this short that starts with
# "it/that/they…" continues it; a reply this short to a question is given that question as context.
FRAGMENT_TOKENS = 2
SHORT_REPLY_TOKENS = 8
# A remark of this many words, anchored to no one, with nothing specific or dated in it, is small talk
# ("just got home", "gtg, dinner's ready").
FEW_WORDS = 3
# A clause shorter than this is not a statement of its own ("and I did").
MIN_CLAUSE_TOKENS = 3
# "Remember that …" must wrap more than a few characters to be a request to store them.
MIN_REMEMBERED_CHARS = 3
# Messages looked back over for the partner's turn a message answers (the conversation's last exchange).
PARTNER_LOOKBACK = 3
# Searchable context sizes: enough of the partner's turn and of the referent to match on, short enough
# that the low-weight context never outweighs the memory's own words; a quoted question in a summary.
PARTNER_CONTEXT_CHARS = 300
REFERENT_CONTEXT_CHARS = 200
QUOTED_QUESTION_CHARS = 90
# Room kept below CONTENT_MAX_CHARS when merging a dependent sentence, for the speaker prefix and captions.
MERGE_HEADROOM_CHARS = 100
# A plan's outcome is often told at the opening of a later session without naming it ("Done, last
# Sunday! 1:52:40"): a statement this short among a session's first turns, by someone whose plan of an
# earlier session fell due in the days before, carries that plan as context. Chosen on the six dev sets
# (bench/eval_retrieval.py): 8 turns and 30 days found the most (4 turns, 45 or 60 days, two plans or
# statements up to 20 tokens found as much or less).
OPENING_TURNS = 8
REPORT_TOKENS = 12
DUE_DAYS = 30
# Bounds on one message's analysis. Every pattern runs in time linear in its text, so work is bounded by
# size: a message holding more sentences than this (prose has one in ~80 characters: a 32 KiB message
# holds ~400) is kept verbatim, one memory of its opening, rather than analysed; and no message yields more
# memories than this. The whole text stays in the session's history either way.
MESSAGE_SENTENCE_BUDGET = 1000
MESSAGE_MEMORY_BOUND = 100

_TOKEN_RE = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_WORD_OR_GAP_RE = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?|[^A-Za-z]+")
_CAPITALISED_RE = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+")
_QUOTE_RE = re.compile(r"[\"“”]")
_SINCE_RE = re.compile(
    r"\b(?:ever\s+)?since\s+(?:the\s+)?(?:\d|[A-Za-z]+\s+\d{4}\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)",
    re.IGNORECASE,
)
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'"})
# Words only English uses among the languages written in Latin script here (not "a", "on", "me", "die").
_ENGLISH_WORDS = frozenset(
    [
        "the",
        "is",
        "are",
        "was",
        "were",
        "to",
        "of",
        "and",
        "it",
        "it's",
        "that",
        "this",
        "with",
        "for",
        "you",
        "i",
        "i'm",
        "my",
        "we",
        "be",
        "have",
        "has",
        "had",
        "just",
        "so",
        "what",
        "how",
        "not",
        "from",
        "your",
        "at",
        "by",
        "will",
        "would",
        "can",
        "do",
        "did",
        "does",
        "been",
        "there",
        "they",
        "he",
        "she",
        "but",
        "or",
        "if",
        "about",
        "like",
        "im",
        "lol",
        "omg",
        "tbh",
        "ngl",
        "btw",
        "brb",
        "gtg",
        "idk",
        "imo",
        "pls",
        "u",
        "ur",
    ]
)


@dataclass
class _Speech:
    """Who is talking in one message and to whom."""

    name: str
    named: bool  # the message carried a "Name:" prefix (or an explicit speaker)
    role: str
    addressee: str | None
    timestamp: datetime
    message_id: str | None


@dataclass
class _Group:
    """One memory in the making: a main sentence plus dependent sentences merged into it."""

    sentences: list[str] = field(default_factory=list)
    context: str | None = None  # a question this statement answers, from the other speaker
    explicit: bool = False  # "remember that …": keep whatever it says
    captions: tuple[str, ...] = ()  # image captions shared with these words
    photo: bool = False  # made for a shared photo whose words alone would have been dropped
    question: bool = False  # a question about the other person that names something specific


# ---------------------------------------------------------------- sentence analysis


def _tokens(text: str) -> list[str]:
    return _TOKEN_RE.findall(text.lower())


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
    return not _ENGLISH_WORDS.isdisjoint(tokens) or 2 * sum(t in lx.FILLER for t in tokens) >= len(tokens)


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


# ---------------------------------------------------------------- typing and topics


def _is_instruction(text: str, speech: _Speech) -> bool:
    if speech.role == "assistant" and not speech.named:
        return False  # the agent describing itself is not an instruction to itself
    if not speech.named and cc.is_polite_rule(text):
        return True
    m = lx.FROM_NOW_ON_RE.match(text)
    if m:
        rest = m["rest"].lstrip()
        return not re.match(r"(?:I|I'm|I'll|I've|we|we're|we'll|my|our)\b", rest)
    if lx.PREFER_YOU_RE.search(text):
        return not speech.named or bool(lx.AGENT_CUE_RE.search(text))
    m = lx.IMPERATIVE_START_RE.match(text)
    if m:
        verb = m["verb"].lower()
        if verb == "never" and re.match(r"\W*never\s+mind\b", text, re.IGNORECASE):
            return False
        # Between friends ("Never give up!") an imperative is advice, not a rule for the agent.
        if speech.named or verb not in lx.STANDING_RULE_VERBS:
            return bool(lx.AGENT_CUE_RE.search(text))
        return True
    return False


def _is_task(text: str, mention: TimeMention | None) -> bool:
    if lx.TASK_RE.search(text) or cc.is_obligation(text):
        return True
    # "by Friday" makes a deadline only for something still to come ("I finished it by Friday" is done).
    return bool(mention and lx.DEADLINE_RE.search(text) and detect_tense(text) != "past")


def _favourite_key(thing: str) -> str:
    parts = [lx.SPELLING.get(w, w) for w in thing.lower().split()]
    if parts and parts[-1] in lx.FAVOURITE_TRAILING:
        parts = parts[:-1]
    return "favourite_" + "_".join(parts) if parts else "favourite"


def _person_topic(text: str, who: str) -> str | None:
    """Topic key for a statement about the speaker ("my favourite colour is blue" → favourite_color)."""
    if lx.NEGATION_RE.search(text):
        return f"{who}.diet" if lx.DIET_RE.search(text) else None
    m = lx.FAVOURITE_RE.search(text)
    if m:
        return f"{who}.{_favourite_key(m['thing'] or m['thing2'])}"
    for rx, key in lx.PERSON_TOPICS:
        if rx.search(text):
            return f"{who}.{key}"
    m = lx.PET_RE.search(text)
    if m:
        return f"{who}.{slug(m['animal'] or m['animal2'])}_name"
    m = lx.MY_X_IS_RE.search(text)
    if m:
        thing = " ".join(lx.SPELLING.get(w, w) for w in m["thing"].lower().split())
        value = m["value"]
        last = thing.split()[-1]
        attribute = (
            thing in lx.GENERIC_ATTRIBUTES
            or last.endswith(lx.ATTRIBUTE_SUFFIXES)
            or bool(m["name"])
            or value[:1].isupper()
            or value[:1].isdigit()
        )
        if attribute and len(_tokens(text)) <= ATTRIBUTE_STATEMENT_TOKENS:
            return f"{who}.{slug(thing)}{'_name' if m['name'] else ''}"
    return None


def _agent_topic(text: str) -> str | None:
    for key, rx in lx.AGENT_TOPICS:
        if rx.search(text):
            return key
    return None


def _to_first_person(text: str) -> str:
    """The agent's "your X is Y" about the user, read as the user's "my X is Y" for topic detection."""
    return lx.SECOND_PERSON_RE.sub(lambda m: lx.TO_FIRST_PERSON[m.group(0).lower()], text)


# ---------------------------------------------------------------- summaries


def _third_person(word: str) -> str:
    lower = word.lower()
    if lower in lx.THIRD_PERSON:
        out = lx.THIRD_PERSON[lower]
    elif (
        lower in lx.MODALS
        or lower in lx.IRREGULAR_PAST
        or lower.endswith(("n't", "ing"))
        or (lower.endswith("ed") and not lower.endswith("eed"))
        or lower in lx.NO_THIRD_PERSON
    ):
        return word
    elif lower.endswith(lx.ES_ENDINGS):
        out = lower + "es"
    elif lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        out = lower[:-1] + "ies"
    else:
        out = lower + "s"
    return out.capitalize() if word[:1].isupper() else out


def _next_is_participle(parts: Sequence[str], index: int) -> bool:
    """After "I'd": "I'd met" is "I had met", "I'd love" is "I would love"."""
    for part in parts[index + 1 :]:
        if part[0].isalpha():
            lower = part.lower()
            if lower in lx.ADVERBS:
                continue
            return lower in lx.IRREGULAR_PAST or (lower.endswith("ed") and not lower.endswith("eed"))
    return False


# A gap holding one of these ends a clause: the next word may start a new subject.
_CLAUSE_PUNCTUATION = frozenset(",;:.!?")


def _resolve_persons(text: str, speaker: str, addressee: str | None) -> str:
    """Rewrite I/me/my to the speaker and you/your to the addressee, keeping verbs in agreement."""
    parts = _WORD_OR_GAP_RE.findall(text)
    out: list[str] = []
    conjugate_next = False
    prev_word = ""
    # "User ran User's first marathon" reads badly: once the speaker is named (and the addressee is not,
    # so "their" cannot be ambiguous), their possessive is "their".
    speaker_named = False
    addressee_named = False
    for part in parts:
        if not part[0].isalpha():
            out.append(part)
            if not _CLAUSE_PUNCTUATION.isdisjoint(part):
                prev_word = ","
            continue
        lower = part.lower()
        if conjugate_next:
            if lower in lx.ADVERBS:
                out.append(part)
                prev_word = lower
                continue
            conjugate_next = False
            if lower not in lx.PERSON_WORDS:
                out.append(_third_person(part))
                prev_word = lower
                continue
        if lower == "i":
            out.append(speaker)
            # "Sam and I are going" is a plural subject: its verb stays ("Sam and Nadia are going").
            conjugate_next = prev_word != "and"
            speaker_named = True
        elif lower in lx.CONTRACTIONS_I:
            speaker_named = True
            form = lx.CONTRACTIONS_I[lower]
            if lower == "i'd" and _next_is_participle(parts, len(out)):
                form = "{} had"
            out.append(form.format(speaker))
        elif lower in ("me", "myself"):
            out.append(speaker)
        elif lower in ("my", "mine"):
            if speaker_named and not addressee_named:
                out.append(("their" if lower == "my" else "theirs") if part.islower() else "Their")
            else:
                out.append(f"{speaker}'s")
                speaker_named = True
        elif addressee and lower in lx.CONTRACTIONS_YOU:
            form = lx.CONTRACTIONS_YOU[lower]
            if lower == "you'd" and _next_is_participle(parts, len(out)):
                form = "{} had"
            out.append(form.format(addressee))
        elif addressee and lower in ("you", "u"):
            # Inverted questions: "Are you still…" → "Is Tom still…".
            if prev_word in lx.INVERTED and len(out) >= 2:
                before = out[-2]
                swapped = lx.INVERTED[prev_word]
                out[-2] = swapped.capitalize() if before[:1].isupper() else swapped
            out.append(addressee)
            addressee_named = True
            conjugate_next = prev_word in ("", ",") or prev_word in lx.SUBJECT_BEFORE
        elif addressee and lower == "yourself":
            out.append(addressee)
        elif addressee and lower in lx.SECOND_PERSON_POSSESSIVES:
            out.append(f"{addressee}'s")
        else:
            out.append(part)
        prev_word = lower
    return "".join(out)


def _photo_phrase(captions: Sequence[str]) -> str:
    caption = strip_emoji(captions[0]).rstrip(". ")
    return f"a photo of {lx.PHOTO_OF_RE.sub('', caption)}"


def _without_relative_time(text: str, mention: TimeMention | None, anchor: datetime) -> str:
    """ "Yesterday I ran…" → "I ran…": the summary states the absolute date instead (appended later)."""
    if mention is None:
        return text
    found = find_time(text, anchor)
    if found is None:
        return text
    start, end = found.span
    said = text[start:end]
    if any(c.isdigit() for c in said) or lx.MONTH_WORD_RE.search(said) or names_a_holiday(said):
        return text  # already absolute ("on 8 May", "for Easter"): keep the speaker's words
    before = text[:start].rstrip(" ,")
    if lx.DATE_PREPOSITION_RE.search(before) and found.granularity == "day":
        # "at 3pm on Tuesday" → "at 3pm on 9 May 2023": the date takes the relative word's place.
        return text[:start] + found.label + text[end:]
    if lx.COPULA_END_RE.search(before):
        # "First day was yesterday." would be left as "First day was.": the date is the complement.
        on = "on " if found.granularity == "day" else ""
        return text[:start] + on + found.label + text[end:]
    after = text[end:]
    # "Back to reality tomorrow, sprint planning at nine" keeps its comma: "Back to reality, sprint…".
    joint = ", " if before and after.lstrip().startswith(",") else " "
    rest = (before + joint + after.lstrip(" ,")).strip()
    rest = re.sub(r"\s+([,.!?;])", r"\1", rest)
    return rest[:1].upper() + rest[1:] if rest else text


def _needs_its_question(group: _Group) -> bool:
    """A bare yes / no or a reply of a few words; a reply with its own content ("Procurement. They only
    approve hotels on the list.") stands alone, its question stays in the searchable context only."""
    said = " ".join(group.sentences)
    return bool(lx.YES_NO_RE.match(said)) or len(_tokens(said)) <= BARE_REPLY_TOKENS


def _summarise(group: _Group, speech: _Speech, kind: MemoryType, mention: TimeMention | None) -> str:
    # Emoji stay: "My favourite emoji is 🦄" is about the 🦄.
    text = collapse_spaces(" ".join(s.translate(_APOSTROPHES) for s in group.sentences))
    text = _without_relative_time(text, mention, speech.timestamp)
    stripped = lx.LEADING_FILLER_RE.sub("", text).strip()
    if stripped and not group.context:  # "Yes, twice!" answers a question: the "yes" is the answer
        text = stripped
    text = collapse_spaces(_resolve_persons(text, speech.name, speech.addressee))
    if group.photo:
        # The words around a shared photo are usually "look at this!"; the caption is what matters.
        text = f"{speech.name} shared {_photo_phrase(group.captions)}"
    elif group.question:
        text = f"{speech.name} asked: {text}"
    elif group.context and _needs_its_question(group):
        # "Yes, twice!" means nothing without its question: say what it answered.
        question = truncate(strip_emoji(group.context.translate(_APOSTROPHES)), QUOTED_QUESTION_CHARS)
        text = f'{speech.name} answered "{question}": {text}'
    elif speech.named and speech.name.lower() not in text.lower() and kind != MemoryType.INSTRUCTION:
        text = f"{speech.name}: {text}"
    if mention and mention.label.lower() not in text.lower():
        text = f"{text.rstrip(' .!')} ({mention.label})"
    text = text[:1].upper() + text[1:]
    return truncate(text.rstrip(), SUMMARY_MAX_CHARS)


# ---------------------------------------------------------------- searchable context


def _keywords(text: str, topic: str | None) -> list[str]:
    """Generated search words: categories of what the text names, base forms of its irregular verbs,
    and the words a question about its topic key's slot would use."""
    words = categories_of(text) + base_forms(text)
    if topic:
        attribute = topic.partition(".")[2]
        slot = lx.SLOT_WORDS.get(attribute)
        words += slot.split() if slot else attribute.replace("_", " ").split()
    return list(dict.fromkeys(words))


def _context(
    memory: ExtractedMemory, partner: str | None, referent: str | None, carried: str | None = None
) -> str:
    """The low-weight searchable context of a memory: the partner's turn it answers, the sentence its
    "it / them / there" points back to, the earlier plan it may report on, and generated keywords. Never
    shown, only searched."""
    parts: list[str] = []
    if partner:
        parts.append(truncate(strip_emoji(partner), PARTNER_CONTEXT_CHARS))
    if referent and lx.REFERENT_RE.search(memory.content):
        parts.append(truncate(strip_emoji(referent), REFERENT_CONTEXT_CHARS))
    if carried:  # a plan of an earlier session this may report the outcome of
        parts.append(truncate(strip_emoji(carried), REFERENT_CONTEXT_CHARS))
    keywords = _keywords(" ".join([memory.content, *parts]), memory.topic_key)
    if keywords:
        parts.append(" ".join(keywords))
    return truncate(" ".join(parts), CONTEXT_MAX_CHARS)


# ---------------------------------------------------------------- building memories


def _content(group: _Group, speech: _Speech) -> str:
    body = " ".join(group.sentences)
    if group.captions:
        body = (body + "".join(f" [image: {c}]" for c in group.captions)).strip()
    text = f"{speech.name}: {body}" if speech.named else body
    return truncate(text, CONTENT_MAX_CHARS)


@dataclass(frozen=True)
class _Statement:
    """What the type rules read: one group as its speaker said it, dated."""

    group: _Group
    speech: _Speech
    main: str  # the first sentence (apostrophes normalised)
    full: str  # every sentence of the group
    mention: TimeMention | None  # the time it is about, if any


@dataclass(frozen=True)
class _Typed:
    kind: MemoryType
    topic: str | None = None
    event_time: datetime | None = None


def question_asserts_nothing(s: _Statement) -> _Typed | None:
    """A kept question is a fact about what was asked: no topic to supersede, no date to trust."""
    return _Typed(MemoryType.FACT) if s.group.question else None


def instruction(s: _Statement) -> _Typed | None:
    """How the agent should behave; "remind me …" is a task even when it sounds like a rule, unless it
    starts "from now on"."""
    if not _is_instruction(s.main, s.speech):
        return None
    if lx.STRONG_TASK_RE.search(s.main) and not lx.FROM_NOW_ON_RE.match(s.main):
        return None
    return _Typed(MemoryType.INSTRUCTION, topic=_agent_topic(s.main))


def task(s: _Statement) -> _Typed | None:
    """Something to be done, dated by its deadline when it has one."""
    if not _is_task(s.full, s.mention):
        return None
    return _Typed(MemoryType.TASK, event_time=s.mention.point if s.mention else None)


def replaceable_attribute(s: _Statement) -> _Typed | None:
    """A fact with a topic key (home city, job, favourite colour…), which a later one supersedes; the
    agent's "your X is Y" is about the user."""
    who, text = slug(s.speech.name) or "user", s.full
    if s.speech.role == "assistant" and not s.speech.named:
        who, text = "user", _to_first_person(s.full)
    topic = _person_topic(text, who)
    if topic is None:
        return None
    return _Typed(MemoryType.FACT, topic=topic, event_time=s.mention.point if s.mention else None)


def dated_event(s: _Statement) -> _Typed | None:
    """Something that happened or will happen at the time it names; a state the time only starts ("I've
    been vegetarian since 2019") is a lasting fact, dated all the same."""
    if s.mention is None:
        return None
    lasting = _SINCE_RE.search(s.full) is not None
    return _Typed(MemoryType.FACT if lasting else MemoryType.EVENT, event_time=s.mention.point)


def past_action(s: _Statement) -> _Typed | None:
    """Something done ("I ran my first marathon"), dated by the message: not a past state ("I was tired")."""
    if lx.PAST_ACTION_RE.search(s.full) and not lx.PAST_STATE_RE.search(s.full):
        return _Typed(MemoryType.EVENT, event_time=s.speech.timestamp)
    return None


def lasting_fact(s: _Statement) -> _Typed | None:
    """Whatever is left: a lasting statement."""
    return _Typed(MemoryType.FACT)


# The type rules, in order: the first that answers types the memory (the last always answers).
TYPE_RULES: tuple[Callable[[_Statement], _Typed | None], ...] = (
    question_asserts_nothing,
    instruction,
    task,
    replaceable_attribute,
    dated_event,
    past_action,
    lasting_fact,
)


def _build(
    group: _Group, speech: _Speech, previous: TimeMention | None = None
) -> tuple[ExtractedMemory | None, TimeMention | None]:
    """Type, date and summarise one group; also returns the time it is about, for the next group."""
    content = _content(group, speech)
    if not content.strip():
        return None, previous
    main = group.sentences[0].translate(_APOSTROPHES) if group.sentences else ""
    full = " ".join(group.sentences).translate(_APOSTROPHES)
    # Date each sentence on its own: a merged "They're going to replace it" must not make
    # "I saw the surgeon on Thursday" a future Thursday.
    mention = None
    for sentence in group.sentences:
        mention = find_time(sentence.translate(_APOSTROPHES), speech.timestamp)
        if mention is not None:
            break
    if mention is None and previous is not None:
        # "We went camping last weekend. We roasted marshmallows." - the second is the same outing.
        tense = detect_tense(full)
        if (tense == "past" and previous.start <= speech.timestamp) or (
            tense == "future" and previous.end > speech.timestamp
        ):
            mention = previous
    statement = _Statement(group, speech, main, full, mention)
    typed = next(t for rule in TYPE_RULES if (t := rule(statement)) is not None)
    kind, topic, event_time = typed.kind, typed.topic, typed.event_time
    used = mention if event_time is not None else None
    summary = _summarise(group, speech, kind, used)
    ids = (speech.message_id,) if speech.message_id else ()
    return ExtractedMemory(kind, summary, content, topic, event_time, ids), used or previous


def _speech_for(speaker: str | None, role: str) -> tuple[str, bool]:
    if speaker:
        return speaker, True
    return lx.speaker_label(role), False


def _default_addressee(role: str, named: bool) -> str | None:
    if named:
        return None
    if role == "assistant":
        return "User"
    if role == "user":
        return "the assistant"
    return None


def _split_statement(sentence: str) -> tuple[str, bool, bool]:
    """Normalise one sentence: returns (statement, is_question, explicit-remember)."""
    text = sentence.strip()
    explicit = False
    m = lx.REMEMBER_WRAPPER_RE.match(text)
    if m and len(text) - m.end() > MIN_REMEMBERED_CHARS:
        text = text[m.end() :]
        text = text[:1].upper() + text[1:]
        explicit = True
        # "Did you know I moved to Boston?" is a statement dressed as a question.
        return (text.rstrip(" ?") if text.rstrip().endswith("?") else text), False, explicit
    told = cc.announced(text)
    if told is not None:  # "Did I tell you I got the job?" tells that I got the job
        return told, False, explicit
    told = cc.statement_before_request(text)
    if told is not None:  # "I'm allergic to peanuts, can you tell her?" tells the allergy
        return told, False, explicit
    if text.rstrip(" \"'”)").endswith("?") and cc.without_tag(text) != text:
        return cc.without_tag(text), False, explicit  # "always answer in Spanish, ok?" is the instruction
    if cc.reads_as_question(text):
        return text, True, explicit
    if text.rstrip(" \"'”)").endswith("?"):
        req = lx.REQUEST_QUESTION_RE.match(text)
        if req and lx.REQUEST_REST_RE.match(req["rest"]):
            rest = req["rest"].rstrip(" ?")
            return rest[:1].upper() + rest[1:], False, explicit
        return text, True, explicit
    return text, False, explicit


def _groups_for_message(
    sentences: Sequence[str], names: frozenset[str], context_question: str | None, speech: _Speech
) -> tuple[list[_Group], bool]:
    """Group a message's sentences into memories; also says whether its last sentence was kept."""
    groups: list[_Group] = []
    last_kept: _Group | None = None
    last_sentence_kept = False
    # Only the other speaker's question gives context: one's own question is not answered by oneself.
    pending_question = context_question
    for index, raw in enumerate(sentences):
        last_sentence_kept = False
        text, is_question, explicit = _split_statement(raw)
        if is_question:
            pending_question = None
            last_kept = None
            # "Couldn't we stay in town?" carries a plan; "Are you still in Porto?" is the context of its answer
            # (below), "How are you?" carries nothing.
            if not (speech.role == "assistant" and not speech.named) and _informative_question(text, names):
                groups.append(_Group([text], question=True))
                last_sentence_kept = True
            continue
        if not explicit:
            remainder = _strip_thanks(text)
            if not remainder:
                continue
            text = remainder
        chit = not explicit and _is_chitchat(text, names)
        # An assistant speaking as itself (no name) makes conversation or tells general knowledge, unless
        # what it says concerns the user.
        agent = speech.role == "assistant" and not speech.named
        answers = (
            index == 0
            and pending_question is not None
            and len([t for t in _tokens(pending_question) if t not in lx.FILLER and t not in names])
            >= ANSWERED_QUESTION_CONTENT_WORDS
        )
        # An answer is kept for its question; an assistant's, only when the question was about it ("Did
        # you bake anything?"), not a request for general knowledge.
        exempt = answers and (not agent or lx.YOU_RE.search(pending_question or "") is not None)
        says_nothing = (
            not chit and not explicit and not exempt and _says_nothing(text, names, speech.timestamp, agent)
        )
        if (
            last_kept is not None
            and _is_dependent(text)
            and not lx.GREETING_RE.match(text)
            and len(" ".join(last_kept.sentences)) + len(text) < CONTENT_MAX_CHARS - MERGE_HEADROOM_CHARS
        ):
            last_kept.sentences.append(text)
            last_sentence_kept = True
            continue
        if chit or says_nothing:
            # "Yep, still here" answers "Are you still in Porto?"; "Good, busy" does not answer "How are you?".
            answer = (
                chit
                and answers
                and pending_question is not None
                and lx.YES_NO_RE.match(text) is not None
                and lx.AUX_QUESTION_RE.match(pending_question) is not None
            )
            if not answer:
                pending_question = None
                continue
        group = _Group([text], explicit=explicit)
        if pending_question is not None and (
            len(_tokens(text)) <= SHORT_REPLY_TOKENS or lx.YES_NO_RE.match(text)
        ):
            group.context = pending_question
        pending_question = None
        groups.append(group)
        last_kept = group
        last_sentence_kept = True
    return groups, last_sentence_kept


class DefaultExtractor:
    """Rule-based extractor: no network, no model, same input → same output."""

    async def extract(
        self,
        messages: Sequence[InputMessage],
        *,
        new_from: int = 0,
        earlier: Sequence[InputMessage] | None = None,
    ) -> list[ExtractedMemory]:
        # CPU-bound: in a thread, so the caller's event loop keeps answering (the worker renews its
        # leases and reads NOTIFY, the API serves requests) while a large batch is extracted.
        return await asyncio.to_thread(extract_memories, messages, new_from=new_from, earlier=earlier)


def extract_memories(
    messages: Sequence[InputMessage],
    *,
    new_from: int = 0,
    earlier: Sequence[InputMessage] | None = None,
) -> list[ExtractedMemory]:
    """Synchronous core of ``DefaultExtractor.extract``, for callers that are not async."""
    parsed = [parse_message(m.content) for m in messages]
    speakers = [m.speaker or p.speaker for m, p in zip(messages, parsed, strict=True)]
    conversation = _Conversation(messages, parsed, speakers)
    names = _name_forms(s for s in speakers if s)
    # `earlier` (other sessions' messages, given when the window opens its session): their plans now due.
    due = _due_plans(earlier, messages[0].timestamp) if earlier and messages else {}
    memories: list[ExtractedMemory] = []
    seen: set[str] = set()
    for index in range(max(new_from, 0), len(messages)):
        message = messages[index]
        p = parsed[index]
        name, named = _speech_for(speakers[index], message.role)
        addressee = _addressee(speakers, index, name) if named else _default_addressee(message.role, named)
        speech = _Speech(name, named, message.role, addressee, message.timestamp, message.id)
        language = message.language or detect(p.body)
        if not language.english:
            memories += _verbatim(conversation, index, name if named else None, language, seen)
            continue
        context_question = _previous_question(conversation, index, name)
        partner, own_previous = _partner_turn(conversation, index, name)
        sentences = split_sentences(p.body) if p.body else []
        if len(sentences) > MESSAGE_SENTENCE_BUDGET:
            memories.append(kept_whole(message.content, message.id))
            continue
        groups, last_kept = _groups_for_message(sentences, names, context_question, speech)
        if p.captions:
            if groups and last_kept:
                groups[-1].captions = p.captions
            else:
                # A shared photo is information even when the words around it are not ("Look at this!").
                groups.append(_Group(sentences[-1:], captions=p.captions, photo=True))
        previous: TimeMention | None = None
        referent = own_previous
        parts = (part for whole in groups for part in _split_compound(whole))
        for group in itertools.islice(parts, MESSAGE_MEMORY_BOUND):
            memory, previous = _build(group, speech, previous)
            if memory is None or memory.content in seen:
                continue
            seen.add(memory.content)
            carried = due.get(name) if due and _is_report(index, memory) else None
            context = _context(memory, partner, referent, carried)
            memories.append(replace(memory, context=context, language=language.config))
            referent = " ".join(group.sentences)
    return memories


def _verbatim(
    conversation: _Conversation, index: int, speaker: str | None, language: Language, seen: set[str]
) -> list[ExtractedMemory]:
    """Message `index`, which the English rules cannot read, as verbatim statements (`verbatim`)."""
    message, parsed = conversation.messages[index], conversation.parsed[index]
    partner, _ = _partner_turn(conversation, index, conversation.speaker(index))
    agent_speaking = message.role == "assistant" and speaker is None
    said = verbatim.statements(parsed.body, language, agent_speaking=agent_speaking, partner=partner)
    if parsed.captions:
        images = "".join(f" [image: {c}]" for c in parsed.captions)
        said = [*said[:-1], said[-1] + images] if said else [images.strip()]
    found: list[ExtractedMemory] = []
    for statement in said:
        memory = verbatim.memory(
            statement,
            language,
            speaker=speaker,
            timestamp=message.timestamp,
            message_ids=(message.id,),
            context=partner,
            agent_speaking=agent_speaking,
        )
        if memory.content not in seen:
            seen.add(memory.content)
            found.append(memory)
    return found


def _due_plans(earlier: Sequence[InputMessage], start: datetime) -> dict[str, str]:
    """Each speaker's latest plan of an earlier session whose time has come by `start` (a sentence naming
    a time after its message's day, a time within `DUE_DAYS` before `start`): what the opening of a new
    session may report on without naming it ("I DID IT!!!" after "I signed up for the race in May")."""
    latest: dict[str, tuple[datetime, str]] = {}
    since = earlier_by(start, timedelta(days=DUE_DAYS))
    for message in earlier:
        # A plan is said in a sentence or two: the head of a long message is enough, and bounds the cache.
        head = message.content[:CONTENT_MAX_CHARS]
        name, plans = _plans_of(head, message.role, message.speaker, message.timestamp)
        for at, sentence in plans:
            if since <= at <= start and (name not in latest or at > latest[name][0]):
                latest[name] = (at, sentence)
    return {name: sentence for name, (_, sentence) in latest.items()}


# Each session's opening reads the same earlier messages again: one worker's recent ones are remembered
# (at most this many heads of CONTENT_MAX_CHARS: a few MB).
@lru_cache(maxsize=4096)
def _plans_of(
    content: str, role: str, speaker: str | None, told: datetime
) -> tuple[str, tuple[tuple[datetime, str], ...]]:
    """Who said a message, and its sentences naming a time after the day it was told (with that time)."""
    parsed = parse_message(content)
    name = _speech_for(speaker or parsed.speaker, role)[0]
    plans = []
    for sentence in split_sentences(parsed.body) if parsed.body else []:
        mention = find_time(sentence, told)
        if mention is not None and mention.start.date() > told.date():
            plans.append((mention.start, sentence))
    return name, tuple(plans)


def _is_report(index: int, memory: ExtractedMemory) -> bool:
    """A short statement at the opening of a session: perhaps the outcome of a plan, unnamed."""
    return index < OPENING_TURNS and len(_tokens(parse_message(memory.content).body)) <= REPORT_TOKENS


@dataclass(frozen=True)
class _Conversation:
    """The messages being extracted, with their parsed bodies and speakers, index for index."""

    messages: Sequence[InputMessage]
    parsed: Sequence[ParsedMessage]
    speakers: Sequence[str | None]

    def speaker(self, index: int) -> str:
        """Who said message `index`: its speaker, else its role's generic name."""
        return self.speakers[index] or _speech_for(None, self.messages[index].role)[0]


def _partner_turn(conversation: _Conversation, index: int, name: str) -> tuple[str | None, str | None]:
    """The other speaker's latest turn before this message (what it answers), and this speaker's own
    message just before it, when they spoke twice in a row (what its "it" may point back to)."""
    partner: str | None = None
    own: str | None = None
    for j in range(index - 1, max(index - 1 - PARTNER_LOOKBACK, -1), -1):
        speaker = conversation.speaker(j)
        parsed = conversation.parsed[j]
        body = parsed.body + "".join(f" [image: {c}]" for c in parsed.captions)
        if speaker == name:
            if own is None and j == index - 1:
                own = body
            continue
        partner = body
        if j > 0 and len(body.split()) <= BARE_REPLY_TOKENS:
            # "And?" or "Are they growing?" answers nothing alone: the turn before it says what it is about.
            partner = conversation.parsed[j - 1].body + " " + body
        break
    return partner, own


def _split_compound(group: _Group) -> list[_Group]:
    """Split a main sentence joining statements of different topics into one group per statement.

    "I moved to Lisbon and I like fado" is a home city and a taste: kept as one memory, a later move
    would supersede it and hide the fado with it. Clauses split only when their topic keys differ, and
    never when a clause leans on the other ("and I love it there"); dependent sentences stay with the
    last clause.
    """
    if group.question or group.photo or group.captions or not group.sentences:
        return [group]
    main = group.sentences[0]
    lowered = main.lower()
    if ";" not in main and not any(f" {word} " in lowered for word in lx.CLAUSE_JOINERS):
        return [group]  # the common case, decided without running the clause regex over the text
    clauses = [c.strip(" ,;") for c in lx.CLAUSE_BREAK_RE.split(main)]
    clauses = [c for c in clauses if c]
    if len(clauses) < 2 or any(len(_tokens(c)) < MIN_CLAUSE_TOKENS for c in clauses):
        return [group]
    if any(lx.BACK_REFERENCE_RE.search(c) for c in clauses[1:]):
        return [group]
    topics = [_person_topic(c.translate(_APOSTROPHES), "user") for c in clauses]
    if all(t is None for t in topics) or len(set(topics)) < len(topics):
        return [group]
    end = main.rstrip()[-1:] if main.rstrip()[-1:] in ".!" else "."
    parts: list[_Group] = []
    for i, clause in enumerate(clauses):
        sentence = clause[:1].upper() + clause[1:]
        if sentence[-1:] not in ".!?":
            sentence += end
        rest = group.sentences[1:] if i == len(clauses) - 1 else []
        parts.append(_Group([sentence, *rest], context=group.context, explicit=group.explicit))
    return parts


def _name_forms(speakers: Iterable[str]) -> frozenset[str]:
    """Lower-case names and their nicknames ("Mel" for Melanie), so addressing someone is not content."""
    forms = {"user", "assistant"}
    for speaker in speakers:
        for part in speaker.lower().split():
            forms.add(part)
            forms.update(part[:n] for n in range(3, len(part)))
    return frozenset(forms)


def _addressee(speakers: Sequence[str | None], index: int, name: str) -> str | None:
    """The other person in a two-party chat: the nearest different speaker, looking back first."""
    for j in range(index - 1, -1, -1):
        other = speakers[j]
        if other and other != name:
            return other
    for j in range(index + 1, len(speakers)):
        other = speakers[j]
        if other and other != name:
            return other
    return None


def _previous_question(conversation: _Conversation, index: int, name: str) -> str | None:
    """The other speaker's question this message answers: the previous message's last sentence, if a
    question."""
    if index == 0 or conversation.speaker(index - 1) == name:
        return None
    body = conversation.parsed[index - 1].body
    sentences = split_sentences(body) if body else []
    if sentences and sentences[-1].rstrip(" \"'”)").endswith("?"):
        return sentences[-1]
    return None


def classify_statement(
    text: str,
    role: str,
    timestamp: datetime,
    *,
    speaker: str | None = None,
    keep_all: bool = False,
    message_id: str | None = None,
) -> ExtractedMemory | None:
    """Classify one statement as one memory, as ``/remember`` needs.

    Chit-chat and bare questions give None unless ``keep_all``, in which case
    they are stored as a fact: whoever calls ``/remember`` already decided it
    is worth keeping. The whole text is one memory, however many sentences.
    """
    parsed = parse_message(text)
    name, named = _speech_for(speaker or parsed.speaker, role)
    speech = _Speech(name, named, role, _default_addressee(role, named), timestamp, message_id)
    body = collapse_spaces(parsed.body)
    if not body:
        if not parsed.captions:
            return None
        body = f"{name} shared a photo"
    language = detect(body)
    if not language.english:
        # Another language: the statement as it was said, if it says anything.
        if not keep_all and not verbatim.statements(body, language):
            return None
        ids = (message_id,) if message_id else ()
        return verbatim.memory(
            body,
            language,
            speaker=name if named else None,
            timestamp=timestamp,
            message_ids=ids,
            agent_speaking=role == "assistant" and not named,
        )
    statement, is_question, explicit = _split_statement(body)
    remainder = _strip_thanks(statement)
    names = _name_forms([name])
    if not keep_all and not explicit and (is_question or not remainder or _is_chitchat(remainder, names)):
        return None
    statement = remainder or statement
    memory = _build(_Group([statement], explicit=explicit, captions=parsed.captions), speech)[0]
    return replace(memory, context=_context(memory, None, None)) if memory is not None else None


def classify_one(
    text: str, role: str, timestamp: datetime, *, speaker: str | None = None, message_id: str | None = None
) -> ExtractedMemory:
    """``classify_statement`` that never drops: for ``/remember``, which stores what it is given."""
    memory = classify_statement(text, role, timestamp, speaker=speaker, keep_all=True, message_id=message_id)
    return kept_whole(text, message_id) if memory is None else memory


def kept_whole(text: str, message_id: str | None) -> ExtractedMemory:
    """The text kept as it is, not analysed: a fact of its opening (the content limit's worth)."""
    content = truncate(text.strip(), CONTENT_MAX_CHARS)
    summary = truncate(collapse_spaces(content), SUMMARY_MAX_CHARS)
    ids = (message_id,) if message_id else ()
    return ExtractedMemory(DEFAULT_TYPE, summary or "(empty)", content, None, None, ids)
