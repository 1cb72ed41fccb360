"""Memories of a message the English rules cannot read: each statement kept as it was said.

A message in another language than English (`app.language.detect`) is split into statements
(`app.language.sentences`: CJK full stops too), and every one is a memory except bare
questions (a question that tells of the asker is kept: `chit_chat.tells_in_question_in`), chit-chat in
that language (`chit_chat.says_nothing_in`: greetings, thanks, well-wishes, reactions, statements with no
content-bearing word) and, from the assistant speaking as itself, what does not concern the user
(`chit_chat.concerns_the_user_in`): no pronoun is rewritten, no word dropped; the
summary is the statement itself, with its speaker's name before it when the conversation names them
(`Marta: Me encanta el sushi.`). A statement asking the agent for a standing rule (`A partir de ahora
respóndeme en español`) is an instruction, one naming something to be done (`Tengo que renovar el
pasaporte`, `提醒我交房租`) a task, one naming a date or a relative day (`mañana`, `下个月`, `8. Mai`) an
event at that day, any other a fact (`app.language.cues`). A statement of a few words joins its neighbour
("Ya llegué." says little alone), a short reaction the statement it follows ("Estuve en Granada. ¡Precioso!"),
and the partner's turn it answers is its searchable context.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from app.core.memory_types import MemoryType
from app.extraction.chit_chat import (
    concerns_the_user_in,
    is_courtesy_in,
    says_nothing_in,
    substance,
    tells_in_question_in,
)
from app.extraction.text import truncate
from app.extraction.types import CONTENT_MAX_CHARS, CONTEXT_MAX_CHARS, SUMMARY_MAX_CHARS, ExtractedMemory
from app.language.cues import asks_for_a_rule, is_question, names_a_task
from app.language.detect import Language
from app.language.sentences import split_sentences
from app.language.temporal import names_a_day, resolve_event_time

# A statement shorter than this (in words, or CJK characters over CJK_CHARS_A_WORD) joins the one before it.
MIN_STATEMENT_WORDS = 4
CJK_CHARS_A_WORD = 2


def _size(text: str, language: Language) -> int:
    if language.unspaced:
        return len(text) // CJK_CHARS_A_WORD
    return len(text.split())


def statements(
    body: str,
    language: Language,
    *,
    keep_all: bool = False,
    agent_speaking: bool = False,
    partner: str | None = None,
) -> list[str]:
    """The statements of a message body worth a memory each (`keep_all`: every one, questions and
    greetings too, merged the same way). A short statement joins the one before it, or the one after it
    when it opens the message ("Ya llegué. Mañana vuelvo a Sevilla."); chit-chat makes none of its own, nor
    a question that tells nothing of anyone. `agent_speaking` (the assistant as itself): only what concerns
    the user, read against the `partner`'s turn before it."""
    joiner = "" if language.unspaced else " "
    kept: list[str] = []
    opening = ""
    # Read once for all the statements of the reply (a long reply has many).
    partner_words = substance(partner, language.code) if agent_speaking and partner else frozenset()
    for sentence in split_sentences(body, language.code):
        dated = names_a_day(sentence, language.code)
        if not keep_all and is_question(sentence):
            if not agent_speaking and tells_in_question_in(sentence, language.code, dated=dated):
                kept.append(opening + sentence)
                opening = ""
            continue
        if (
            not keep_all
            and agent_speaking
            and not concerns_the_user_in(sentence, language.code, partner_words, dated=dated)
        ):
            continue  # conversation: an offer of more help, sympathy, encouragement
        if not keep_all and says_nothing_in(sentence, language.code, dated=dated):
            # A short reaction stays with the statement it reacts to ("Tes tacos... incroyables"), as the
            # English rules keep "So cool." with the sentence before; a greeting, thanks or farewell does
            # not, nor a day named in passing ("¡Hasta mañana!" would date the statement).
            short = _size(sentence, language) < MIN_STATEMENT_WORDS
            if not short or dated or is_courtesy_in(sentence, language.code):
                continue
            if opening:
                opening += sentence + joiner
            elif kept:
                kept[-1] += joiner + sentence
            continue
        if _size(sentence, language) >= MIN_STATEMENT_WORDS:
            kept.append(opening + sentence)
            opening = ""
        elif kept:
            kept[-1] += joiner + sentence
        else:
            opening += sentence + joiner
    if opening:
        kept.append(opening.strip())
    return kept


def _kind(statement: str, *, dated: bool, agent_speaking: bool) -> MemoryType:
    """The type rules of the English statements, in their order, read by cues that work across languages:
    a rule for the agent, something to be done (dated by its deadline), a dated happening, else a fact."""
    if not agent_speaking and asks_for_a_rule(statement):
        return MemoryType.INSTRUCTION
    if names_a_task(statement):
        return MemoryType.TASK
    return MemoryType.EVENT if dated else MemoryType.FACT


def memory(
    statement: str,
    language: Language,
    *,
    speaker: str | None,
    timestamp: datetime,
    message_ids: Sequence[str],
    context: str | None = None,
    agent_speaking: bool = False,
) -> ExtractedMemory:
    """One statement as a memory: verbatim, typed by the cues it holds, its speaker named as a prefix.
    `agent_speaking`: the assistant speaking as itself, which gives itself no rules."""
    said = f"{speaker}: {statement}" if speaker else statement
    event_time = resolve_event_time(statement, timestamp, language.code)
    kind = _kind(statement, dated=event_time is not None, agent_speaking=agent_speaking)
    if kind == MemoryType.INSTRUCTION:
        event_time = None  # a rule holds from when it is said, whatever day it names
    return ExtractedMemory(
        kind,
        truncate(said, SUMMARY_MAX_CHARS),
        truncate(said, CONTENT_MAX_CHARS),
        None,
        event_time,
        tuple(message_ids),
        truncate(context, CONTEXT_MAX_CHARS) if context else "",
        language.config,
    )
