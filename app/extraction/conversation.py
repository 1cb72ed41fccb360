"""What the English rules read from the conversation around a message: the partner's turn it answers, the
question before it, who it is addressed to, the names that speak, plans now due, compound statements."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from app.core.timestamps import earlier_by
from app.extraction.statements import (
    _APOSTROPHES,
    BARE_REPLY_TOKENS,
    DUE_DAYS,
    MIN_CLAUSE_TOKENS,
    OPENING_TURNS,
    PARTNER_LOOKBACK,
    REPORT_TOKENS,
    _Group,
    _tokens,
)
from app.extraction.text import (
    ParsedMessage,
    parse_message,
)
from app.extraction.types import (
    CONTENT_MAX_CHARS,
    ExtractedMemory,
    InputMessage,
)
from app.extraction.typing_rules import _person_topic
from app.language.detect import ENGLISH
from app.language.languages.en import lexicon as lx
from app.language.sentences import split_sentences
from app.language.speakers import speaker_label
from app.language.temporal import find_time


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
    for sentence in split_sentences(parsed.body, ENGLISH.code) if parsed.body else []:
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
    sentences = split_sentences(body, ENGLISH.code) if body else []
    if sentences and sentences[-1].rstrip(" \"'”)").endswith("?"):
        return sentences[-1]
    return None


def _speech_for(speaker: str | None, role: str) -> tuple[str, bool]:
    if speaker:
        return speaker, True
    return speaker_label(role), False
