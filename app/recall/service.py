"""Rules of recall: channels, weighted reciprocal-rank fusion, priors, the second stage, and the answer.

`thinkingLevel` picks the work: `low` is the first stage alone (each channel 20 deep); `medium` (the
default) looks 50 deep and reranks the fused top 50 (`app.recall.rerank`); `high` looks 100 deep and
reranks the top 100. The figures behind these choices are
printed by `bench/eval_retrieval.py`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from itertools import accumulate
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.core.db import Reads, read_connection
from app.core.memory_types import POLICIES, types_where
from app.core.settings import Settings
from app.core.work_slots import WorkSlots
from app.embeddings.repository import StoredVectors
from app.embeddings.service import Semantic, SemanticQuery, semantic_of
from app.extraction.chit_chat import refers_to_someone
from app.extraction.remarks import says_nothing
from app.language.detect import detect
from app.language.lemmas import base_forms
from app.language.questions import asks_only_what_was_done
from app.language.sentences import sentences_of
from app.language.temporal import time_phrase
from app.llm.answers import write_answer
from app.llm.client import LlmClient, LlmError, llm_of
from app.models import Profile
from app.profiles.service import Named
from app.recall import query as q
from app.recall import relevance, repository
from app.recall.answer import asks_for_a_list, compose_answer
from app.recall.expansions import related_words
from app.recall.levels import LEVELS, Level
from app.recall.related_words import nearest_words
from app.recall.relations import relations_of
from app.recall.repository import Candidate
from app.recall.rerank import Features, Query, idf, name_terms
from app.recall.rerank import features as rerank_features
from app.recall.rerank import score as rerank_score
from app.recall.schemas import RecallCandidate, RecallRequest, RecallResult
from app.recall.trace import Tracer

logger = logging.getLogger("agent_memory.recall")


# Reciprocal-rank constant: far below the usual 60, so a channel's first few ranks count much more than
# its tail (a precise channel's top hit should decide).
RRF_K = 5

# Channel weights in the fusion. Memory text is the main evidence; the raw conversation backs it up
# (it still holds what the summary left out); topic keys and time windows are precise when they fire.
W_MEMORY = 1.0
W_MESSAGE = 0.9
W_TOPIC = 0.9
W_WINDOW = 0.9
W_PRIOR = 0.02
# The turns beside the best full-text hits (the answer to a matching question, the rest of its story) weigh
# little: on the development sets 0.2 gained on all three (any@10 +0.4, +1.1 to +2.1 and +3.8 points over
# repeated runs), 0.6 lost on one.
W_NEAR = 0.2
# The memories of a type the question names as a kind ("What tasks do I have?").
W_TYPE = 0.9
# A question that names a time or a type and little else ("What did I do yesterday?", "What's on my to-do
# list?") is answered by the window or the type's memories.
W_LED = 3.0
TIME_LED_TERMS = 1

# Priors from the type policy table: lasting statements first, then events; tasks of older sessions last.
TYPE_PRIOR = {p.type.value: p.recall_prior for p in POLICIES}
_RANK_LOWER_AFTER_SESSION = frozenset(types_where(lambda p: p.ranks_lower_after_its_session))
# A type whose items rank lower after their session (tasks) loses this much once a newer session exists:
# more than the gap between any two type priors, so an older session's task sorts below every other type.
OLDER_SESSION_PENALTY = 0.2
# The prior of a type the table does not know (a row written by a newer version): below every known type.
UNKNOWN_TYPE_PRIOR = 0.1
PHRASE_WEIGHT = 2.0
EXPANSION_WEIGHT = 0.35
# The question words' nearest words (`related_words.nearest_words`); 0.25–0.35 measured alike, 0.5 lost.
NEAREST_WEIGHT = 0.25


def _reference(value: datetime | date | None) -> datetime:
    if value is None:
        return datetime.now(UTC)
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    # A bare date means the end of that day: "yesterday" is the day before it.
    return datetime.combine(value, time(23, 59, 59), tzinfo=UTC)


def _start_of_day(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def _terms(parsed: q.ParsedQuery, phrases: list[str]) -> repository.Terms:
    lexemes = [(lexeme, 1.0) for lexeme in parsed.lexemes]
    lexemes += [(lexeme, EXPANSION_WEIGHT) for lexeme in parsed.expanded]
    return repository.Terms(lexemes=lexemes, phrases=[(p, PHRASE_WEIGHT) for p in phrases])


def _stems(terms: repository.Terms) -> set[str]:
    return {lexeme for lexeme, _ in terms.lexemes}


def _topic_matches(rows: list[tuple[str, str]], words: set[str]) -> list[str]:
    """Memories whose topic key names what the question asks about (`melanie.favourite_color`)."""
    scored: list[tuple[int, str]] = []
    for memory_id, key in rows:
        owner, _, attribute = key.partition(".")
        parts = set(re.split(r"[_.]", attribute)) - {""}
        hit = len(parts & words)
        if not hit or hit < min(len(parts), 2):
            continue
        if (
            owner not in ("user", "agent")
            and owner.replace("_", " ") not in " ".join(sorted(words))
            and (owner not in words)
        ):
            continue
        scored.append((hit, memory_id))
    scored.sort(key=lambda item: (-item[0], item[1]), reverse=False)
    return [memory_id for _, memory_id in scored]


@dataclass(frozen=True)
class Channel:
    """One ranked list of memory ids, best first, and its weight in the fusion. A new channel (e.g.
    semantic similarity) is one more of these."""

    name: str
    weight: float
    ranked: list[str]


def _fuse(channels: list[Channel]) -> tuple[dict[str, float], dict[str, int]]:
    """Weighted reciprocal-rank fusion; also how many channels found each memory."""
    fused: dict[str, float] = defaultdict(float)
    hits: dict[str, int] = defaultdict(int)
    for channel in channels:
        for rank, memory_id in enumerate(channel.ranked, start=1):
            fused[memory_id] += channel.weight / (RRF_K + rank)
            hits[memory_id] += 1
    return fused, hits


def _window_ranked(found: repository.Channels) -> list[str]:
    """Events inside the window first, newest first; then memories told inside it."""
    return list(dict.fromkeys(found.window + found.told))


def _prior_order(rows: dict[str, Candidate], latest_session: str | None) -> list[str]:
    def prior(memory_id: str) -> tuple[float, str]:
        row = rows[memory_id]
        value = TYPE_PRIOR.get(row.type, UNKNOWN_TYPE_PRIOR)
        if (
            row.type in _RANK_LOWER_AFTER_SESSION
            and latest_session is not None
            and row.session_id not in (None, latest_session)
        ):
            value -= OLDER_SESSION_PENALTY
        return (value, memory_id)

    return sorted(rows, key=prior, reverse=True)


def _diversify(ordered: list[str], sources: dict[str, set[str]]) -> list[str]:
    """Demote a memory whose source messages are all covered by better-ranked ones: one statement split
    into several memories should not crowd distinct information out of the top of the list."""
    head: list[str] = []
    tail: list[str] = []
    covered: set[str] = set()
    for memory_id in ordered:
        own = sources.get(memory_id, set())
        if own and own <= covered:
            tail.append(memory_id)
        else:
            head.append(memory_id)
            covered |= own
    return head + tail


@dataclass(frozen=True)
class Ranked:
    """Recall's database work, done: the result with its extractive answer, and what an LLM answer needs."""

    result: RecallResult
    best: list[Candidate]
    reference: datetime


