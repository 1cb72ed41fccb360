"""The default extractor: offline, deterministic, rule-based.

A message is split into sentences; chit-chat and bare questions are dropped;
what is left is typed (instruction, task, event, fact), given a topic key when
it states a replaceable attribute (home city, job, favourite colour, the
agent's tone…), dated against the message timestamp, and summarised with
first and second person resolved to names. It needs nothing outside the
process and runs thousands of messages a second, so the worker can use it on
every ingest and ``/remember`` can call it inline.

This module walks the messages and groups their sentences; the English rules it applies live beside it:
`remarks` (chit-chat, telling questions, requests), `typing_rules` (type and topic key, in order),
`summaries` (persons resolved, relative times made absolute, searchable context), `conversation` (the
partner's turn, addressees, names, plans now due) and `statements` (their shared thresholds and shapes).
A message in another language is kept verbatim (`verbatim`).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from app.core.memory_types import DEFAULT_TYPE
from app.extraction import chit_chat as cc
from app.extraction import verbatim
from app.extraction.conversation import (
    _addressee,
    _Conversation,
    _due_plans,
    _is_report,
    _name_forms,
    _partner_turn,
    _previous_question,
    _speech_for,
    _split_compound,
)
from app.extraction.remarks import (
    _informative_question,
    _is_chitchat,
    _is_dependent,
    _says_nothing,
    _strip_thanks,
)
from app.extraction.statements import (
    ANSWERED_QUESTION_CONTENT_WORDS,
    MERGE_HEADROOM_CHARS,
    MESSAGE_MEMORY_BOUND,
    MESSAGE_SENTENCE_BUDGET,
    MIN_REMEMBERED_CHARS,
    SHORT_REPLY_TOKENS,
    _Group,
    _Speech,
    _tokens,
)
from app.extraction.summaries import _context
from app.extraction.text import (
    collapse_spaces,
    parse_message,
    truncate,
)
from app.extraction.types import (
    CONTENT_MAX_CHARS,
    SUMMARY_MAX_CHARS,
    ExtractedMemory,
    InputMessage,
)
from app.extraction.typing_rules import _build
from app.language.detect import ENGLISH, Language, detect
from app.language.languages.en import lexicon as lx
from app.language.sentences import split_sentences
from app.language.temporal import TimeMention


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
        sentences = split_sentences(p.body, ENGLISH.code) if p.body else []
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
