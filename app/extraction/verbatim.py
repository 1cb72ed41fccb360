"""Memories of a message the English rules cannot read: each statement kept as it was said.

A message in another language than English (`app.language.detect`) is split into statements
(`app.language.cues.split_statements`: CJK full stops too), and every one is a memory except bare
questions and statements made only of greetings or thanks: no pronoun is rewritten, no word dropped; the
summary is the statement itself, with its speaker's name before it when the conversation names them
(`Marta: Me encanta el sushi.`). A statement naming a date or a relative day (`mañana`, `下个月`,
`8. Mai`) is an event at that day, any other a fact. A statement of a few words joins its neighbour
("Es precioso." says nothing alone), and the partner's turn it answers is its searchable context.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from app.core.memory_types import MemoryType
from app.extraction.text import truncate
from app.extraction.types import CONTENT_MAX_CHARS, CONTEXT_MAX_CHARS, SUMMARY_MAX_CHARS, ExtractedMemory
from app.language.cues import date_mentioned, is_courtesy, is_question, split_statements
from app.language.detect import Language

# A statement shorter than this (in words, or CJK characters over CJK_CHARS_A_WORD) joins the one before it.
MIN_STATEMENT_WORDS = 4
CJK_CHARS_A_WORD = 2


def _size(text: str, language: Language) -> int:
    if language.cjk:
        return len(text) // CJK_CHARS_A_WORD
    return len(text.split())


def statements(body: str, language: Language, *, keep_all: bool = False) -> list[str]:
    """The statements of a message body worth a memory each (`keep_all`: every one, questions and
    greetings too, merged the same way). A short statement joins the one before it, or the one after it
    when it opens the message ("Muy bien. Mañana vuelvo a Sevilla.")."""
    joiner = "" if language.cjk else " "
    kept: list[str] = []
    opening = ""
    for sentence in split_statements(body):
        if not keep_all and (is_question(sentence) or is_courtesy(sentence)):
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


def memory(
    statement: str,
    language: Language,
    *,
    speaker: str | None,
    timestamp: datetime,
    message_ids: Sequence[str],
    context: str | None = None,
) -> ExtractedMemory:
    """One statement as a memory: verbatim, typed by the date it names, its speaker named as a prefix."""
    said = f"{speaker}: {statement}" if speaker else statement
    event_time = date_mentioned(statement, timestamp)
    return ExtractedMemory(
        MemoryType.EVENT if event_time is not None else MemoryType.FACT,
        truncate(said, SUMMARY_MAX_CHARS),
        truncate(said, CONTENT_MAX_CHARS),
        None,
        event_time,
        tuple(message_ids),
        truncate(context, CONTEXT_MAX_CHARS) if context else "",
        language.config,
    )