@dataclass(frozen=True)
class LexicalStage:
    """Recall's work on its first connection: the question read, every lexical channel's hits with their
    candidates' details, and the profile's vectors where they are ranked in process. The semantic channel
    joins them once the question's vector is in (`semantic_stage`)."""

    request: RecallRequest
    language: str  # the question's (ISO 639-1)
    reference: datetime
    level: Level
    width: int
    window: tuple[datetime, datetime] | None
    types: list[str]
    visible: repository.Visible
    analysis: repository.Analysis
    profile_id: int
    parsed: q.ParsedQuery
    terms: repository.Terms  # the question's own terms (the second stage weighs these)
    searched: repository.Terms  # and its nearest words (what the channels looked for)
    found: repository.Channels
    stored: StoredVectors | None  # the profile's vectors, read ahead (`Semantic.stored_vectors`)
    only_when: bool = False  # a time and its language's way of asking what was done ("¿Qué hice ayer?")


async def lexical_stage(
    db: Reads,
    profile: Profile | Named,
    request: RecallRequest,
    *,
    semantic: Semantic | None,
    exact_rows: int,
    timeout: float,
    tracer: Tracer | None = None,
) -> LexicalStage:
    """Every lexical channel of the question, with its candidates' details, and with `semantic` (embeddings
    configured) the profile's vectors read ahead. `profile`: resolved, or as the request names it
    (resolved by the first statement, one round trip fewer; 404 as `profiles.for_read`). Profiles up to
    `exact_rows` rows are ranked exactly (`app.recall.repository`); each statement is cancelled past
    `timeout` seconds. `tracer` (`trace: true`) watches each stage."""
    reference = _reference(request.reference_date)
    level = LEVELS[request.thinking_level]
    width = max(level.width, request.limit)
    # The time expression picks the window; its words ("two days ago") are not what to search for.
    text = request.query
    window = None
    # The question is read in its own language, as its memories were stored: its time words too.
    language = detect(request.query)
    if (found_time := time_phrase(text, reference, language.code)) is not None:
        window, (start, end) = found_time
        text = text[:start] + " " + text[end:]
    # "What's on my to-do list?" asks for the tasks themselves, not for memories holding "to-do".
    types, text = q.types_asked(text, language.code)
    visible = repository.Visible(as_of=request.as_of, metadata=request.metadata)
    # "the user's husband" is who the profile calls "my husband Sam": his name is searched as a question
    # word (`analyse` reads it), and the relation's other words ("mother" → mum) lightly.
    relations = relations_of(text, language.code, language.config)
    phrases = q.phrases_of(text)
    words = q.words_of(text, language.code)
    # Irregular verbs in their base form too ("ran" → run): the stemmer leaves them apart.
    lemmas, expanded = " ".join(base_forms(text, language.code)), related_words(words, language.code)
    related = " ".join(filter(None, [expanded, lemmas, *(relations.words if relations else [])]))
    analysis = await repository.analyse(
        db,
        profile if isinstance(profile, Named) else profile.id,
        text,
        phrases,
        related,
        exact_rows,
        timeout,
        language=language,
        relations=relations,
        visible=visible,
    )
    profile_id = (
        profile.resolved(analysis.namespace_id, analysis.profile_id)
        if isinstance(profile, Named)
        else profile.id
    )
    parsed = q.build(analysis.lexemes, analysis.phrases, text, language, related=analysis.related)

    terms = _terms(parsed, analysis.phrases)
    # The question in other words is searched, lightly, but not weighed again in the second stage, whose
    # related-words feature measures that closeness itself.
    nearest = nearest_words(text, _stems(terms))
    searched = dataclasses.replace(terms, lexemes=terms.lexemes + [(x, NEAREST_WEIGHT) for x in nearest])
    if tracer:
        tracer.lap("analysis")
        tracer.analysed(
            request,
            language=language,
            question=text,
            own_terms=parsed.lexemes,
            terms=[lexeme for lexeme, _ in terms.lexemes],
            phrases=phrases,
            window=window,
            relation_words=relations.words if relations else [],
            nearest=nearest,
        )
    found = await repository.channels(
        db,
        profile_id,
        searched,
        analysis,
        sorted(parsed.words),
        window,
        width,
        visible,
        timeout=timeout,
        ahead=window is not None and window[0] >= _start_of_day(reference),
        types=types,
    )
    stored = await semantic.stored_vectors(db, profile_id) if semantic is not None else None
    if tracer:
        tracer.lap("channels")
    only_when = window is not None and asks_only_what_was_done(text, language.code)
    return LexicalStage(
        request, language.code, reference, level, width, window, types, visible, analysis, profile_id, parsed, terms,
        searched, found, stored, only_when,
    )  # fmt: skip


