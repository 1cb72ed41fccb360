"""The type of an English statement (instruction, task, event, fact) and its topic key when it states a
replaceable attribute (home city, job, favourite colour, the agent's tone…): the rules in their order."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from app.core.memory_types import MemoryType
from app.extraction import chit_chat as cc
from app.extraction.statements import (
    _APOSTROPHES,
    ATTRIBUTE_STATEMENT_TOKENS,
    _Group,
    _Speech,
    _tokens,
)
from app.extraction.summaries import _summarise
from app.extraction.text import (
    slug,
    truncate,
)
from app.extraction.types import (
    CONTENT_MAX_CHARS,
    ExtractedMemory,
)
from app.language.languages.en import lexicon as lx
from app.language.temporal import TimeMention, detect_tense, find_time

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
    if not speech.named and lx.STANDING_CONDITION_RE.search(text):
        return True
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
    lasting = lx.SINCE_RE.search(s.full) is not None
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
