"""The summary and the searchable context of an English memory: first and second person resolved to names,
a relative time made absolute, a shared photo described, the words a question of it may use."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from app.core.memory_types import MemoryType
from app.extraction.statements import (
    _APOSTROPHES,
    _WORD_OR_GAP_RE,
    BARE_REPLY_TOKENS,
    PARTNER_CONTEXT_CHARS,
    QUOTED_QUESTION_CHARS,
    REFERENT_CONTEXT_CHARS,
    _Group,
    _Speech,
    _tokens,
)
from app.extraction.text import (
    collapse_spaces,
    strip_emoji,
    truncate,
)
from app.extraction.types import (
    CONTEXT_MAX_CHARS,
    SUMMARY_MAX_CHARS,
    ExtractedMemory,
)
from app.language.categories import categories_of
from app.language.languages.en import lexicon as lx
from app.language.lemmas import base_forms
from app.language.temporal import TimeMention, find_time, names_a_holiday

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
    words = categories_of(text, "en") + base_forms(text, "en")
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