async def semantic_stage(
    db: Reads, lexical: LexicalStage, question: SemanticQuery, timeout: float, tracer: Tracer | None = None
) -> list[tuple[str, float]]:
    """The semantic channel, once the question's vector is in: the profile's memories nearest to it, best
    first, the details of those no lexical channel found added to the candidates (only those the
    visibility rules, asOf and metadata, let through have details)."""
    similar = await question.nearest(db, lexical.profile_id, lexical.width, lexical.stored)
    candidates = lexical.found.candidates
    unseen = [memory_id for memory_id, _ in similar if memory_id not in candidates]
    if unseen:
        candidates.update(
            await repository.details(
                db, lexical.profile_id, lexical.searched, unseen, lexical.visible, timeout
            )
        )
    if tracer:
        tracer.lap("channels")
    return similar


def fuse_and_answer(
    lexical: LexicalStage,
    semantic: tuple[SemanticQuery, list[tuple[str, float]]] | None,
    tracer: Tracer | None = None,
) -> Ranked:
    """Rank the candidates and answer extractively: the channels fused (`semantic`: the question with the
    semantic channel's hits, when embeddings are configured), the priors, the second stage, the answer.
    No database work."""
    request, found, parsed, width = lexical.request, lexical.found, lexical.parsed, lexical.width
    level, window, types = lexical.level, lexical.window, lexical.types
    rows = found.candidates
    # A question that names a time or a type and little else is answered by that channel.
    led = len(parsed.lexemes) <= TIME_LED_TERMS
    time_led = window is not None and (led or lexical.only_when)
    channels = [
        Channel("memory_text", W_MEMORY, found.memory),
        Channel("message_text", W_MESSAGE, found.message),
        Channel("topic", W_TOPIC, _topic_matches(found.topic, parsed.words)[:width]),
        Channel("time_window", W_LED if time_led else W_WINDOW, _window_ranked(found)[:width]),
        Channel("near", W_NEAR, found.near),
    ]
    if types:
        channels.append(Channel("type", W_LED if led else W_TYPE, found.typed[:width]))
    if semantic is not None:
        question, similar = semantic
        ranked_similar = [memory_id for memory_id, _ in similar if memory_id in rows]
        channels.append(Channel("semantic", question.semantic.weight, ranked_similar))
    fused, hits = _fuse(channels)
    if not fused:
        return Ranked(RecallResult(count=0, answer="", candidates=[]), [], lexical.reference)
    if level.rerank:
        # Only the fused head goes on: the second stage reranks it, the tail could never reach the top.
        head = sorted(fused, key=lambda m: (fused[m], m), reverse=True)[: max(level.rerank, request.limit)]
        fused = {m: fused[m] for m in head}
    # The priors and the second stage look at the fused candidates only, as when their details were read
    # for them alone (a speaker is one a fused candidate names).
    fused_rows = {m: rows[m] for m in fused}
    prior_order = _prior_order(fused_rows, found.latest_session)
    for rank, memory_id in enumerate(prior_order, start=1):
        fused[memory_id] += W_PRIOR / (RRF_K + rank)
    first_stage = fused
    if tracer:
        tracer.lap("fusion")
    query_terms = {t: w for t, w in lexical.terms.lexemes}
    query = Query(query_terms, found.df, lexical.analysis.memories.rows, request.query, lexical.language)
    rerank_seen: dict[str, Features] | None = None
    if level.rerank:
        rerank_seen = rerank_features(fused, fused_rows, hits, query, len(channels))
        fused = rerank_score(rerank_seen)
        if tracer:
            tracer.lap("rerank")

    # Ties go to the newer memory (ULIDs sort by time).
    ordered = sorted(fused, key=lambda m: (fused[m], m), reverse=True)
    ranked = _diversify(ordered, {m: set(rows[m].sources) for m in ordered})
    ranked = ranked[: request.limit]
    top = fused[ranked[0]]
    # A memory `_diversify` moved down scores no more than the one now above it.
    rank_scores = dict(zip(ranked, accumulate((fused[m] / top for m in ranked), min), strict=True))
    # Each returned candidate's absolute relevance: the chance that it answers the question.
    returned = {m: rows[m] for m in ranked}
    if rerank_seen is None:
        rerank_seen = rerank_features(
            {m: first_stage[m] for m in ranked}, returned, hits, query, len(channels)
        )
    asked = _relevance_question(lexical, semantic, query, returned)
    judged = relevance.features(asked.question, ranked, rows, rerank_seen, rank_scores)
    read = relevance.question_features(
        [judged[m] for m in ranked],
        says_nothing=says_nothing(request.query, lexical.language),
        refers_to_someone=bool(asked.names) or refers_to_someone(request.query, lexical.language),
    )
    answerable = relevance.ANSWERABILITY.probability(read)
    probability = {m: answerable * relevance.EVIDENCE.probability(judged[m]) for m in ranked}
    # A question that names a time or a type and little else ("What did I do yesterday?", "What's on my
    # to-do list?") asks for the memories of that window or type: those are its answer by what it asks.
    leading = set(_window_ranked(found)) if time_led else set(found.typed) if types and led else set()
    for m in leading.intersection(ranked):
        probability[m] = max(probability[m], relevance.LED)
    # Candidates in the order of their relevance (the ranking breaks ties); those below minScore are held back.
    # A question of a time alone: what is dated inside the window before what was only told in it.
    only_time = time_led and (lexical.only_when or not parsed.lexemes)
    window_order = {m: i for i, m in enumerate(_window_ranked(found))} if only_time else {}
    ranked = sorted(ranked, key=lambda m: (-probability[m], window_order.get(m, len(window_order))))
    kept = [m for m in ranked if probability[m] >= request.min_score]
    candidates = [
        RecallCandidate(
            id=m,
            type=rows[m].type,
            summary=rows[m].summary,
            session_id=rows[m].session_id,
            event_time=rows[m].event_time,
            speaker=rows[m].speaker,
            score=round(probability[m], 6),
        )
        for m in kept
    ]
    best = [rows[m] for m in kept]
    # Which others join the best in the answer is judged on the ranking's own scale: close to the best.
    closeness = [rank_scores[m] / rank_scores[kept[0]] for m in kept]
    listing = asks_for_a_list(request.query, lexical.language)
    answer = compose_answer(best, request.response_length, closeness, listing=listing, window=window)
    if tracer:
        tracer.lap("answer")
        # The second stage's features as it computed them (none at `low`): the trace changes nothing.
        features = rerank_seen if level.rerank else None
        if level.rerank:
            tracer.speakers(name_terms(query, fused_rows))
        prior = Channel("prior", W_PRIOR, prior_order)
        tracer.answerability(read, answerable)
        tracer.explain(
            candidates,
            [rank_scores[m] for m in kept],
            [judged[m] for m in kept],
            leading,
            [*channels, prior],
            RRF_K,
            first_stage,
            features,
            fused,
        )
    return Ranked(
        RecallResult(count=len(candidates), answer=answer, candidates=candidates), best, lexical.reference
    )


@dataclass(frozen=True)
class _Asked:
    """The question as relevance reads it, and whom it names."""

    question: relevance.Question
    names: set[str]  # the question's terms that name someone speaking in the candidates


def _relevance_question(
    lexical: LexicalStage,
    semantic: tuple[SemanticQuery, list[tuple[str, float]]] | None,
    query: Query,
    returned: dict[str, Candidate],
) -> _Asked:
    """The question as relevance reads it: its own terms' weights in the profile (the names of the people
    speaking left out: a name is whose memory, not what it is about), the semantic channel's similarities,
    the memories inside its time window."""
    names = name_terms(query, returned)
    n = max(query.n, relevance.MIN_ROWS)
    weights = {t: idf(query.df.get(t, 0), n) for t in lexical.parsed.lexemes if t not in names}
    similar = dict(semantic[1]) if semantic is not None and semantic[1] else None
    found = lexical.found
    in_window = frozenset(found.window) | frozenset(found.told) if lexical.window is not None else None
    return _Asked(relevance.Question(weights, query.df, similar, in_window), names)


async def answer_with_llm(llm: LlmClient, request: RecallRequest, ranked: Ranked) -> RecallResult:
    """The result with its answer written by the LLM (the extractive one if it fails). Call it with no
    database connection held: it waits on the LLM."""
    if not ranked.best:
        return ranked.result
    try:
        memories = [dataclasses.asdict(memory) for memory in ranked.best]
        answer = await write_answer(
            llm, request.query, memories, request.response_length, ranked.reference, sentences=sentences_of
        )
    except LlmError as exc:
        logger.warning("LLM answer failed, answering extractively: %s", exc)
        return ranked.result
    return ranked.result.model_copy(update={"answer": answer})


@dataclass(frozen=True)
class RecallApp:
    """What recall needs of the running app: its engine and settings, the threads its ranking runs on, and
    the embedder and the LLM when they are configured."""

    engine: AsyncEngine
    settings: Settings
    slots: WorkSlots
    semantic: Semantic | None
    llm: LlmClient | None

    @classmethod
    def of(cls, state: Any, engine: AsyncEngine | None = None) -> RecallApp:
        """From the app's state (`request.app.state`), as the lifespan set it up; `engine`: where its reads
        go when not the primary (a read replica, `app.core.consistency.read_engine`)."""
        return cls(
            engine or state.engine, state.settings, state.work_slots, semantic_of(state), llm_of(state)
        )


async def recall_and_answer(app: RecallApp, profile: Profile | Named, request: RecallRequest) -> RecallResult:
    """Recall, whole: the question embedded while the lexical stages read on a connection of their own under
    the configured bounds, the semantic channel joined, the connection released, the answer written. The
    one sequence the REST route, the MCP tool and the session tool share. Call it with no connection held:
    it waits on the embedder and the LLM."""
    tracer = Tracer() if request.trace else None
    # The question is embedded (in a thread: the local model's CPU work; or a request to an endpoint) while
    # the lexical stages run: a recall then costs about the longer of the two, not their sum.
    embedding = (
        asyncio.ensure_future(app.semantic.embed_question(request.query))
        if app.semantic is not None
        else None
    )
    try:
        # A recall's reads and ranking take a slot of the process (`app.core.work_slots`): a burst of
        # recalls neither floods PostgreSQL with more statements than the cores run nor leaves the event
        # loop waiting for a core; the rest wait, within the request's bound, then 503.
        async with app.slots.slot():
            ranking = await _ranking(app, profile, request, embedding, tracer)
    finally:
        if embedding is not None:
            embedding.cancel()  # a recall that failed (404, 503) leaves no task behind
    result = ranking.result
    if app.llm is not None:
        # The reads are done and the connection back in the pool: none waits on the LLM.
        result = await answer_with_llm(app.llm, request, ranking)
    if tracer is None:
        return result
    tracer.lap("answer")
    return result.model_copy(update={"trace": tracer.trace()})


async def _ranking(
    app: RecallApp,
    profile: Profile | Named,
    request: RecallRequest,
    embedding: asyncio.Future[SemanticQuery] | None,
    tracer: Tracer | None,
) -> Ranked:
    timeout = app.settings.recall_timeout_seconds
    semantic: tuple[SemanticQuery, list[tuple[str, float]]] | None = None
    async with read_connection(app.engine) as db:
        lexical = await lexical_stage(
            db,
            profile,
            request,
            semantic=app.semantic,
            exact_rows=app.settings.recall_exact_rows,
            timeout=timeout,
            tracer=tracer,
        )
        if embedding is not None and embedding.done():
            question = embedding.result()
            semantic = (question, await semantic_stage(db, lexical, question, timeout, tracer))
    if embedding is not None and semantic is None:
        # The embedding is still running: the connection went back to the pool meanwhile (none waits on
        # the embedder, whose bound may be seconds), and one is taken again for the semantic candidates.
        question = await embedding
        if tracer:
            tracer.lap("embedding")
        async with read_connection(app.engine) as db:
            semantic = (question, await semantic_stage(db, lexical, question, timeout, tracer))
    # The ranking itself reads nothing more: no connection held. Its CPU work (fusion, the second stage,
    # the answer) runs in a thread, never on the event loop (`app.core.work_slots`).
    return await app.slots.run(fuse_and_answer, lexical, semantic, tracer)
